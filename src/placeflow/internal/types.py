"""`tf.__internal__.types`: the abstract tensor type (keras backend/tensorflow/core.py: `class Variable(...,
tf.__internal__.types.Tensor, ...)`) and `tf.__internal__.CompositeTensor` (keras optimizer.py, trainer.py)."""

import abc


class Tensor(abc.ABC):  # noqa: B024 - an abstract marker, as TF's types.Tensor
    """Anything that acts as a tensor: placeflow's tensors and variables, and Keras's variables."""


class CompositeTensor(abc.ABC):  # noqa: B024
    """A value made of several tensors (SparseTensor, RaggedTensor); placeflow's register themselves."""


def _register() -> None:
    from ..eager.tensor import EagerTensor
    from ..eager.variables import Variable
    from ..graph.graph import Tensor as GraphTensor
    from ..api.sparse import SparseTensor
    from ..distribute.values import PerReplica
    for cls in (EagerTensor, GraphTensor, Variable):
        Tensor.register(cls)
    CompositeTensor.register(SparseTensor)
    CompositeTensor.register(PerReplica)  # keras backend/tensorflow/trainer.py `_is_per_replica_instance`


_register()
