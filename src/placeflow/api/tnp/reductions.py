"""Reductions (sum, mean, max, std, argmax, all, cumsum, ...) with NumPy's axis, keepdims and dtype rules."""

from __future__ import annotations

import numpy as np

import placeflow as tf

from ._core import as_float, asarray, is_inexact, norm_axis, np_dtype, rank


def _axes(a, axis):
    if axis is None:
        return None
    n = rank(a)
    if isinstance(axis, (list, tuple)):
        found = [norm_axis(x, n) for x in axis]
        if len(set(found)) != len(found):
            raise ValueError(f"duplicate value in 'axis': {axis!r}")
        return found
    return norm_axis(axis, n)


def _accumulator(a, dtype):
    """NumPy's dtype for sum/prod: small ints and bools accumulate as int64 (uint64 when unsigned)."""
    if dtype is not None:
        return np_dtype(dtype)
    kind = np_dtype(a.dtype)
    if kind == np.bool_ or (kind.kind == "i" and kind.itemsize < 8):
        return np.dtype(np.int64)
    if kind.kind == "u" and kind.itemsize < 8:
        return np.dtype(np.uint64)
    return kind


def _reduce(op, a, axis, keepdims, dtype=None):
    a = asarray(a)
    if dtype is not None:
        a = asarray(a, dtype)
    return op(a, axis=_axes(a, axis), keepdims=bool(keepdims))


def sum(a, axis=None, dtype=None, keepdims=None):  # noqa: A001
    """The sum over `axis` (small ints accumulate as int64)."""
    a = asarray(a)
    return _reduce(tf.reduce_sum, a, axis, keepdims, _accumulator(a, dtype))


def prod(a, axis=None, dtype=None, keepdims=None):
    """The product over `axis` (small ints accumulate as int64)."""
    a = asarray(a)
    return _reduce(tf.reduce_prod, a, axis, keepdims, _accumulator(a, dtype))


def _float_dtype(a, dtype):
    if dtype is not None:
        return np_dtype(dtype)
    return np_dtype(a.dtype) if is_inexact(a.dtype) else np.dtype(np.float64)


def mean(a, axis=None, dtype=None, out=None, keepdims=None):
    """The mean over `axis` (integers as float64)."""
    _unsupported("mean", out=out)
    a = asarray(a)
    return _reduce(tf.reduce_mean, a, axis, keepdims, _float_dtype(a, dtype))


def amax(a, axis=None, out=None, keepdims=None):
    """The maximum over `axis`."""
    _unsupported("amax", out=out)
    a = asarray(a)
    if a.dtype == tf.bool:
        return _reduce(tf.reduce_any, a, axis, keepdims)
    return _reduce(tf.reduce_max, a, axis, keepdims)


def amin(a, axis=None, out=None, keepdims=None):
    """The minimum over `axis`."""
    _unsupported("amin", out=out)
    a = asarray(a)
    if a.dtype == tf.bool:
        return _reduce(tf.reduce_all, a, axis, keepdims)
    return _reduce(tf.reduce_min, a, axis, keepdims)


def max(a, axis=None, keepdims=None):  # noqa: A001
    """The maximum over `axis`."""
    return amax(a, axis=axis, keepdims=keepdims)


def min(a, axis=None, keepdims=None):  # noqa: A001
    """The minimum over `axis`."""
    return amin(a, axis=axis, keepdims=keepdims)


def ptp(a, axis=None, keepdims=None):
    """max - min over `axis`."""
    return amax(a, axis=axis, keepdims=keepdims) - amin(a, axis=axis, keepdims=keepdims)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=None):
    """The variance over `axis`, divided by N - ddof."""
    _unsupported("var", out=out)
    a = asarray(a)
    a = asarray(a, _float_dtype(a, dtype))
    axes = _axes(a, axis)
    centered = a - tf.reduce_mean(a, axis=axes, keepdims=True)
    squares = tf.math.real(centered * tf.math.conj(centered)) if a.dtype.is_complex else tf.square(centered)
    total = tf.reduce_sum(squares, axis=axes, keepdims=bool(keepdims))
    count = tf.cast(tf.size(a), squares.dtype) / tf.cast(tf.size(total), squares.dtype)
    return total / (count - tf.cast(ddof, squares.dtype))


def std(a, axis=None, keepdims=None):
    """The standard deviation over `axis`."""
    return tf.sqrt(var(a, axis=axis, keepdims=keepdims))


def _flat_or(a, axis):
    a = asarray(a)
    if axis is None:
        return tf.reshape(a, [-1]), 0
    return a, norm_axis(axis, rank(a))


def argmax(a, axis=None):
    """The index of the maximum (of the flattened array when axis is None), as int64."""
    a, axis = _flat_or(a, axis)
    if a.dtype == tf.bool:
        a = tf.cast(a, tf.int8)
    return tf.argmax(a, axis=axis, output_type=tf.int64)


