"""Array creation: array, asarray, zeros, ones, full, arange, linspace, eye, meshgrid, tri, vander, ..."""

from __future__ import annotations

import numpy as np

import placeflow as tf

from ._core import _only, STATE, broadcast_together, asarray as _asarray, dtype_of, is_tensor, np_dtype, rank, result_type_np, shape_tuple


def _default_float():
    return np.float64


def array(val, dtype=None, copy=True, ndmin=0):
    """A tensor from `val` with NumPy's dtype rules, at least `ndmin` dimensions."""
    out = _asarray(val, dtype)
    if copy and out is val:
        out = tf.identity(out)
    missing = ndmin - rank(out)
    if missing > 0:
        out = tf.reshape(out, [1] * missing + [-1 if d is None else d for d in out.shape.as_list()]) \
            if None not in out.shape.as_list() else tf.reshape(out, tf.concat([tf.ones([missing], tf.int32),
                                                                              tf.shape(out)], 0))
    return out


def asarray(a, dtype=None):
    """`a` as a tensor (no copy when it already is one of `dtype`)."""
    return _asarray(a, dtype)


def asanyarray(a, dtype=None):
    """`a` as a tensor (as asarray)."""
    return _asarray(a, dtype)


def ascontiguousarray(a, dtype=None):
    """`a` as a tensor of at least one dimension."""
    return array(a, dtype, ndmin=1)


def copy(a):
    """A copy of `a`."""
    return array(a, copy=True)


def _filled(shape, value, dtype):
    dims = shape_tuple(shape)
    return tf.fill(dims if not is_tensor(dims) else dims, tf.constant(np.asarray(value, dtype=dtype)))


def zeros(shape, dtype=float):
    """A tensor of zeros (float64 by default)."""
    return _filled(shape, 0, np_dtype(dtype))


def ones(shape, dtype=float):
    """A tensor of ones (float64 by default)."""
    return _filled(shape, 1, np_dtype(dtype))


def empty(shape, dtype=float):
    """A tensor of `shape` (zeros, as in TensorFlow)."""
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None):
    """A tensor of `shape` filled with `fill_value` (which broadcasts)."""
    value = _asarray(fill_value, dtype)
    return tf.broadcast_to(value, shape_tuple(shape))


def _like(a, dtype, shape):
    dtype = np_dtype(dtype) if dtype is not None else dtype_of(a)
    if shape is not None:
        return shape_tuple(shape), dtype
    a = _asarray(a)
    known = a.shape.as_list()
    return (tuple(known) if None not in known else tf.shape(a)), dtype


def zeros_like(a, dtype=None):
    """Zeros of `a`'s shape and dtype."""
    dims, dtype = _like(a, dtype, None)
    return _filled(dims, 0, dtype)


def ones_like(a, dtype=None):
    """Ones of `a`'s shape and dtype."""
    dims, dtype = _like(a, dtype, None)
    return _filled(dims, 1, dtype)


def empty_like(a, dtype=None):
    """A tensor of `a`'s shape and dtype (zeros)."""
    return zeros_like(a, dtype)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None):
    """`fill_value` in `a`'s shape, with `a`'s dtype unless `dtype` is given."""
    if order != "K":
        raise ValueError(f"Non-default value for the `order` argument is not supported, got {order!r}.")
    if not subok:
        raise ValueError("subok=False is not supported.")
    dims, dtype = _like(a, dtype, shape)
    value = _asarray(fill_value, dtype)
    if is_tensor(dims):  # a shape known only when the graph runs
        return broadcast_together(value, _filled(dims, 0, dtype))[0]
    return tf.broadcast_to(value, dims)


def arange(start, stop=None, step=1, dtype=None):
    """Evenly spaced values in [start, stop)."""
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("step must be non-zero.")
    if dtype is None:
        dtype = result_type_np(start, stop, step)
        if STATE["prefer_float32"] and dtype == np.float64:
            dtype = np.dtype(np.float32)
    dtype = np_dtype(dtype)
    if any(is_tensor(v) for v in (start, stop, step)):
        parts = [tf.cast(_asarray(v), tf.float64) for v in (start, stop, step)]
        return tf.cast(tf.range(*parts), tf.as_dtype(dtype))
    values = np.arange(start, stop, step, dtype=np.result_type(start, stop, step, np.float64)
                       if np.issubdtype(dtype, np.inexact) else None)
    return tf.constant(values.astype(dtype))


def _endpoints(start, stop, dtype):
    start, stop = _asarray(start), _asarray(stop)
    work = tf.float64 if not np.issubdtype(np_dtype(start.dtype), np.complexfloating) else tf.complex128
    return tf.cast(start, work), tf.cast(stop, work)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    """`num` evenly spaced values from `start` to `stop`."""
    if num < 0:
        raise ValueError(f"Argument `num` (number of samples) must be a non-negative integer. Received: num={num}")
    want = result_type_np(_times_one(start), _times_one(stop))  # as TensorFlow (NumPy 2): `dtype` is not used
    begin, end = _endpoints(start, stop, dtype)
    divisor = (num - 1 if endpoint else num) if num > 1 or not endpoint else 1
    step = (end - begin) / tf.cast(max(divisor, 1), begin.dtype)
    ramp = tf.reshape(tf.cast(tf.range(num), begin.dtype), [num] + [1] * rank(begin))
    out = begin[None] + ramp * step[None]
    if endpoint and num > 1:
        out = tf.concat([out[:-1], end[None]], 0)
    out = _cast_result(_to_axis(out, axis), want)
    return (out, tf.cast(step, out.dtype) if divisor else np.nan) if retstep else out


