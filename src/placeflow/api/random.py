"""placeflow.random: seeded uniform and normal values, with TensorFlow's global/op seed rules.

A global seed (set_seed) makes every later sequence of random ops repeat; an op seed alone uses a
fixed default global seed; repeated calls with the same seeds give new values, in a repeatable order.
"""

from __future__ import annotations

import itertools
import threading

import numpy as np

from ..eager.execute import execute
from ..framework import dtypes

DEFAULT_GLOBAL_SEED = 87654321
_lock = threading.Lock()
_global_seed = None
_op_counter = itertools.count()
_calls: dict = {}


def set_seed(seed) -> None:
    """Set the global seed: sequences of random ops after this call repeat across runs."""
    global _global_seed, _op_counter
    with _lock:
        _global_seed = None if seed is None else int(seed)
        _op_counter = itertools.count()
        _calls.clear()


def get_global_generator_seed():
    """The global seed, or None."""
    return _global_seed


def _generator(seed) -> np.random.Generator:
    with _lock:
        if _global_seed is None and seed is None:
            return np.random.default_rng()
        global_seed = DEFAULT_GLOBAL_SEED if _global_seed is None else _global_seed
        op_seed = next(_op_counter) if seed is None else int(seed)
        call = _calls.get((global_seed, op_seed), 0)
        _calls[(global_seed, op_seed)] = call + 1
        return np.random.default_rng([global_seed & 0xFFFFFFFF, op_seed & 0xFFFFFFFF, call])


def _shape(shape) -> tuple:
    from .array_ops import _ints
    return _ints(shape)


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Values drawn uniformly from [minval, maxval) (maxval defaults to 1)."""
    dtype = dtypes.as_dtype(dtype)
    attrs = {"shape": _shape(shape), "minval": float(minval), "maxval": 1.0 if maxval is None else float(maxval),
             "dtype": dtype, "generator": _generator(seed)}
    return execute("RandomUniform", (), dtype, attrs, name=name)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Values drawn from a normal distribution."""
    dtype = dtypes.as_dtype(dtype)
    attrs = {"shape": _shape(shape), "mean": float(mean), "stddev": float(stddev), "dtype": dtype,
             "generator": _generator(seed)}
    return execute("RandomStandardNormal", (), dtype, attrs, name=name)
