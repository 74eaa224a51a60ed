"""placeflow.sparse: SparseTensor (indices, values, dense_shape) and the basic operations on it.

The operations go through dense tensors where TensorFlow has fused sparse kernels (to_dense is a
scatter, sparse_dense_matmul a dense matmul): the same values and gradients, not the same memory use."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes, errors
from . import array_ops, indexing, math_ops


class SparseTensor:
    """A sparse tensor: `values[i]` sits at `indices[i]` (int64 [N, rank]) of a tensor of `dense_shape`."""

    def __init__(self, indices, values, dense_shape):
        self.indices = math_ops.cast(convert_to_tensor(indices), dtypes.int64)
        self.values = convert_to_tensor(values)
        self.dense_shape = math_ops.cast(convert_to_tensor(dense_shape), dtypes.int64)
        if len(self.indices.shape) != 2 or len(self.values.shape) != 1:
            raise ValueError(f"SparseTensor needs indices of shape [N, rank] and values of shape [N]; got "
                             f"{tuple(self.indices.shape)} and {tuple(self.values.shape)}.")
        if int(self.indices.shape[0]) != int(self.values.shape[0]):
            raise ValueError(f"SparseTensor has {int(self.indices.shape[0])} indices but "
                             f"{int(self.values.shape[0])} values.")

    @property
    def dtype(self):
        """The values' dtype."""
        return self.values.dtype

    @property
    def shape(self):
        """The dense shape (known eagerly)."""
        from ..framework.tensor_shape import TensorShape
        return TensorShape(tuple(int(d) for d in self.dense_shape.numpy()))

    def __repr__(self) -> str:
        return f"SparseTensor(indices={self.indices!r}, values={self.values!r}, dense_shape={self.dense_shape!r})"


def _dense_dims(sp) -> list:
    return [int(d) for d in sp.dense_shape.numpy()]


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor: values at their indices, default_value (0) elsewhere; repeated indices refused."""
    if validate_indices:
        rows = [tuple(r) for r in sp_input.indices.numpy().tolist()]
        if len(set(rows)) != len(rows):
            repeated = next(i for i, r in enumerate(rows) if rows.index(r) != i)
            raise errors.InvalidArgumentError(None, None, f"indices[{repeated}] is repeated")
    dims = _dense_dims(sp_input)
    base = array_ops.fill(dims, np.asarray(0 if default_value is None else default_value,
                                          sp_input.dtype.numpy_dtype))
    return indexing.tensor_scatter_nd_update(base, sp_input.indices, sp_input.values)


def from_dense(tensor, name=None):
    """The non-zero entries of `tensor` as a SparseTensor (row-major order)."""
    dense = convert_to_tensor(tensor)
    zero = False if dense.dtype == dtypes.bool else 0
    indices = math_ops.where(math_ops.not_equal(dense, zero))
    return SparseTensor(indices, indexing.gather_nd(dense, indices), array_ops.shape(dense, out_type=dtypes.int64))


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """sp_a @ b for a rank-2 SparseTensor sp_a."""
    return math_ops.matmul(to_dense(sp_a), b, transpose_a=adjoint_a, transpose_b=adjoint_b)


def reorder(sp_input, name=None):
    """The same sparse tensor with its entries in row-major index order."""
    rows = sp_input.indices.numpy()
    order = np.lexsort(rows.T[::-1]) if rows.size else np.arange(0)
    return SparseTensor(indexing.gather(sp_input.indices, order), indexing.gather(sp_input.values, order),
                        sp_input.dense_shape)


def reduce_sum(sp_input, axis=None, keepdims=False, output_is_sparse=False, name=None):
    """The sum of the values over `axis` (all when None), as a dense tensor."""
    if output_is_sparse:
        raise NotImplementedError("sparse.reduce_sum(output_is_sparse=True) is not implemented in placeflow.")
    return math_ops.reduce_sum(to_dense(sp_input), axis=axis, keepdims=keepdims)
