"""More of tf.sparse, on the host as TensorFlow's CPU kernels: eye, fill_empty_rows, reset_shape, slice, split,
softmax (over each row's stored entries), to_indicator, and mask (of IndexedSlices)."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes, errors
from .sparse import _host, _sparse_from_host


def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """A SparseTensor identity matrix: ones at [i, i] for i < min(rows, columns)."""
    rows = int(num_rows)
    cols = rows if num_columns is None else int(num_columns)
    diagonal = np.arange(min(rows, cols))
    dtype = dtypes.as_dtype(dtype)
    return _sparse_from_host(np.stack([diagonal, diagonal], axis=1), np.ones(len(diagonal)), [rows, cols], dtype)


def fill_empty_rows(sp_input, default_value, name=None):
    """(sp_input with `default_value` at [row, 0, ...] of every row that has no entry, which rows were empty)."""
    indices, values, shape = _host(sp_input)
    rows = shape[0]
    used = np.zeros(rows, bool)
    used[indices[:, 0]] = True
    empty = np.flatnonzero(~used)
    added = np.zeros((len(empty), len(shape)), np.int64)
    added[:, 0] = empty
    fill = np.full(len(empty), np.asarray(convert_to_tensor(default_value, dtype=sp_input.dtype).numpy()))
    all_indices = np.concatenate([indices, added]).astype(np.int64)
    all_values = np.concatenate([values, fill.astype(values.dtype)])
    order = np.lexsort(all_indices.T[::-1]) if len(all_indices) else np.arange(0)
    out = _sparse_from_host(all_indices[order], all_values[order], shape, sp_input.dtype)
    return out, convert_to_tensor(~used)


def reset_shape(sp_input, new_shape=None):
    """sp_input with `new_shape` (at least its entries' extent), or the tight shape of its entries."""
    indices, values, shape = _host(sp_input)
    tight = (indices.max(axis=0) + 1).tolist() if len(indices) else [0] * len(shape)
    if new_shape is None:
        return _sparse_from_host(indices, values, tight, sp_input.dtype)
    wanted = [int(d) for d in np.asarray(convert_to_tensor(new_shape).numpy()).reshape(-1)]
    if len(wanted) != len(shape):
        raise ValueError(f"new_shape must have rank {len(shape)}, got {wanted}")
    if any(w < t for w, t in zip(wanted, tight)):
        raise ValueError(f"new_shape {wanted} must be at least the shape of the entries, {tight}")
    return _sparse_from_host(indices, values, wanted, sp_input.dtype)


def slice(sp_input, start, size, name=None):  # noqa: A001 - TensorFlow's name
    """The entries in [start, start + size), shifted to start at 0; the shape is clipped to the input's."""
    indices, values, shape = _host(sp_input)
    start = np.asarray(convert_to_tensor(start).numpy(), np.int64).reshape(-1)
    size = np.asarray(convert_to_tensor(size).numpy(), np.int64).reshape(-1)
    if len(start) != len(shape) or len(size) != len(shape):
        raise errors.InvalidArgumentError(None, None, f"Expected start and size of length {len(shape)}, got "
                                                      f"{start.tolist()} and {size.tolist()}")
    end = start + size
    inside = np.all((indices >= start) & (indices < end), axis=1) if len(indices) else np.zeros(0, bool)
    out_shape = np.maximum(np.minimum(size, np.asarray(shape) - start), 0).tolist()
    return _sparse_from_host(indices[inside] - start, values[inside], out_shape, sp_input.dtype)


def split(sp_input=None, num_split=None, axis=None, name=None):
    """`num_split` SparseTensors cut along `axis` (the first dim % num_split pieces one longer, as TF)."""
    indices, values, shape = _host(sp_input)
    axis, parts = int(axis) % len(shape), int(num_split)
    if parts <= 0:
        raise errors.InvalidArgumentError(None, None, f"num_split must be positive, got {parts}")
    base, extra = divmod(shape[axis], parts)
    pieces, begin = [], 0
    for i in range(parts):
        length = base + (1 if i < extra else 0)
        keep = (indices[:, axis] >= begin) & (indices[:, axis] < begin + length)
        shifted = indices[keep].copy()
        shifted[:, axis] -= begin
        piece_shape = list(shape)
        piece_shape[axis] = length
        pieces.append(_sparse_from_host(shifted, values[keep], piece_shape, sp_input.dtype))
        begin += length
    return pieces


def softmax(sp_input, name=None):
    """Softmax over the stored entries of each innermost row (entries sharing all but the last index)."""
    indices, values, shape = _host(sp_input)
    if len(shape) < 2:
        raise errors.InvalidArgumentError(None, None, f"Input should have rank >= 2, but received shape: {shape}")
    groups = {}
    for position, row in enumerate(map(tuple, indices[:, :-1].tolist())):
        groups.setdefault(row, []).append(position)
    out = np.empty_like(values)
    for members in groups.values():
        chunk = values[members]
        exp = np.exp(chunk - chunk.max())
        out[members] = exp / exp.sum()
    return _sparse_from_host(indices, out, shape, sp_input.dtype)


def to_indicator(sp_input, vocab_size, name=None):
    """A dense bool tensor with the last dimension replaced by vocab_size: True at each row's stored ids."""
    indices, values, shape = _host(sp_input)
    if not sp_input.dtype.is_integer:
        raise TypeError(f"sp_input must be of an integer type, got {sp_input.dtype.name}")
    size = int(vocab_size)
    out = np.zeros(shape[:-1] + [size], bool)
    for row, value in zip(map(tuple, indices[:, :-1].tolist()), values.tolist()):
        if not 0 <= value < size:
            raise errors.InvalidArgumentError(None, None, f"Index {value} is out of bounds for vocab_size {size}")
        out[row + (value,)] = True
    return convert_to_tensor(out)


def mask(a, mask_indices, name=None):
    """IndexedSlices `a` without the slices whose index is in `mask_indices`."""
    from .indexed_slices import IndexedSlices
    indices = np.asarray(a.indices.numpy())
    keep = ~np.isin(indices, np.asarray(convert_to_tensor(mask_indices).numpy()))
    positions = convert_to_tensor(np.flatnonzero(keep).astype(np.int32))
    from .indexing import gather
    return IndexedSlices(gather(a.values, positions), convert_to_tensor(indices[keep]), a.dense_shape)