def argmin(a, axis=None):
    """The index of the minimum (of the flattened array when axis is None), as int64."""
    a, axis = _flat_or(a, axis)
    if a.dtype == tf.bool:
        a = tf.cast(a, tf.int8)
    return tf.argmin(a, axis=axis, output_type=tf.int64)


def all(a, axis=None, keepdims=None):  # noqa: A001
    """Whether every element (along `axis`) is true."""
    return _reduce(tf.reduce_all, asarray(a, np.bool_), axis, keepdims)


def any(a, axis=None, keepdims=None):  # noqa: A001
    """Whether any element (along `axis`) is true."""
    return _reduce(tf.reduce_any, asarray(a, np.bool_), axis, keepdims)


def _cumulative_dtype(a, dtype):
    """TensorFlow's: integers and bools narrower than 64 bits (unsigned too) accumulate as int64."""
    if dtype is not None:
        return np_dtype(dtype)
    kind = np_dtype(a.dtype)
    return np.dtype(np.int64) if kind == np.bool_ or (kind.kind in "iu" and kind.itemsize < 8) else kind


def cumsum(a, axis=None, dtype=None):
    """The cumulative sum along `axis` (of the flattened array when axis is None)."""
    a = asarray(a)
    a = asarray(a, _cumulative_dtype(a, dtype))
    a, axis = _flat_or(a, axis)
    return tf.cumsum(a, axis=axis)


def cumprod(a, axis=None, dtype=None):
    """The cumulative product along `axis` (of the flattened array when axis is None)."""
    a = asarray(a)
    a = asarray(a, _cumulative_dtype(a, dtype))
    a, axis = _flat_or(a, axis)
    return tf.math.cumprod(a, axis=axis)


def count_nonzero(a, axis=None):
    """How many elements (along `axis`) are not zero, as int64."""
    a = asarray(a)
    return tf.reduce_sum(tf.cast(tf.not_equal(a, tf.zeros([], a.dtype)), tf.int64), axis=_axes(a, axis))


def average(a, axis=None, weights=None, returned=False):
    """The (weighted) average over `axis`; with returned=True also the sum of the weights."""
    a = asarray(a)
    if weights is None:
        out = mean(a, axis=axis)
        count = tf.cast(tf.size(a), out.dtype) / tf.cast(tf.size(out), out.dtype)
        return (out, tf.broadcast_to(count, tf.shape(out))) if returned else out
    w = asarray(weights)
    dtype = np.result_type(np_dtype(a.dtype), np_dtype(w.dtype), np.float64 if not is_inexact(a.dtype) else a.dtype.as_numpy_dtype)
    a, w = asarray(a, dtype), asarray(w, dtype)
    if axis is not None and rank(w) == 1 and rank(a) != 1:
        axis_n = norm_axis(axis, rank(a))
        w = tf.reshape(w, [-1] + [1] * (rank(a) - axis_n - 1))
    total = tf.reduce_sum(tf.broadcast_to(w, tf.shape(a)), axis=_axes(a, axis))
    out = tf.reduce_sum(a * w, axis=_axes(a, axis)) / total
    return (out, total) if returned else out


def _nan_to(a, value):
    a = asarray(a)
    if not is_inexact(a.dtype):
        return a
    return tf.where(tf.math.is_nan(a), tf.cast(value, a.dtype) * tf.ones_like(a), a)


def nansum(a, axis=None, dtype=None, keepdims=False):
    """The sum over `axis`, NaNs counted as zero."""
    return sum(_nan_to(a, 0), axis=axis, dtype=dtype, keepdims=keepdims)


def nanprod(a, axis=None, dtype=None, keepdims=False):
    """The product over `axis`, NaNs counted as one."""
    return prod(_nan_to(a, 1), axis=axis, dtype=dtype, keepdims=keepdims)


def nanmean(a, axis=None, dtype=None, keepdims=None):
    """The mean over `axis` of the elements that are not NaN."""
    a = as_float(a) if dtype is None else asarray(a, dtype)
    if not is_inexact(a.dtype):
        return mean(a, axis=axis, dtype=dtype, keepdims=keepdims)
    keep = tf.cast(tf.math.logical_not(tf.math.is_nan(a)), a.dtype)
    total = tf.reduce_sum(_nan_to(a, 0), axis=_axes(a, axis), keepdims=bool(keepdims))
    return total / tf.reduce_sum(keep, axis=_axes(a, axis), keepdims=bool(keepdims))


def _unsupported(name, **given):
    for key, value in given.items():
        if value is not None:
            raise ValueError(f"Argument `{key}` of tf.experimental.numpy.{name} is not supported (got {value!r}).")
