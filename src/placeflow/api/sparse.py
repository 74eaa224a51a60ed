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
        counts = (self.indices.shape[0], self.values.shape[0])   # None: known when a graph runs
        if None not in counts and int(counts[0]) != int(counts[1]):
            raise ValueError(f"SparseTensor has {int(counts[0])} indices but {int(counts[1])} values.")

    @property
    def dtype(self):
        """The values' dtype."""
        return self.values.dtype

    @property
    def shape(self):
        """The static dense shape: every dimension eagerly; in a graph what `dense_shape` and set_shape know."""
        from ..framework.tensor_shape import TensorShape
        known = array_ops.get_static_value(self.dense_shape)
        if known is not None:
            return TensorShape([int(d) for d in known])
        rank = self.indices.shape[1] if self.indices.shape is not None else None
        inferred = TensorShape(None if rank is None else [None] * int(rank))
        refined = getattr(self, "_static_shape", None)
        return inferred if refined is None else inferred.merge_with(refined)

    def get_shape(self):
        """The static dense shape (TensorFlow 1 name)."""
        return self.shape

    def set_shape(self, shape):
        """Refine the static dense shape; ValueError when `shape` contradicts what is known."""
        from ..framework.tensor_shape import TensorShape
        shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        current = self.shape
        if not current.is_compatible_with(shape):
            raise ValueError(f"SparseTensor's shape {current} is not compatible with supplied shape {shape}.")
        self._static_shape = current.merge_with(shape)

    def __repr__(self) -> str:
        return f"SparseTensor(indices={self.indices}, values={self.values}, dense_shape={self.dense_shape})"

    def _function_output_parts(self) -> tuple:
        """The tensors a function returns for this value (graph/function.py rebuilds it from their values)."""
        return self.indices, self.values, self.dense_shape

    def _from_function_output_parts(self, parts):
        """This value rebuilt from the values of its `_function_output_parts`."""
        return SparseTensor(*parts)


def _dense_dims(sp) -> list:
    return [int(d) for d in sp.dense_shape.numpy()]


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor: values at their indices, default_value (0) elsewhere; repeated indices refused."""
    if not hasattr(sp_input.indices, "numpy"):  # inside a function: no host validation; the static shape kept
        dense = indexing.tensor_scatter_nd_update(
            array_ops.fill(sp_input.dense_shape, np.asarray(0 if default_value is None else default_value,
                                                            sp_input.dtype.numpy_dtype)),
            sp_input.indices, sp_input.values)
        dense.set_shape(sp_input.shape)
        return dense
    if validate_indices:
        rows = [tuple(r) for r in sp_input.indices.numpy().tolist()]
        for index in range(1, len(rows)):
            if rows[index] == rows[index - 1]:
                raise errors.InvalidArgumentError(None, None, f"indices[{index}] is repeated")
            if rows[index] < rows[index - 1]:
                raise errors.InvalidArgumentError(None, None, (
                    f"indices[{index}] = [{','.join(str(v) for v in rows[index])}] is out of order. Many sparse ops "
                    "require sorted indices.\n    Use `tf.sparse.reorder` to create a correctly ordered copy."))
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


def _reduce_groups(sp_input, axis, keepdims, output_is_sparse, combine):
    """Reduce the explicit values over `axis` (None: all) with `combine`: a dense tensor (0 where a group has
    no values) or, with output_is_sparse, a SparseTensor of the groups that have values."""
    indices, values, dims = _host(sp_input)
    rank = len(dims)
    axes = set(range(rank)) if axis is None else {int(a) % rank for a in np.atleast_1d(axis).tolist()}
    kept = [d for d in range(rank) if d not in axes]
    groups: dict = {}
    for index, value in zip(map(tuple, indices.tolist()), values.tolist()):
        key = tuple(index[d] for d in kept)
        groups[key] = value if key not in groups else combine(groups[key], value)
    out_dims = [1 if d in axes else dims[d] for d in range(rank)] if keepdims else [dims[d] for d in kept]
    spread = (lambda key: tuple(key[kept.index(d)] if d in kept else 0 for d in range(rank))) if keepdims else \
        (lambda key: key)
    order = sorted(groups)
    if output_is_sparse:
        return _sparse_from_host([spread(k) for k in order], [groups[k] for k in order], out_dims, sp_input.dtype)
    dense = np.zeros(out_dims, sp_input.dtype.numpy_dtype)
    for key in order:
        dense[spread(key)] = groups[key]
    return convert_to_tensor(dense, dtype=sp_input.dtype)


def reduce_sum(sp_input, axis=None, keepdims=False, output_is_sparse=False, name=None):
    """The sum of the values over `axis` (all when None): dense, or a SparseTensor with output_is_sparse."""
    if not output_is_sparse:
        return math_ops.reduce_sum(to_dense(sp_input), axis=axis, keepdims=keepdims)
    return _reduce_groups(sp_input, axis, keepdims, True, lambda a, b: a + b)


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The largest explicit value over `axis` (all when None); a group without values gives 0 (dense output)."""
    return _reduce_groups(sp_input, axis, bool(keepdims), output_is_sparse, max)


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


