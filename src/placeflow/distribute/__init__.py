"""placeflow.distribute: MirroredStrategy, MultiWorkerMirroredStrategy, OneDeviceStrategy, distributed values,
all-reduce choices, and task servers."""

from . import slurm_resolver as cluster_resolver  # noqa: F401 - tf.distribute.cluster_resolver.*Resolver
from . import experimental  # noqa: F401
from .cross_device_ops import (  # noqa: F401
    CrossDeviceOps, HierarchicalCopyAllReduce, NcclAllReduce, ReductionToOneDevice,
)
from .distribution_context import (  # noqa: F401
    ReplicaContext, get_cross_replica_context, get_replica_context, get_strategy, has_strategy,
    in_cross_replica_context,
)
from .input_lib import InputContext, ValueContext  # noqa: F401
from .input_options import (  # noqa: F401
    InputOptions, InputReplicationMode, RunOptions, experimental_set_strategy,
)
from .input_lib import DistributedDatasetInterface as DistributedDataset  # noqa: F401
from .input_lib import DistributedIteratorInterface as DistributedIterator  # noqa: F401
from .multi_worker import (  # noqa: F401
    CommunicationImplementation, CommunicationOptions, MultiWorkerMirroredStrategy,
)
from .reduce_op import ReduceOp  # noqa: F401
from .remote import Server  # noqa: F401
from .strategy import MirroredStrategy, OneDeviceStrategy, Strategy, StrategyExtended, TPUStrategy  # noqa: F401
from .values import DistributedValues, Mirrored, MirroredVariable, PerReplica  # noqa: F401
