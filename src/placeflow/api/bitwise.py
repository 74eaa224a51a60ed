"""placeflow.bitwise: bit operations on integer tensors (TensorFlow's tf.bitwise)."""

from __future__ import annotations

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from .math_ops import _binary


def bitwise_and(x, y, name=None):
    """x & y elementwise (BitwiseAnd)."""
    return _binary("BitwiseAnd", x, y, name)


def bitwise_or(x, y, name=None):
    """x | y elementwise (BitwiseOr)."""
    return _binary("BitwiseOr", x, y, name)


def bitwise_xor(x, y, name=None):
    """x ^ y elementwise (BitwiseXor)."""
    return _binary("BitwiseXor", x, y, name)


def left_shift(x, y, name=None):
    """x << y elementwise; shift amounts are clamped to [0, bits - 1], as TensorFlow's kernel does."""
    return _binary("LeftShift", x, y, name)


def right_shift(x, y, name=None):
    """x >> y elementwise (arithmetic for signed types); amounts clamped to [0, bits - 1]."""
    return _binary("RightShift", x, y, name)


def invert(x, name=None):
    """~x elementwise: every bit flipped (Invert)."""
    x = convert_to_tensor(x)
    return execute("Invert", (x,), x.dtype, name=name)
