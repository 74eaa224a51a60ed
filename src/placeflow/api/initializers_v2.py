"""TF 2's top-level initializers (tf.zeros_initializer, tf.ones_initializer, tf.constant_initializer,
tf.random_normal_initializer, tf.random_uniform_initializer): callables (shape, dtype) -> tensor. A seed makes
the random ones draw TF's stateless values for [seed, 0]; without one they draw from TF's stateful ops."""

from __future__ import annotations

from ..eager.convert import constant, convert_to_tensor
from ..framework import dtypes
from . import array_ops, random


class Initializer:
    """Base: call with (shape, dtype); get_config/from_config round-trip the arguments."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError("Initializer subclasses define __call__.")

    def get_config(self) -> dict:
        """The constructor arguments."""
        return {}

    @classmethod
    def from_config(cls, config):
        """An initializer from get_config()'s dictionary."""
        config = dict(config)
        config.pop("dtype", None)
        return cls(**config)


def _refuse_kwargs(kwargs) -> None:
    if kwargs:
        raise TypeError(f"Unknown keyword arguments: {sorted(kwargs)}. Allowed keyword arguments: "
                        "['partition_shape', 'partition_offset'].")


class Zeros(Initializer):
    """All zeros."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        _refuse_kwargs(kwargs)
        return array_ops.zeros(shape, dtypes.as_dtype(dtype))


class Ones(Initializer):
    """All ones."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        _refuse_kwargs(kwargs)
        return array_ops.ones(shape, dtypes.as_dtype(dtype))


class Constant(Initializer):
    """`value` (a scalar broadcast, or values laid out in the shape)."""

    def __init__(self, value=0):
        if not (isinstance(value, (int, float, complex, list, tuple)) or hasattr(value, "shape")):
            raise TypeError(f"Invalid type for initial value: {type(value).__name__} (expected Python scalar, list "
                            "or tuple of values, or numpy.ndarray).")
        self.value = value

    def __call__(self, shape, dtype=None, **kwargs):
        _refuse_kwargs(kwargs)
        return constant(self.value, dtype=None if dtype is None else dtypes.as_dtype(dtype), shape=shape)

    def get_config(self) -> dict:
        return {"value": self.value}


def _float_dtype(dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Argument `dtype` is expected to be floating point. Received: <dtype: '{dtype.name}'>.")
    return dtype


class RandomUniform(Initializer):
    """Uniform values in [minval, maxval) (integers too)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        _refuse_kwargs(kwargs)
        dtype = dtypes.as_dtype(dtype)
        if not (dtype.is_floating or dtype.is_integer):
            raise ValueError(f"Invalid dtype {dtype!r}")
        if self.seed is not None:
            return random.stateless_uniform(shape, seed=[self.seed, 0], minval=self.minval, maxval=self.maxval,
                                            dtype=dtype)
        return random.uniform(shape, self.minval, self.maxval, dtype)

    def get_config(self) -> dict:
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class RandomNormal(Initializer):
    """Normal values with `mean` and `stddev`."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        _refuse_kwargs(kwargs)
        dtype = _float_dtype(dtype)
        if self.seed is not None:
            return random.stateless_normal(shape, seed=[self.seed, 0], mean=self.mean, stddev=self.stddev,
                                           dtype=dtype)
        return random.normal(shape, self.mean, self.stddev, dtype)

    def get_config(self) -> dict:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


zeros_initializer, ones_initializer, constant_initializer = Zeros, Ones, Constant
random_normal_initializer, random_uniform_initializer = RandomNormal, RandomUniform
del convert_to_tensor
