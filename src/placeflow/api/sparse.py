"""placeflow.sparse: SparseTensor (indices, values, dense_shape) and the basic operations on it.

The operations go through dense tensors where TensorFlow has fused sparse kernels (to_dense is a
scatter, sparse_dense_matmul a dense matmul): the same values and gradients, not the same memory use."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes, errors
from ..framework.refusals import not_implemented
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


def _host(sp):
    return sp.indices.numpy(), sp.values.numpy(), [int(d) for d in sp.dense_shape.numpy()]


def _sparse_from_host(indices, values, dense_shape, dtype):
    indices = np.asarray(indices, np.int64).reshape(-1, len(dense_shape))
    values = np.asarray(values, dtype.numpy_dtype)
    return SparseTensor(indices, convert_to_tensor(values, dtype=dtype), np.asarray(dense_shape, np.int64))


def _union(a_indices, a_values, b_indices, b_values, combine, fill):
    """Entries at the union of both index sets, sorted row-major: combine(a, b), `fill` where one is absent."""
    a = dict(zip(map(tuple, a_indices.tolist()), a_values))
    b = dict(zip(map(tuple, b_indices.tolist()), b_values))
    rows = sorted(set(a) | set(b))
    return rows, [combine(a.get(row, fill), b.get(row, fill)) for row in rows]


def add(a, b, threshold=0, name=None):
    """a + b: a SparseTensor when both are sparse (entries at the union of their indices), else dense."""
    if not isinstance(a, SparseTensor) or not isinstance(b, SparseTensor):
        dense = [to_dense(x) if isinstance(x, SparseTensor) else convert_to_tensor(x) for x in (a, b)]
        return math_ops.add(dense[0], dense[1])
    (ai, av, shape), (bi, bv, other) = _host(a), _host(b)
    if shape != other:
        raise errors.InvalidArgumentError(None, None, f"Operands' shapes do not match: got {shape} and {other} "
                                          "for sparse.add")
    rows, values = _union(ai, av, bi, bv, lambda x, y: x + y, 0)
    keep = [i for i, v in enumerate(values) if threshold == 0 or abs(v) >= threshold]
    return _sparse_from_host([rows[i] for i in keep], [values[i] for i in keep], shape, a.dtype)


def _elementwise_union(a, b, combine, what):
    if not isinstance(a, SparseTensor) or not isinstance(b, SparseTensor):
        raise TypeError(f"sparse.{what} takes two SparseTensors; got {type(a).__name__} and {type(b).__name__}")
    (ai, av, shape), (bi, bv, other) = _host(a), _host(b)
    if shape != other:
        raise errors.InvalidArgumentError(None, None, f"Operands' shapes do not match: {shape} and {other}")
    rows, values = _union(ai, av, bi, bv, combine, 0)
    return _sparse_from_host(rows, values, shape, a.dtype)


def maximum(sp_a, sp_b, name=None):
    """The element-wise maximum of two SparseTensors (absent entries count as 0)."""
    return _elementwise_union(sp_a, sp_b, max, "maximum")


def minimum(sp_a, sp_b, name=None):
    """The element-wise minimum of two SparseTensors (absent entries count as 0)."""
    return _elementwise_union(sp_a, sp_b, min, "minimum")


def map_values(op, *args, **kwargs):
    """`op` applied to the values of the SparseTensor arguments (which must share their indices)."""
    sparse_args = [a for a in list(args) + list(kwargs.values()) if isinstance(a, SparseTensor)]
    if not sparse_args:
        raise ValueError("sparse.map_values needs at least one SparseTensor argument")
    first = sparse_args[0]
    for other in sparse_args[1:]:
        if not np.array_equal(other.indices.numpy(), first.indices.numpy()):
            raise errors.InvalidArgumentError(None, None, "sparse.map_values: SparseTensors' indices differ")
    unwrap = lambda a: a.values if isinstance(a, SparseTensor) else a  # noqa: E731
    values = op(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()})
    return SparseTensor(first.indices, values, first.dense_shape)


def retain(sp_input, to_retain):
    """The entries of `sp_input` where the boolean vector `to_retain` is true."""
    mask = np.asarray(convert_to_tensor(to_retain).numpy(), bool)
    indices, values, shape = _host(sp_input)
    return _sparse_from_host(indices[mask], values[mask], shape, sp_input.dtype)


def reshape(sp_input, shape, name=None):
    """The same entries in a tensor of `shape` (row-major order kept; one -1 allowed)."""
    indices, values, dims = _host(sp_input)
    target = [int(d) for d in np.asarray(convert_to_tensor(shape).numpy()).reshape(-1)]
    total = int(np.prod(dims))
    if target.count(-1) == 1:
        known = int(np.prod([d for d in target if d != -1]))
        target[target.index(-1)] = total // known if known else 0
    if int(np.prod(target)) != total:
        raise errors.InvalidArgumentError(None, None, f"Cannot reshape a tensor with {total} elements to "
                                          f"shape {target}")
    flat = np.ravel_multi_index(indices.T, dims) if len(indices) else np.zeros(0, np.int64)
    new = np.stack(np.unravel_index(flat, target), axis=1) if len(indices) else np.zeros((0, len(target)))
    return _sparse_from_host(new, values, target, sp_input.dtype)


def expand_dims(sp_input, axis=None, name=None):
    """`sp_input` with a new dimension of size 1 at `axis`."""
    indices, values, dims = _host(sp_input)
    axis = int(axis) if axis is not None else -1
    position = axis if axis >= 0 else len(dims) + 1 + axis
    new = np.insert(indices, position, 0, axis=1)
    return _sparse_from_host(new, values, dims[:position] + [1] + dims[position:], sp_input.dtype)


def transpose(sp_input, perm=None, name=None):
    """`sp_input` with its dimensions permuted by `perm` (reversed when None), entries in row-major order."""
    indices, values, dims = _host(sp_input)
    perm = list(range(len(dims)))[::-1] if perm is None else [int(p) for p in np.asarray(perm).reshape(-1)]
    moved = indices[:, perm]
    order = np.lexsort(moved.T[::-1]) if len(moved) else np.arange(0)
    return _sparse_from_host(moved[order], values[order], [dims[p] for p in perm], sp_input.dtype)


def concat(axis, sp_inputs, name=None, expand_nonconcat_dims=False, expand_nonconcat_dim=False):
    """The SparseTensors of `sp_inputs` joined along `axis`."""
    if expand_nonconcat_dims or expand_nonconcat_dim:
        raise NotImplementedError("sparse.concat(expand_nonconcat_dims=True) is not implemented in placeflow.")
    parts = [_host(sp) for sp in sp_inputs]
    rank = len(parts[0][2])
    axis = axis % rank
    offset, indices, values = 0, [], []
    for part_indices, part_values, dims in parts:
        shifted = part_indices.copy()
        shifted[:, axis] += offset
        indices.append(shifted)
        values.append(part_values)
        offset += dims[axis]
    shape = list(parts[0][2])
    shape[axis] = offset
    joined = np.concatenate(indices) if indices else np.zeros((0, rank), np.int64)
    order = np.lexsort(joined.T[::-1]) if len(joined) else np.arange(0)
    return _sparse_from_host(joined[order], np.concatenate(values)[order], shape, sp_inputs[0].dtype)


def _not_implemented(name):
    return not_implemented(f"tf.sparse.{name}", "densify with tf.sparse.to_dense and use the dense op.")


reduce_max = _not_implemented("reduce_max")
fill_empty_rows = _not_implemented("fill_empty_rows")
bincount = _not_implemented("bincount")