fill_empty_rows = _not_implemented("fill_empty_rows")


# -- counting and crossing (host computations on the eager values, as TensorFlow's CPU-only kernels) ------------

def _rows_and_values(value):
    """(row of each value, the values) of a SparseTensor, or of a dense tensor of rank 1 (one row) or 2."""
    if isinstance(value, SparseTensor):
        indices, values, _ = _host(value)
        return (indices[:, 0] if indices.shape[1] > 1 else np.zeros(len(values), np.int64)), values
    dense = convert_to_tensor(value).numpy()
    if dense.ndim > 2:
        raise errors.InvalidArgumentError(None, None, f"Expected a tensor of rank 1 or 2; got shape {dense.shape}.")
    rows = np.repeat(np.arange(dense.shape[0]), dense.shape[1]) if dense.ndim == 2 else np.zeros(dense.size, int)
    return rows.astype(np.int64), dense.reshape(-1)


def bincount(values, weights=None, axis=0, minlength=None, maxlength=None, binary_output=False, name=None):
    """How often each value occurs, as a SparseTensor: over everything (axis 0 or None) or per row (axis -1)."""
    if axis not in (None, 0, -1):
        raise errors.InvalidArgumentError(None, None, f"Unsupported axis value {axis}; axis must be 0, -1 or None")
    if binary_output and weights is not None:
        raise errors.InvalidArgumentError(None, None, "Arguments `binary_output` and `weights` are mutually exclusive. "
                                                      "Please specify only one.")
    if isinstance(values, SparseTensor) and weights is not None and not isinstance(weights, SparseTensor):
        raise ValueError(f"Argument `weights` must be a SparseTensor if `values` is a SparseTensor. Received "
                         f"weights={weights!r} of type: {type(weights).__name__}")
    rows, items = _rows_and_values(values)
    rank = len(values.dense_shape.numpy()) if isinstance(values, SparseTensor) else len(convert_to_tensor(values).shape)
    items = items.astype(np.int64)
    if items.size and items.min() < 0:
        raise errors.InvalidArgumentError(None, None, f"Input arr must be non-negative; got {int(items.min())}.")
    weight = None if weights is None else _rows_and_values(weights)[1]
    bins = max(int(items.max()) + 1 if items.size else 0, int(minlength or 0))
    if maxlength is not None:
        bins = min(bins, int(maxlength))
    keep = items < bins
    per_row = axis == -1 and rank > 1  # a vector is one row: counted whole, as TensorFlow does
    keys = list(zip(rows[keep].tolist(), items[keep].tolist())) if per_row else [(v,) for v in items[keep].tolist()]
    dtype = dtypes.int32 if weight is None else convert_to_tensor(weight).dtype
    counts: dict = {}
    for key, w in zip(keys, weight[keep].tolist() if weight is not None else [1] * len(keys)):
        counts[key] = 1 if binary_output else counts.get(key, 0) + w
    order = sorted(counts)
    batch = (int(rows.max()) + 1 if rows.size else 0) if not isinstance(values, SparseTensor) else \
        int(values.dense_shape.numpy()[0])
    shape = [batch, bins] if per_row else [bins]
    return _sparse_from_host(order, [counts[k] for k in order], shape, dtype)


def _features_per_row(inputs, batch: int) -> list:
    """For each input, each row's features in order (strings as bytes, others as int64)."""
    columns = []
    for value in inputs:
        rows, items = _rows_and_values(value)
        if items.dtype != object:
            items = items.astype(np.int64)
        per_row = [[] for _ in range(batch)]
        for row, item in zip(rows.tolist(), items.tolist()):
            per_row[row].append(item)
        columns.append(per_row)
    return columns


