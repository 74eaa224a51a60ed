"""tf.distribute.experimental.CentralStorageStrategy: variables on one device, the step on every compute device.

Each variable made in `scope()` lives once, on the parameter device (the CPU, or the only compute device
when there is one). `run` calls the step once per compute device as MirroredStrategy does; every replica
reads the central variables, and reductions (gradients) are summed on the parameter device, where the
update is applied once. With several replicas a variable is a `CentralVariable`: assigning to it inside a
replica needs an aggregation (SUM, MEAN, ONLY_FIRST_REPLICA), as in TensorFlow. Variables made with
synchronization=ON_READ (Keras metrics) keep one copy per compute device, as MirroredStrategy's do.
"""

from __future__ import annotations

from ..api.device import device as device_scope
from ..config import context as context_module
from ..runtime import registry
from . import cross_device_ops as cross_device_ops_lib
from . import distribution_context, input_lib
from .input_options import InputReplicationMode, check_input_options, check_run_options
from .reduce_op import VariableAggregation, VariableSynchronization
from .strategy import HOST, MirroredStrategy, Strategy, StrategyExtended, _canonical_devices
from .values import MirroredVariable, select_replica


class CentralVariable(MirroredVariable):
    """A variable stored once on the parameter device and read by every replica (TF's AggregatingVariable)."""

    def _current(self):
        return self._components[0]

    def _update_in_replica(self, replica, op, value, read_value, attrs=None):
        if self._aggregation == VariableAggregation.NONE:
            raise ValueError(f"You must specify an aggregation method to update a variable in Replica Context "
                             f"(variable {self.name!r}, op {op}). Pass aggregation= (SUM, MEAN or ONLY_FIRST_REPLICA) "
                             "to tf.Variable, or update it in cross-replica context (strategy.extended.update).")
        return super()._update_in_replica(replica, op, value, read_value, attrs)

    def __repr__(self) -> str:
        return repr(self._components[0])


class CentralStorageExtended(StrategyExtended):
    """CentralStorageStrategy's lower-level API: one parameter device, several compute devices."""

    def __init__(self, strategy, devices, cross_device_ops, parameter_device):
        super().__init__(strategy, devices, cross_device_ops)
        self._parameter_device = parameter_device

    @property
    def parameter_devices(self) -> tuple:
        """The one device holding the variables."""
        return (self._parameter_device,)

    def update(self, var, fn, args=(), kwargs=None, group=True):
        """fn(var, *args) once, on the parameter device (distributed args: their first replica's part)."""
        if not isinstance(var, CentralVariable):
            return super().update(var, fn, args, kwargs, group)
        with device_scope(self._parameter_device), distribution_context.updating(0):
            result = fn(var.primary, *select_replica(0, args), **select_replica(0, kwargs or {}))
        return [result] if group else result


def _default_compute_devices() -> list:
    ctx = context_module._context or context_module.context()
    gpus = [d.name for d in registry.devices(ctx) if d.device_type == "GPU"]
    return gpus or [HOST]


class CentralStorageStrategy(Strategy):
    """Variables on one device, computation replicated on the compute devices (every GPU, else the CPU)."""

    def __init__(self, compute_devices=None, parameter_device=None):
        devices = _canonical_devices(compute_devices) if compute_devices is not None else \
            _default_compute_devices()
        if parameter_device is not None:
            parameter_device = _canonical_devices([parameter_device])[0]
        else:
            parameter_device = devices[0] if len(devices) == 1 else HOST
        super().__init__(devices, cross_device_ops_lib.ReductionToOneDevice(reduce_to_device=parameter_device))
        self._extended = CentralStorageExtended(self, devices, self._extended._cross_device_ops, parameter_device)

    def _create_variable(self, next_creator, **kwargs):
        synchronization = kwargs.get("synchronization") or VariableSynchronization.AUTO
        if synchronization == VariableSynchronization.ON_READ and self.num_replicas_in_sync > 1:
            return MirroredStrategy._create_variable(self, next_creator, **kwargs)
        if synchronization == VariableSynchronization.NONE:
            raise ValueError("`NONE` variable synchronization mode is not supported with tf.distribute strategy. "
                             "Please change the `synchronization` for variable: " + str(kwargs.get("name")))
        kwargs.pop("synchronization", None)
        aggregation = kwargs.pop("aggregation", None) or VariableAggregation.NONE
        with device_scope(self._extended._parameter_device):
            if callable(kwargs.get("initial_value")):
                kwargs["initial_value"] = kwargs["initial_value"]()
            variable = next_creator(**kwargs)
        if self.num_replicas_in_sync == 1:
            return variable
        return CentralVariable.create(self, [variable], aggregation)

    def run(self, fn, args=(), kwargs=None, options=None):
        """fn once per compute device (as MirroredStrategy.run); `options`: a tf.distribute.RunOptions."""
        check_run_options(options)
        return super().run(fn, args, kwargs)

    def experimental_distribute_dataset(self, dataset, options=None):
        """Each global batch split across the replicas; InputOptions' fetch_to_device (False: the batches stay
        on the host CPU) and per_replica_buffer_size (batches prefetched) are honoured."""
        checked = check_input_options(options)
        devices = self._extended.worker_devices if checked.experimental_fetch_to_device else \
            [HOST] * self.num_replicas_in_sync
        prefetch = 2 if options is None else checked.experimental_per_replica_buffer_size
        return input_lib.DistributedDataset(dataset, devices, prefetch=prefetch)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """dataset_fn(InputContext) builds the input; replica i gets every n-th element (PER_WORKER only)."""
        checked = check_input_options(options, from_function=True)
        if checked.experimental_replication_mode == InputReplicationMode.PER_REPLICA:
            raise NotImplementedError("InputReplicationMode.PER_REPLICA is not implemented in placeflow's "
                                      "CentralStorageStrategy: use PER_WORKER (the default).")
        if not checked.experimental_fetch_to_device:
            raise NotImplementedError("InputOptions(experimental_fetch_to_device=False) is not implemented for "
                                      "distribute_datasets_from_function in placeflow: leave it True.")
        return super().distribute_datasets_from_function(dataset_fn)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function
