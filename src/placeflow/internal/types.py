"""`tf.__internal__.types`: the abstract tensor type (keras backend/tensorflow/core.py: `class Variable(...,
tf.__internal__.types.Tensor, ...)`) and `tf.__internal__.CompositeTensor` (keras optimizer.py, trainer.py).
The classes live in framework/tensor_types.py (tf.is_tensor answers by them); placeflow's register here."""

from ..framework.tensor_types import CompositeTensor, Tensor  # noqa: F401


def _register() -> None:
    from ..eager.tensor import EagerTensor
    from ..eager.variables import Variable
    from ..graph.graph import Tensor as GraphTensor
    from ..api.sparse import SparseTensor
    from ..distribute.values import PerReplica
    from ..ops.indexed_slices import IndexedSlices
    for cls in (EagerTensor, GraphTensor, Variable):
        Tensor.register(cls)
    for cls in (SparseTensor, IndexedSlices):
        CompositeTensor.register(cls)
    CompositeTensor.register(PerReplica)  # keras backend/tensorflow/trainer.py `_is_per_replica_instance`


_register()