def _batch_size(inputs) -> int:
    sizes = {int(v.dense_shape.numpy()[0]) if isinstance(v, SparseTensor) else int(convert_to_tensor(v).shape[0])
             for v in inputs}
    if len(sizes) != 1:
        raise errors.InvalidArgumentError(None, None, f"Expected batch size of every input to be equal; got "
                                                      f"{sorted(sizes)}.")
    return sizes.pop()


def _crosses(inputs, combine):
    """Each row's crosses (every choice of one feature per input, the last input varying fastest) combined."""
    import itertools
    if not inputs:
        raise ValueError("Argument `inputs` must be a non-empty list of tensors or SparseTensors.")
    batch = _batch_size(inputs)
    columns = _features_per_row(inputs, batch)
    indices, values, width = [], [], 0
    for row in range(batch):
        crosses = [combine(choice) for choice in itertools.product(*(column[row] for column in columns))]
        indices += [(row, position) for position in range(len(crosses))]
        values += crosses
        width = max(width, len(crosses))
    return indices, values, [batch, width]


def cross(inputs, name=None, separator=None):
    """Crossed features of string or integer inputs as strings joined by `separator` ("_X_")."""
    joiner = (separator or "_X_").encode("utf-8")
    text = lambda v: v if isinstance(v, bytes) else str(v).encode()  # noqa: E731
    indices, values, shape = _crosses(list(inputs), lambda choice: joiner.join(text(v) for v in choice))
    return _sparse_from_host(indices, np.array(values + [b""], dtype=object)[:-1], shape, dtypes.string)


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """Crossed features hashed as TensorFlow hashes them (FingerprintCat64 of each feature's Fingerprint64,
    integers as themselves), modulo `num_buckets` (0: the largest int64)."""
    from ..ops import string_hashes as hashes
    start = 0xDECAFCAFFE if hash_key is None else int(hash_key) & hashes.MASK
    modulus = int(num_buckets) if int(num_buckets) > 0 else (1 << 63) - 1

    def combine(choice):
        result = start
        for value in choice:
            feature = hashes.fingerprint64(value) if isinstance(value, bytes) else int(value) & hashes.MASK
            result = hashes.fingerprint_cat64(result, feature)
        return result % modulus
    indices, values, shape = _crosses(list(inputs), combine)
    return _sparse_from_host(indices, values, shape, dtypes.int64)


def _sparse_segment(data, indices, segment_ids, num_segments, reduce):
    """reduce(data[indices], segment_ids, num_segments): segment ids must be sorted (TF's rule, also with
    num_segments)."""
    data = convert_to_tensor(data)
    rows = indexing.gather(data, convert_to_tensor(indices))
    segment_ids = convert_to_tensor(segment_ids)
    known = array_ops.get_static_value(segment_ids)
    if known is not None and np.any(np.diff(np.asarray(known).reshape(-1)) < 0):
        raise errors.InvalidArgumentError(None, None, "segment ids are not increasing")
    return reduce(rows, segment_ids, num_segments)


def segment_sum(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """Sums of data[indices] by segment (sorted segment_ids, or num_segments for any order)."""
    return _sparse_segment(data, indices, segment_ids, num_segments, lambda rows, ids, n: math_ops.segment_sum(
        rows, ids) if n is None else math_ops.unsorted_segment_sum(rows, ids, n))


def segment_mean(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """Means of data[indices] by segment (an empty segment gives 0)."""
    return _sparse_segment(data, indices, segment_ids, num_segments, lambda rows, ids, n: math_ops.segment_mean(
        rows, ids) if n is None else math_ops.unsorted_segment_mean(rows, ids, n))


def segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """Sums of data[indices] by segment divided by the square root of each segment's size."""
    from .special_math import unsorted_segment_sqrt_n
    def reduce(rows, ids, n):
        count = n if n is not None else math_ops.reduce_max(ids) + 1
        return unsorted_segment_sqrt_n(rows, ids, count)
    return _sparse_segment(data, indices, segment_ids, num_segments, reduce)


from .sparse_more import (  # noqa: E402,F401 - the rest of tf.sparse
    eye, fill_empty_rows, mask, reset_shape, slice, softmax, split, to_indicator,
)
from .linalg_more import sampled_addmm  # noqa: E402,F401 - linalg_more.py
