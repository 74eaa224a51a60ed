"""Selection and ordering: take, take_along_axis, where, nonzero, select, compress, sort, argsort, pad, diff."""

from __future__ import annotations


import numpy as np

import placeflow as tf

from ._core import _only, asarray, broadcast_together, dims, norm_axis, promote, rank


def take(a, indices, axis=None, out=None, mode="clip"):
    """Elements of `a` at `indices` along `axis` (of the flattened array when None); mode 'clip', 'wrap' or
    'raise'."""
    if out is not None:
        raise ValueError("out argument is not supported in take.")
    if mode not in ("raise", "clip", "wrap"):
        raise ValueError(f"Invalid mode {mode!r} for take")
    a = asarray(a)
    indices = asarray(indices, np.int64)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    axis = norm_axis(axis, rank(a))
    length = tf.cast(tf.shape(a)[axis], tf.int64)
    if mode == "clip":
        indices = tf.clip_by_value(indices, tf.constant(0, tf.int64), length - 1)
    elif mode == "wrap":
        indices = tf.math.floormod(indices, length)
    return tf.gather(a, indices, axis=axis)


def take_along_axis(arr, indices, axis):
    """Elements of `arr` at `indices` (of the same rank) along `axis`; shapes must be known while tracing."""
    arr = asarray(arr)
    indices = asarray(indices, np.int64)
    if axis is None:
        arr, indices, axis = tf.reshape(arr, [-1]), tf.reshape(indices, [-1]), 0
    n = rank(arr)
    if rank(indices) != n:
        raise ValueError(f"`indices` and `arr` must have the same number of dimensions: {rank(indices)} vs {n}")
    axis = norm_axis(axis, n)
    arr_dims, index_dims = dims(arr), dims(indices)
    if None in arr_dims or None in index_dims:
        raise NotImplementedError("tf.experimental.numpy.take_along_axis needs the shapes of `arr` and `indices` "
                                  "known while tracing in placeflow.")
    common = list(np.broadcast_shapes(*[tuple(d[:axis] + [1] + d[axis + 1:]) for d in (arr_dims, index_dims)]))
    index_shape = common[:axis] + [index_dims[axis]] + common[axis + 1:]
    arr = tf.broadcast_to(arr, common[:axis] + [arr_dims[axis]] + common[axis + 1:])
    indices = tf.broadcast_to(indices, index_shape)
    indices = tf.where(indices < 0, indices + arr_dims[axis], indices)
    grids = [tf.constant(g) for g in np.indices(index_shape, dtype=np.int64)]
    grids[axis] = indices
    return tf.gather_nd(arr, tf.stack(grids, axis=-1))


def nonzero(a):
    """A tuple of index tensors (int64), one per axis, of the non-zero elements."""
    a = asarray(a)
    if rank(a) == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
                         "instead.")
    found = tf.where(tf.cast(a, tf.bool))
    return tuple(found[:, i] for i in range(rank(a)))


def where(condition, x=None, y=None):
    """x where `condition` else y (broadcast); nonzero(condition) when only condition is given."""
    condition = asarray(condition, np.bool_)
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("Both x and y must be ndarrays, or both must be None.")
    x, y = promote(x, y)
    return tf.where(condition, x, y)


def select(condlist, choicelist, default=0):
    """Elements from `choicelist` where the first matching condition of `condlist` holds, else `default`."""
    if len(condlist) != len(choicelist):
        raise ValueError(f"condlist must have length equal to choicelist ({len(condlist)} vs "
                         f"{len(choicelist)})")
    if not condlist:
        raise ValueError("condlist must be non-empty")
    choices = promote(default, *choicelist)
    out = choices[0]
    for cond, choice in reversed(list(zip(condlist, choices[1:]))):
        cond, choice, out = broadcast_together(asarray(cond, np.bool_), choice, out)
        out = tf.where(cond, choice, out)
    return out


def compress(condition, a, axis=None):
    """The slices of `a` along `axis` (flattened when None) where `condition` is true."""
    condition = asarray(condition, np.bool_)
    a = asarray(a)
    if rank(condition) != 1:
        raise ValueError(f"condition must be a 1-d array, got rank {rank(condition)}")
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    axis = norm_axis(axis, rank(a))
    length = dims(a)[axis]
    n = dims(condition)[0]
    if length is not None and n is not None and n < length:
        condition = tf.concat([condition, tf.zeros([length - n], tf.bool)], 0)
    elif length is not None and n is not None and n > length:
        condition = condition[:length]
    return tf.boolean_mask(a, condition, axis=axis)


def _sort_axis(a, axis):
    a = asarray(a)
    if axis is None:
        return tf.reshape(a, [-1]), -1
    return a, axis


def sort(a, axis=-1, kind="quicksort", order=None):
    """`a` sorted along `axis` (flattened when None), ascending."""
    if order is not None:
        raise ValueError("'order' argument to sort is not supported.")
    a, axis = _sort_axis(a, axis)
    if rank(a) == 0:
        return a
    if a.dtype == tf.bool:
        return tf.cast(tf.sort(tf.cast(a, tf.int8), axis=axis), tf.bool)
    return tf.sort(a, axis=axis)


def argsort(a, axis=-1, kind="quicksort", order=None):
    """The indices (int64) that sort `a` along `axis` (stable)."""
    if order is not None:
        raise ValueError("'order' argument to argsort is not supported.")
    a, axis = _sort_axis(a, axis)
    if rank(a) == 0:
        return tf.constant(0, tf.int64)
    if a.dtype == tf.bool:
        a = tf.cast(a, tf.int8)
    return tf.cast(tf.argsort(a, axis=axis, stable=True), tf.int64)


def pad(array, pad_width, mode, **kwargs):
    """`array` padded by `pad_width` (constant, reflect or symmetric mode)."""
    _only(kwargs, "pad", ("constant_values",))
    array = asarray(array)
    n = rank(array)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (n, 2)).tolist() if n else []
    mode = mode.lower() if isinstance(mode, str) else mode
    if mode == "constant":
        value = kwargs.get("constant_values", 0)
        return tf.pad(array, widths, mode="CONSTANT", constant_values=tf.cast(value, array.dtype))
    if mode in ("reflect", "symmetric"):
        return tf.pad(array, widths, mode=mode.upper())
    raise ValueError(f"Unsupported padding mode: {mode}")


def diff(a, n=1, axis=-1):
    """The `n`-th discrete difference along `axis`."""
    a = asarray(a)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if rank(a) == 0:
        raise ValueError("diff requires input that is at least one dimensional; got 0-d.")
    axis = norm_axis(axis, rank(a))
    front = [slice(None)] * axis
    for _ in range(n):
        later, earlier = a[tuple(front + [slice(1, None)])], a[tuple(front + [slice(None, -1)])]
        a = tf.not_equal(later, earlier) if a.dtype == tf.bool else later - earlier
    return a


