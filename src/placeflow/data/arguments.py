"""tf.data's argument checks: the classes and texts TensorFlow raises for bad sizes, counts and functions."""

from __future__ import annotations

import numbers

import numpy as np

from ..framework.errors import InvalidArgumentError


def int64_arg(value) -> int:
    """A Python int from a size or count argument (int, NumPy int or int tensor); floats and strings are
    refused as TensorFlow's conversion to an int64 tensor refuses them (TypeError)."""
    plain = value.numpy() if hasattr(value, "numpy") else value
    if isinstance(plain, np.ndarray) and plain.ndim == 0:
        plain = plain.item()
    if isinstance(plain, (bool, np.bool_)) or not isinstance(plain, (numbers.Integral, np.integer)):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int64")
    return int(plain)


def positive(value, op: str, text: str) -> int:
    """`value` as an int, or InvalidArgumentError with the op's text when it is not above zero."""
    value = int64_arg(value)
    if value <= 0:
        raise InvalidArgumentError(None, None, f"{text} [Op:{op}]")
    return value


def callable_arg(func):
    """`func`, or TF's ValueError naming it when it cannot be called."""
    if not callable(func):
        raise ValueError(f"Argument `func` must be a callable. Received func={func!r} (of type {type(func)})")
    return func
