"""The abstract tensor types `tf.is_tensor` answers by (tf.__internal__.types.Tensor and CompositeTensor).

Keras 3's Variable subclasses `types.Tensor`; SparseTensor, IndexedSlices and per-replica values are
composite tensors. placeflow's classes are registered with them in internal/types.py."""

import abc


class Tensor(abc.ABC):  # noqa: B024 - an abstract marker, as TF's types.Tensor
    """Anything that acts as a tensor: placeflow's tensors and variables, and Keras's variables."""


class CompositeTensor(abc.ABC):  # noqa: B024
    """A value made of several tensors (SparseTensor, IndexedSlices, PerReplica)."""