def _times_one(value):
    if is_tensor(value):
        return value if np.issubdtype(np_dtype(value.dtype), np.inexact) else np.float64
    if isinstance(value, (int, float, bool)):
        return float(value)
    return np.asarray(value) * 1.0


def _cast_result(out, want):
    if np.issubdtype(want, np.integer):
        out = tf.floor(out)
    return tf.cast(out, tf.as_dtype(want))


def _to_axis(out, axis):
    n = rank(out)
    axis = axis % n if n else 0
    if axis == 0:
        return out
    perm = list(range(1, axis + 1)) + [0] + list(range(axis + 1, n))
    return tf.transpose(out, perm)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """`base` raised to `num` evenly spaced exponents."""
    exponents = linspace(start, stop, num, endpoint, dtype=np.float64, axis=axis)
    out = tf.pow(tf.cast(base, tf.float64), exponents)
    return _cast_result(out, np_dtype(dtype) if dtype is not None else np.dtype(np.float64))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`num` values spaced evenly on a log scale from `start` to `stop`."""
    begin, end = _endpoints(start, stop, dtype)
    logs = linspace(tf.math.log(begin) / np.log(10.0), tf.math.log(end) / np.log(10.0), num, endpoint,
                    dtype=np.float64, axis=0)
    out = tf.pow(tf.constant(10.0, tf.float64), logs)
    if num > 0:
        parts = [begin[None], out[1:-1], end[None]] if endpoint and num > 1 else [begin[None], out[1:]]
        out = tf.concat(parts, 0)
    out = _to_axis(out, axis)
    want = np_dtype(dtype) if dtype is not None else result_type_np(start, stop, float)
    return _cast_result(out, want)


def eye(N, M=None, k=0, dtype=float):  # noqa: N803 - NumPy's names
    """A 2-D tensor with ones on the `k`-th diagonal."""
    M = N if M is None else M
    rows = np.arange(N)[:, None]
    cols = np.arange(M)[None, :]
    return tf.constant((cols - rows == k).astype(np_dtype(dtype)))


def identity(n, dtype=float):
    """The `n` x `n` identity matrix."""
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):  # noqa: N803
    """Ones at and below the `k`-th diagonal."""
    M = N if M is None else M
    rows = np.arange(N)[:, None]
    cols = np.arange(M)[None, :]
    return tf.constant((cols - rows <= k).astype(np_dtype(dtype) if dtype is not None else np.float64))


def diag_indices(n, ndim=2):
    """Indices of the main diagonal of an `ndim`-dimensional array of side `n`."""
    if n < 0:
        raise ValueError(f"n argument to diag_indices must be nonnegative, got {n}")
    index = tf.range(n, dtype=tf.int32)
    return tuple(index for _ in range(ndim))


def meshgrid(*xi, **kwargs):
    """Coordinate tensors from 1-D coordinate vectors (indexing 'xy' or 'ij')."""
    _only(kwargs, "meshgrid", ("indexing", "sparse", "copy"))
    indexing = kwargs.get("indexing", "xy")
    sparse = kwargs.get("sparse", False)
    if sparse:
        raise NotImplementedError("tf.experimental.numpy.meshgrid(sparse=True) is not implemented in placeflow.")
    if not kwargs.get("copy", True):
        raise ValueError("copy=False is not supported.")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for `indexing` are 'xy' and 'ij', got {indexing!r}")
    tensors = [tf.reshape(_asarray(x), [-1]) for x in xi]
    return list(tf.meshgrid(*tensors, indexing=indexing))


def ix_(*args):
    """An open mesh: each sequence reshaped to its own axis."""
    n = len(args)
    out = []
    for i, a in enumerate(args):
        a = _asarray(a)
        if rank(a) != 1:
            raise ValueError(f"Arguments must be 1-d, got arg {i} of rank {rank(a)}")
        if a.dtype == tf.bool:
            a = tf.reshape(tf.where(a), [-1])
        out.append(tf.reshape(a, [1] * i + [-1] + [1] * (n - i - 1)))
    return out


def vander(x, N=None, increasing=False):  # noqa: N803
    """The Vandermonde matrix of `x`: columns are powers of `x`."""
    x = _asarray(x)
    if rank(x) != 1:
        raise ValueError(f"x must be a one-dimensional array, got rank {rank(x)}")
    n = x.shape[0] if N is None else N
    powers = np.arange(n) if increasing else np.arange(n)[::-1]
    if n == 0:
        return tf.zeros([x.shape[0], 0], x.dtype)
    return tf.pow(x[:, None], tf.constant(powers.astype(np_dtype(x.dtype)))[None, :])
