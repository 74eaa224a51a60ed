"""tf.experimental.numpy.random: NumPy-style random numbers from placeflow's global random generator."""

from __future__ import annotations

import numbers

import numpy as np

import placeflow as tf

from ._core import STATE, asarray


def _float():
    return tf.float32 if STATE["prefer_float32"] else tf.float64


def _size(size):
    if size is None:
        return []
    if isinstance(size, numbers.Integral):
        return [int(size)]
    return [int(s) for s in size]


def seed(s):
    """Set the global random seed (as tf.random.set_seed)."""
    try:
        s = int(s)
    except TypeError:
        raise ValueError(f"np.seed argument must be an integer, got {type(s)}") from None
    tf.random.set_seed(s)


def random(size=None):
    """Uniform samples in [0, 1) (float64)."""
    return uniform(0.0, 1.0, size)


def rand(*size):
    """Uniform samples in [0, 1) of shape `size` (float64)."""
    return random(size)


def uniform(low=0.0, high=1.0, size=None):
    """Uniform samples in [low, high)."""
    low, high = asarray(low, _float()), asarray(high, _float())
    shape = _size(size)
    if not shape:
        shape = tf.broadcast_dynamic_shape(tf.shape(low), tf.shape(high))
    return tf.random.uniform(shape, dtype=_float()) * (high - low) + low


def standard_normal(size=None):
    """Samples of the standard normal distribution (float64)."""
    return tf.random.normal(_size(size), dtype=_float())


def randn(*args):
    """Standard normal samples of shape `args`."""
    return standard_normal(args)


def randint(low, high=None, size=None, dtype=np.int64):
    """Random integers in [low, high) ([0, low) when high is None)."""
    dtype = np.dtype(dtype)
    if dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise ValueError(f"Only np.int32 or np.int64 types are supported, got {dtype}")
    if high is None:
        low, high = 0, low
    return tf.random.uniform(_size(size), minval=low, maxval=high, dtype=tf.as_dtype(dtype))


def poisson(lam=1.0, size=None):
    """Poisson(lam) counts (int64) of shape `size` + lam's shape."""
    return tf.random.poisson(_size(size), lam, dtype=tf.int64)
