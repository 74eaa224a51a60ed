"""Host kernels behind tf.RaggedTensor (values plus row_splits, one ragged dimension): padding to a dense
tensor, row ids, making one from a padded tensor, and splitting a batch of strings into rows."""

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .registry import ANY, NOT_DIFFERENTIABLE, define

SPLITS = frozenset({d.int32, d.int64})


def _host(array):
    return array.get() if hasattr(array, "get") else np.asarray(array)


def check_splits(splits, count: int) -> None:
    """row_splits must start at 0, never decrease and end at the number of values (TF's validation)."""
    if splits.size == 0 or splits[0] != 0 or (np.diff(splits) < 0).any() or splits[-1] != count:
        raise InvalidArgumentError(None, None, f"Arguments to from_row_splits do not form a valid RaggedTensor: "
                                               f"row_splits {splits.tolist()} for {count} values (they must start "
                                               f"at 0, never decrease and end at the number of values).")


def _to_dense_shape(shapes, attrs):
    values = shapes[0]
    wanted = list(attrs["shape"]) if attrs["shape"] is not None else [None, None]
    rows = wanted[0] if wanted[0] not in (None, -1) else (None if shapes[1] is None or shapes[1][0] is None
                                                          else shapes[1][0] - 1)
    width = wanted[1] if wanted[1] not in (None, -1) else None
    return (rows, width) + (tuple(values[1:]) if values is not None else ())


@define("_RaggedToDense", ANY, gpu=(), shape=_to_dense_shape, grad=NOT_DIFFERENTIABLE)
def _ragged_to_dense(xp, values, row_splits, default_value, shape=None):
    """[rows, width, ...] with row i's values first, `default_value` after; rows and width from `shape` where
    given (extra values are cut), else the number of rows and the longest row."""
    values, splits = _host(values), _host(row_splits).astype(np.int64)
    lengths = np.diff(splits)
    wanted = list(shape) if shape is not None else [None, None]
    rows = len(lengths) if wanted[0] in (None, -1) else int(wanted[0])
    width = (int(lengths.max()) if lengths.size else 0) if wanted[1] in (None, -1) else int(wanted[1])
    out = np.empty((rows, width) + values.shape[1:], dtype=values.dtype)
    out[...] = _host(default_value)
    for row in range(min(rows, len(lengths))):
        take = min(int(lengths[row]), width)
        out[row, :take] = values[splits[row]:splits[row] + take]
    return xp.asarray(out) if out.dtype != object else out


@define("_RaggedRowIds", SPLITS, gpu=(), shape=lambda shapes, attrs: (None,), grad=NOT_DIFFERENTIABLE)
def _row_ids(xp, row_splits):
    """The row of each value."""
    splits = _host(row_splits)
    return xp.asarray(np.repeat(np.arange(len(splits) - 1, dtype=splits.dtype), np.diff(splits)))


def _from_tensor_shapes(shapes, attrs):
    tensor = shapes[0]
    rows = None if tensor is None else tensor[0]
    return [(None,) + (tuple(tensor[2:]) if tensor is not None else ()), (None if rows is None else rows + 1,)]


@define("_RaggedFromTensor", ANY, gpu=(), shape=_from_tensor_shapes, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: [dtype, d.int64])
def _from_tensor(xp, tensor, lengths=None, padding=None):
    """(values, row_splits) of a padded [rows, width, ...] tensor: each row's first `lengths[i]` entries, or its
    entries up to the trailing run of `padding`, or all of them."""
    dense = _host(tensor)
    rows = dense.shape[0]
    if lengths is not None:
        kept = np.minimum(np.asarray(lengths, np.int64), dense.shape[1])
    elif padding is not None:
        is_pad = dense == np.asarray(padding, dtype=dense.dtype)
        is_pad = is_pad.reshape(rows, dense.shape[1], -1).all(axis=2)
        kept = np.array([dense.shape[1] - _trailing(row) for row in is_pad], np.int64)
    else:
        kept = np.full(rows, dense.shape[1], np.int64)
    values = [dense[i, :kept[i]] for i in range(rows)]
    joined = np.concatenate(values) if values else dense.reshape((0,) + dense.shape[2:])
    splits = np.concatenate([[0], np.cumsum(kept)]).astype(np.int64)
    return (xp.asarray(joined) if joined.dtype != object else joined), xp.asarray(splits)


def _trailing(flags) -> int:
    count = 0
    for flag in flags[::-1]:
        if not flag:
            break
        count += 1
    return count


@define("_StringSplitRows", frozenset({d.string}), gpu=(), grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: [d.string, d.int64],
        shape=lambda shapes, attrs: [(None,), (None if shapes[0] is None or shapes[0][0] is None
                                               else shapes[0][0] + 1,)])
def _split_rows(xp, strings, sep=None, maxsplit=-1):
    """(the parts of every string, row_splits): the strings split on `sep` (runs of whitespace when None)."""
    parts, splits = [], [0]
    for item in np.asarray(strings, dtype=object).reshape(-1):
        raw = item.encode("utf-8") if isinstance(item, str) else bytes(item)
        pieces = raw.split(sep, maxsplit) if sep is not None else raw.split(None, maxsplit)
        parts.extend(pieces)
        splits.append(len(parts))
    values = np.empty(len(parts), dtype=object)
    values[:] = parts
    return values, np.asarray(splits, np.int64)


def _range_shapes(shapes, attrs):
    sizes = [None if s is None else int(np.prod(s)) for s in shapes]
    count = None if None in sizes else max(sizes)
    return [(None,), (None if count is None else count + 1,)]


@define("_RaggedRange", frozenset({d.int32, d.int64, d.float32, d.float64}), gpu=(), shape=_range_shapes,
        grad=NOT_DIFFERENTIABLE, dtype=lambda dtype, attrs: [dtype, attrs["splits_dtype"]])
def _ragged_range(xp, starts, limits, deltas, splits_dtype=None):
    """(values, row_splits) of rows range(starts[i], limits[i], deltas[i]) (scalars broadcast)."""
    starts, limits, deltas = np.broadcast_arrays(_host(starts), _host(limits), _host(deltas))
    if np.any(deltas == 0):
        raise InvalidArgumentError(None, None, "Requires delta != 0")
    rows = [np.arange(s, l, t, dtype=starts.dtype) for s, l, t in
            zip(starts.reshape(-1), limits.reshape(-1), deltas.reshape(-1))]
    values = np.concatenate(rows) if rows else np.zeros(0, starts.dtype)
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(splits_dtype.numpy_dtype)
    return xp.asarray(values.astype(starts.dtype)), xp.asarray(splits)
