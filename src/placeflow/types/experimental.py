"""tf.types.experimental: the types of tf.function objects and of their traces."""

from ..graph.function import ConcreteFunction, Function

GenericFunction = Function       # what tf.function returns
PolymorphicFunction = Function
ConcreteFunction = ConcreteFunction

# TensorFlow's abstract types (api/misc_names.py); placeflow's functions and distributed values register with them
from ..api.misc_names import (  # noqa: E402,F401
    AtomicFunction, Callable, FunctionType, SupportsTracingProtocol, TensorLike, TraceType, function_type_of,
)
from ..api.misc_names import Mirrored as _Mirrored, PerReplica as _PerReplica  # noqa: E402
from ..distribute import values as _values  # noqa: E402

for _cls in (Function, ConcreteFunction):
    if not hasattr(_cls, "function_type"):
        _cls.function_type = property(function_type_of, doc="The FunctionType of this function's arguments.")
    Callable.register(_cls)
_Mirrored.register(_values.Mirrored)
_Mirrored.register(_values.MirroredVariable)
_PerReplica.register(_values.PerReplica)


class distributed:  # noqa: N801 - TensorFlow's namespace name
    """tf.types.experimental.distributed: the abstract types of distributed values."""

    Mirrored = _Mirrored
    PerReplica = _PerReplica
