"""TensorFlow 1's names for categorical sampling: tf.compat.v1.random.multinomial and stateless_multinomial are
tf.random.categorical and stateless_categorical with the output dtype passed as `output_dtype`."""

from __future__ import annotations

from ..framework import dtypes
from . import random


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    """Samples from categorical distributions (tf.random.categorical; int64 unless output_dtype says)."""
    return random.categorical(logits, num_samples, dtype=output_dtype, seed=seed, name=name)


def stateless_multinomial(logits, num_samples, seed, output_dtype=dtypes.int64, name=None):
    """Deterministic samples from categorical distributions (tf.random.stateless_categorical)."""
    return random.stateless_categorical(logits, num_samples, seed, dtype=output_dtype, name=name)
