"""More of tf.ragged (RaggedTensors of one ragged dimension): range, boolean_mask, stack,
stack_dynamic_partitions, row_splits_to_segment_ids, segment_ids_to_row_splits, cross and cross_hashed."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes, errors
from .ragged import RaggedTensor, _refuse


def _from_rows(rows, dtype, splits_dtype=dtypes.int64) -> RaggedTensor:
    lengths = [len(r) for r in rows]
    values = np.concatenate([np.asarray(r, dtype.numpy_dtype) for r in rows]) if rows else np.zeros(0, dtype.numpy_dtype)
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(splits_dtype.numpy_dtype)
    return RaggedTensor.from_row_splits(convert_to_tensor(values.astype(dtype.numpy_dtype), dtype=dtype),
                                        convert_to_tensor(splits))


def range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=dtypes.int64):  # noqa: A001
    """Row i is range(starts[i], limits[i], deltas[i]) (scalars broadcast; one argument: the limits)."""
    if limits is None:
        starts, limits = 0, starts
    parts = [np.asarray(convert_to_tensor(v).numpy()) for v in (starts, limits, deltas)]
    dtype = dtypes.as_dtype(dtype) if dtype is not None else dtypes.as_dtype(np.result_type(*parts).type
                                                                             if parts else np.int32)
    if dtype == dtypes.float64 and all(p.dtype == np.float32 for p in parts if p.dtype.kind == "f"):
        dtype = dtypes.float32
    starts, limits, deltas = np.broadcast_arrays(*(p.astype(dtype.numpy_dtype) for p in parts))
    if np.any(deltas == 0):
        raise errors.InvalidArgumentError(None, None, "Requires delta != 0")
    rows = [np.arange(s, l, d, dtype=dtype.numpy_dtype) for s, l, d in
            zip(starts.reshape(-1), limits.reshape(-1), deltas.reshape(-1))]
    return _from_rows(rows, dtype, dtypes.as_dtype(row_splits_dtype))


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row id of every value, from row splits."""
    splits = convert_to_tensor(splits)
    array = np.asarray(splits.numpy())
    out = dtypes.as_dtype(out_type) if out_type is not None else splits.dtype
    return convert_to_tensor(np.repeat(np.arange(len(array) - 1), np.diff(array)).astype(out.numpy_dtype))


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """Row splits from the (sorted) row id of every value; num_segments rows (default: the last id + 1)."""
    ids = convert_to_tensor(segment_ids)
    array = np.asarray(ids.numpy()).astype(np.int64)
    count = int(num_segments) if num_segments is not None else (int(array.max()) + 1 if array.size else 0)
    lengths = np.bincount(array, minlength=count)[:count]
    out = dtypes.as_dtype(out_type) if out_type is not None else ids.dtype
    return convert_to_tensor(np.concatenate([[0], np.cumsum(lengths)]).astype(out.numpy_dtype))


def boolean_mask(data, mask, name=None):
    """The entries of `data` where `mask` is True, each row of a rank-2 mask kept as a ragged row."""
    data, mask = convert_to_tensor(data), convert_to_tensor(mask)
    values, keep = np.asarray(data.numpy()), np.asarray(mask.numpy())
    if keep.ndim == 1:
        return convert_to_tensor(values[keep])
    if keep.ndim != 2 or values.shape[:2] != keep.shape:
        _refuse(f"tf.ragged.boolean_mask with a mask of shape {keep.shape} (a rank-2 mask is implemented)")
    return _from_rows([row[k] for row, k in zip(values, keep)], data.dtype)


def stack(values, axis=0, name=None):
    """Rank-1 tensors (of any lengths) stacked as the rows of a RaggedTensor."""
    if int(axis) != 0:
        _refuse(f"tf.ragged.stack(axis={axis})")
    if any(isinstance(v, RaggedTensor) for v in values):
        _refuse("tf.ragged.stack of RaggedTensors (ragged_rank 2)")
    tensors = [convert_to_tensor(v) for v in values]
    if any(len(t.shape) != 1 for t in tensors):
        _refuse("tf.ragged.stack of tensors of rank other than 1")
    return _from_rows([t.numpy() for t in tensors], tensors[0].dtype, dtypes.int32)


def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """Row i holds the entries of `data` whose partition is i, in their order."""
    data, partitions = convert_to_tensor(data), convert_to_tensor(partitions)
    values, which = np.asarray(data.numpy()), np.asarray(partitions.numpy())
    count = int(num_partitions)
    if which.size and (which.min() < 0 or which.max() >= count):
        raise errors.InvalidArgumentError(None, None, f"partitions must be in [0, {count}); got {which.tolist()}")
    return _from_rows([values[which == i] for i in np.arange(count)], data.dtype, dtypes.int32)


def _as_sparse(value):
    from .sparse import SparseTensor
    if not isinstance(value, RaggedTensor):
        return value
    splits = np.asarray(value.row_splits.numpy())
    rows = np.repeat(np.arange(len(splits) - 1), np.diff(splits))
    columns = np.arange(len(rows)) - np.repeat(splits[:-1], np.diff(splits))
    width = int(np.diff(splits).max()) if len(splits) > 1 else 0
    return SparseTensor(np.stack([rows, columns], axis=1), value.values, [len(splits) - 1, width])


def _as_ragged(sparse) -> RaggedTensor:
    indices = np.asarray(sparse.indices.numpy())
    rows = int(sparse.dense_shape.numpy()[0])
    splits = np.concatenate([[0], np.cumsum(np.bincount(indices[:, 0], minlength=rows))]).astype(np.int64)
    return RaggedTensor.from_row_splits(sparse.values, convert_to_tensor(splits))


def cross(inputs, name=None):
    """Crossed string features of ragged, sparse or dense inputs, row by row, as a RaggedTensor."""
    from .sparse import cross as sparse_cross
    return _as_ragged(sparse_cross([_as_sparse(v) for v in inputs]))


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """Hashed crossed features (TF's FingerprintCat64), row by row, as a RaggedTensor."""
    from .sparse import cross_hashed as sparse_cross_hashed
    return _as_ragged(sparse_cross_hashed([_as_sparse(v) for v in inputs], num_buckets, hash_key))
