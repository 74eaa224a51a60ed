"""experimental_enable_numpy_behavior: NumPy methods and NumPy dtype promotion on placeflow tensors."""

from __future__ import annotations

import numpy as np

import placeflow as tf

from ._core import _only, STATE, asarray, np_dtype, promote

_SAVED: dict = {}  # (class, attribute) -> the original (None: it had none), to undo in tests


def _size(self):
    known = self.shape.as_list() if self.shape.rank is not None else [None]
    return np.int64(np.prod(known)) if None not in known else tf.size(self, out_type=tf.int64)


def _reshape(self, *args, **kwargs):
    from .shapes import reshape
    shape = args[0] if len(args) == 1 else args
    _only(kwargs, "ndarray.reshape", ("order",))
    return reshape(self, shape, order=kwargs.get("order", "C"))


def _transpose(self, *axes):
    from .shapes import transpose
    axes = axes[0] if len(axes) == 1 and not isinstance(axes[0], int) else (axes or None)
    return transpose(self, axes)


def _clip(self, a_min, a_max):
    from .math import clip
    return clip(self, a_min, a_max)


def _reduction(name):
    def method(self, axis=None, keepdims=None, **kwargs):
        from . import reductions
        return getattr(reductions, name)(self, axis=axis, keepdims=keepdims, **kwargs)
    method.__name__ = name
    return method


def _flatten(self, order="C"):
    from .shapes import flatten
    return flatten(self, order)


_METHODS = {
    "T": property(lambda self: tf.transpose(self)),
    "__pos__": lambda self: tf.identity(self),
    "astype": lambda self, dtype: asarray(self, np_dtype(dtype)),
    "clip": _clip,
    "data": property(lambda self: self),
    "flatten": _flatten,
    "max": _reduction("amax"),
    "mean": _reduction("mean"),
    "min": _reduction("amin"),
    "ravel": lambda self: tf.reshape(self, [-1]),
    "reshape": _reshape,
    "size": property(_size),
    "transpose": _transpose,
}


def _promoting(fn, reflected):
    def method(self, other):
        try:
            x, y = promote(other, self) if reflected else promote(self, other)
        except (TypeError, ValueError):
            return NotImplemented
        return fn(x, y)
    return method


_OPERATORS = {
    "add": lambda x, y: tf.math.add(x, y), "sub": lambda x, y: tf.math.subtract(x, y),
    "mul": lambda x, y: tf.math.multiply(x, y), "truediv": lambda x, y: tf.math.truediv(x, y),
    "floordiv": lambda x, y: tf.math.floordiv(x, y), "mod": lambda x, y: tf.math.floormod(x, y),
    "pow": lambda x, y: tf.math.pow(x, y),
}
_COMPARISONS = {"lt": lambda x, y: tf.math.less(x, y), "le": lambda x, y: tf.math.less_equal(x, y),
                "gt": lambda x, y: tf.math.greater(x, y), "ge": lambda x, y: tf.math.greater_equal(x, y)}


def _classes():
    from ...eager.tensor import EagerTensor
    from ...graph.graph import Tensor as GraphTensor
    return EagerTensor, GraphTensor


def _set(cls, name, value):
    if (cls, name) not in _SAVED:
        _SAVED[(cls, name)] = cls.__dict__.get(name)
    setattr(cls, name, value)


def _truediv(x, y):
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x, y = tf.cast(x, tf.float64), tf.cast(y, tf.float64)
    return tf.math.truediv(x, y)


def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode="legacy"):
    """Give tensors NumPy methods (T, astype, reshape, ravel, ...) and NumPy dtype promotion in operators."""
    if dtype_conversion_mode not in ("off", "legacy", "safe", "all"):
        raise ValueError(f"The provided promotion mode {dtype_conversion_mode} does not exist. Make sure the provided "
                         "dtype conversion mode is one of the followings: 'off', 'legacy', 'safe' or 'all'.")
    if dtype_conversion_mode not in ("off", "legacy"):
        raise NotImplementedError(
            f"tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode="
            f"{dtype_conversion_mode!r}) is not implemented in placeflow; only 'legacy' (and 'off') are.")
    STATE["prefer_float32"] = bool(prefer_float32)
    eager, graph = _classes()
    for cls in (eager, graph):
        for name, value in _METHODS.items():
            _set(cls, name, value)
        for name, fn in _OPERATORS.items():
            fn = _truediv if name == "truediv" else fn
            _set(cls, f"__{name}__", _promoting(fn, reflected=False))
            _set(cls, f"__r{name}__", _promoting(fn, reflected=True))
        for name, fn in _COMPARISONS.items():
            _set(cls, f"__{name}__", _promoting(fn, reflected=False))
    _set(eager, "tolist", lambda self: self.numpy().tolist())


def _disable_numpy_behavior():
    """Undo experimental_enable_numpy_behavior (TensorFlow has no such function; placeflow's tests use it)."""
    STATE["prefer_float32"] = False
    for (cls, name), original in _SAVED.items():
        if original is None:
            delattr(cls, name)
        else:
            setattr(cls, name, original)
    _SAVED.clear()


