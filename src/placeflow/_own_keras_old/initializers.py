"""Weight initializers: GlorotUniform (Keras's default kernel), Zeros, Ones, RandomNormal, RandomUniform, HeNormal.

Each takes a seed; the same seed gives the same weights (NumPy's PCG64, so values differ from
TensorFlow's own generator). Without a seed, values come from placeflow.random's global seed.
"""

from __future__ import annotations

import numpy as np

from ..api import random as random_ops
from ..framework import dtypes


class Initializer:
    """Base: __call__(shape, dtype) returns a NumPy array."""

    def __init__(self, seed=None):
        self.seed = seed

    def _rng(self) -> np.random.Generator:
        if self.seed is not None:
            return np.random.default_rng(self.seed)
        return random_ops._generator(None)

    def get_config(self) -> dict:
        """The constructor arguments."""
        return {"seed": self.seed}


class Zeros(Initializer):
    """All zeros."""

    def __call__(self, shape, dtype=dtypes.float32):
        return np.zeros(shape, dtypes.as_dtype(dtype).numpy_dtype)


class Ones(Initializer):
    """All ones."""

    def __call__(self, shape, dtype=dtypes.float32):
        return np.ones(shape, dtypes.as_dtype(dtype).numpy_dtype)


class Constant(Initializer):
    """Every element `value` (a scalar, or an array of the variable's shape)."""

    def __init__(self, value=0):
        super().__init__()
        self.value = value

    def __call__(self, shape, dtype=dtypes.float32):
        value = np.asarray(self.value, dtypes.as_dtype(dtype).numpy_dtype)
        if value.ndim and tuple(value.shape) != tuple(shape):
            raise TypeError(f"Constant initializer of shape {value.shape} does not match the variable shape "
                            f"{tuple(shape)}.")
        return np.broadcast_to(value, tuple(shape)).copy()

    def get_config(self) -> dict:
        """The constant."""
        return {"value": self.value}


class RandomUniform(Initializer):
    """Uniform in [minval, maxval)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape, dtype=dtypes.float32):
        values = self._rng().uniform(self.minval, self.maxval, size=shape)
        return values.astype(dtypes.as_dtype(dtype).numpy_dtype)


class RandomNormal(Initializer):
    """Normal with the given mean and standard deviation."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=dtypes.float32):
        values = self._rng().normal(self.mean, self.stddev, size=shape)
        return values.astype(dtypes.as_dtype(dtype).numpy_dtype)


def _fans(shape) -> tuple:
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return shape[-2] * receptive, shape[-1] * receptive


class GlorotUniform(Initializer):
    """Uniform in ±sqrt(6 / (fan_in + fan_out)): Keras's default for Dense kernels."""

    def __call__(self, shape, dtype=dtypes.float32):
        fan_in, fan_out = _fans(tuple(shape))
        limit = np.sqrt(6.0 / max(1, fan_in + fan_out))
        return self._rng().uniform(-limit, limit, size=shape).astype(dtypes.as_dtype(dtype).numpy_dtype)


class HeNormal(Initializer):
    """Truncated-free normal with stddev sqrt(2 / fan_in) (for ReLU layers)."""

    def __call__(self, shape, dtype=dtypes.float32):
        fan_in, _ = _fans(tuple(shape))
        values = self._rng().normal(0.0, np.sqrt(2.0 / max(1, fan_in)), size=shape)
        return values.astype(dtypes.as_dtype(dtype).numpy_dtype)


class Orthogonal(Initializer):
    """A random orthogonal matrix (rows or columns orthonormal) times `gain` (Keras's recurrent kernels)."""

    def __init__(self, gain=1.0, seed=None):
        super().__init__(seed)
        self.gain = float(gain)

    def __call__(self, shape, dtype=dtypes.float32):
        shape = tuple(shape)
        if len(shape) < 2:
            raise ValueError(f"The tensor to initialize must be at least two-dimensional. Received: shape={shape}")
        rows, columns = int(np.prod(shape[:-1])), shape[-1]
        flat = self._rng().normal(0.0, 1.0, size=(max(rows, columns), min(rows, columns)))
        q, r = np.linalg.qr(flat)
        q = q * np.sign(np.diag(r))
        if rows < columns:
            q = q.T
        return (self.gain * q.reshape(shape)).astype(dtypes.as_dtype(dtype).numpy_dtype)

    def get_config(self) -> dict:
        return dict(super().get_config(), gain=self.gain)


_BY_NAME = {"zeros": Zeros, "ones": Ones, "constant": Constant, "glorot_uniform": GlorotUniform,
            "random_normal": RandomNormal, "orthogonal": Orthogonal,
            "random_uniform": RandomUniform, "uniform": RandomUniform, "he_normal": HeNormal}


def get(identifier) -> Initializer:
    """An initializer from a name ('glorot_uniform', 'zeros', ...), an instance, or a callable."""
    if isinstance(identifier, str):
        key = identifier.lower()
        if key not in _BY_NAME:
            raise ValueError(f"Unknown initializer {identifier!r}; known: {', '.join(sorted(_BY_NAME))}.")
        return _BY_NAME[key]()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier!r}")
