"""tf.IndexedSlices: rows `values[i]` of a tensor at row indices `indices[i]` (a sparse gradient's form).

placeflow's gradients are dense, so none of its ops make one; user code and Keras can, and any op that
takes it converts it to the dense tensor (repeated indices add up, as TF's conversion does)."""

from __future__ import annotations


class IndexedSlices:
    """A sparse set of rows of a dense tensor of `dense_shape`."""

    def __init__(self, values, indices, dense_shape=None):
        from ..eager.convert import convert_to_tensor
        self.values = convert_to_tensor(values)
        self.indices = convert_to_tensor(indices)
        self.dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)

    @property
    def dtype(self):
        """The values' dtype."""
        return self.values.dtype

    @property
    def shape(self):
        """The dense shape, where known."""
        from ..framework.tensor_shape import TensorShape
        if self.dense_shape is None:
            return TensorShape([None] + list(self.values.shape)[1:])
        from .array_ops import get_static_value
        known = get_static_value(self.dense_shape)
        return TensorShape(None if known is None else [int(d) for d in known])

    def __tf_tensor__(self, dtype=None, name=None):
        if self.dense_shape is None:
            raise ValueError("Tensor conversion requested for IndexedSlices without dense_shape: "
                             f"{self!r}; give IndexedSlices a dense_shape")
        from . import math_ops
        dense = math_ops.unsorted_segment_sum(self.values, self.indices, self.dense_shape[0])
        return dense if dtype is None else math_ops.cast(dense, dtype)

    def __repr__(self) -> str:
        return f"IndexedSlices(indices={self.indices!r}, values={self.values!r}, dense_shape={self.dense_shape!r})"
