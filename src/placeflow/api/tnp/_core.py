"""Shared helpers of placeflow's NumPy API: dtype rules (NumPy's, with Python scalars weak), conversion."""

from __future__ import annotations

import numbers

import numpy as np

import placeflow as tf  # the package (partly initialized while it imports this one); read at call time only

STATE = {"prefer_float32": False}
_PY_SCALARS = (bool, int, float, complex)


def is_tensor(x) -> bool:
    """Whether `x` is a placeflow tensor or variable (eager or symbolic)."""
    return not isinstance(x, (np.ndarray, np.generic)) and hasattr(x, "dtype") and hasattr(x, "shape") \
        and tf.is_tensor(x)


def np_dtype(dtype):
    """`dtype` (a NumPy type, a placeflow DType, a Python type or a name) as a NumPy dtype; None stays None."""
    if dtype is None:
        return None
    if hasattr(dtype, "as_numpy_dtype") and not isinstance(dtype, (type, np.dtype)):
        return np.dtype(dtype.as_numpy_dtype)
    return np.dtype(dtype)


def tf_dtype(dtype):
    """`dtype` as a placeflow DType."""
    return tf.as_dtype(np_dtype(dtype))


def dtype_of(x):
    """The NumPy dtype of a tensor or array-like."""
    if is_tensor(x):
        return np_dtype(x.dtype)
    return np.asarray(x).dtype


def _weak_or_dtype(x):
    if isinstance(x, _PY_SCALARS):
        return x
    if is_tensor(x):
        return np_dtype(x.dtype)
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype
    if isinstance(x, (type, np.dtype, str)) or hasattr(x, "as_numpy_dtype"):
        return np_dtype(x)
    if isinstance(x, (list, tuple)):
        return np_dtype(asarray(x).dtype)
    return np.asarray(x).dtype


def result_type_np(*args):
    """NumPy's result dtype of `args`; Python scalars are weak (they take the kind-mate tensor's dtype)."""
    items = [_weak_or_dtype(a) for a in args if a is not None]
    if items and all(isinstance(i, _PY_SCALARS) for i in items):
        items = [np_dtype(asarray(i).dtype) for i in items]
    return np.result_type(*items)


def _prefer32(raw: np.ndarray, value) -> np.ndarray:
    if STATE["prefer_float32"] and raw.dtype == np.float64 and not isinstance(value, np.ndarray):
        return raw.astype(np.float32)
    if STATE["prefer_float32"] and raw.dtype == np.complex128 and not isinstance(value, np.ndarray):
        return raw.astype(np.complex64)
    return raw


def _has_tensor(value) -> bool:
    if is_tensor(value):
        return True
    return isinstance(value, (list, tuple)) and any(_has_tensor(v) for v in value)


def asarray(value, dtype=None):
    """`value` as a tensor of NumPy's dtype for it (Python float: float64), or of `dtype`."""
    want = np_dtype(dtype)
    if is_tensor(value):
        if want is not None and np_dtype(value.dtype) != want:
            return tf.cast(value, tf.as_dtype(want))
        return tf.convert_to_tensor(value) if not hasattr(value, "op") and not hasattr(value, "numpy") else value
    if isinstance(value, (list, tuple)) and _has_tensor(value):
        parts = [asarray(v) for v in value]
        common = want if want is not None else result_type_np(*parts)
        return tf.stack([asarray(p, common) for p in parts])
    if want is None:
        raw = _prefer32(np.asarray(value), value)
    else:
        raw = np.asarray(value)
        raw = raw.astype(want) if raw.dtype != want else raw
    if raw.dtype.kind == "U":
        raw = raw.astype(object)
    return tf.constant(raw)


def promote(*args):
    """`args` as tensors of their common dtype (NumPy's rules)."""
    dtype = result_type_np(*args)
    return [asarray(a, dtype) for a in args]


def is_inexact(dtype) -> bool:
    """Whether a NumPy dtype is floating or complex."""
    return np.issubdtype(np_dtype(dtype), np.inexact)


def as_float(x):
    """`x` as a tensor; integers and bools become float64 (as TensorFlow's NumPy API does)."""
    x = asarray(x)
    return x if is_inexact(x.dtype) else tf.cast(x, tf.float64)


def rank(x) -> int:
    """The rank of tensor `x` (known while tracing)."""
    found = x.shape.rank
    if found is None:
        raise ValueError(f"The rank of {x!r} must be known.")
    return found


def dims(x) -> list:
    """The static shape of `x` as a list (None where unknown)."""
    return list(x.shape.as_list())


def norm_axis(axis, ndim: int) -> int:
    """A non-negative axis, checked against `ndim`."""
    if not isinstance(axis, numbers.Integral):
        raise TypeError(f"axis must be an integer, got {axis!r}")
    if not -ndim <= axis < max(ndim, 1):  # a graph's shape inference refuses it while building (ValueError)
        from ...framework import build_errors
        raise build_errors.invalid(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return int(axis) % max(ndim, 1)


def shape_tuple(shape) -> tuple:
    """A shape argument (int, sequence or tensor) as a tuple of ints (or tensors)."""
    if is_tensor(shape):
        value = tf.get_static_value(shape)
        if value is None:
            return shape
        shape = value.tolist()
    if isinstance(shape, (numbers.Integral, np.integer)):
        return (int(shape),)
    return tuple(int(s) if isinstance(s, (numbers.Integral, np.integer)) else s for s in shape)


def _zeros_of(x, dtype):
    zero = tf.zeros_like(x)
    return zero if zero.dtype == dtype else tf.cast(zero, dtype)


def broadcast_together(*tensors):
    """The tensors broadcast against each other (their shapes known or not while tracing)."""
    shapes = [tuple(dims(t)) for t in tensors]
    if all(None not in s for s in shapes):
        common = np.broadcast_shapes(*shapes)
        return [t if tuple(dims(t)) == common else tf.broadcast_to(t, common) for t in tensors]
    out = []
    for t in tensors:
        for other in tensors:
            if other is not t:
                zero = _zeros_of(other, t.dtype)
                t = tf.math.logical_or(t, zero) if t.dtype == tf.bool else t + zero
        out.append(t)
    return out


def _only(kwargs: dict, function: str, supported: tuple) -> None:
    """TypeError naming a keyword argument `function` does not take (none is accepted and ignored)."""
    unknown = sorted(set(kwargs) - set(supported))
    if unknown:
        raise TypeError(f"tf.experimental.numpy.{function} got unexpected keyword argument(s) {unknown}; it takes "
                        f"{', '.join(supported)}.")
