"""Division in TensorFlow's other roundings and guards: truediv, truncatediv, truncatemod, divide_no_nan,
xdivy, xlogy, xlog1py, multiply_no_nan, reciprocal_no_nan."""

from __future__ import annotations

from ..eager.convert import convert_to_tensor, operands
from ..eager.execute import execute
from . import array_ops, math_ops


def truediv(x, y, name=None):
    """x / y; integers are divided in floating point: float32 for 8- and 16-bit ones, else float64."""
    return math_ops.divide(x, y, name=name)


def truncatediv(x, y, name=None):
    """x / y rounded toward zero, as C divides (TruncateDiv); integer division by zero is an error."""
    (x, y), dtype = operands("TruncateDiv", (x, y))
    return execute("TruncateDiv", (x, y), dtype, name=name)


def truncatemod(x, y, name=None):
    """The remainder of truncatediv: it has the sign of x, as C's fmod (TruncateMod)."""
    (x, y), dtype = operands("TruncateMod", (x, y))
    return execute("TruncateMod", (x, y), dtype, name=name)


def divide_no_nan(x, y, name=None):
    """x / y, and 0 wherever y is 0 (even for x 0 or inf); gradients are 0 there too."""
    x, y = _floating(x, y, "divide_no_nan")
    return _zero_where(y, lambda zero: math_ops.divide(x, _ones_where(zero, y)), name)


def xdivy(x, y, name=None):
    """x / y, and 0 wherever x is 0."""
    x, y = _floating(x, y, "xdivy")
    return _zero_where(x, lambda zero: math_ops.divide(x, _ones_where(zero, y)), name)


def xlogy(x, y, name=None):
    """x * log(y), and 0 wherever x is 0."""
    x, y = _floating(x, y, "xlogy")
    return _zero_where(x, lambda zero: math_ops.multiply(x, math_ops.log(_ones_where(zero, y))), name)


def xlog1py(x, y, name=None):
    """x * log1p(y), and 0 wherever x is 0."""
    x, y = _floating(x, y, "xlog1py")
    return _zero_where(x, lambda zero: math_ops.multiply(x, math_ops.log1p(_ones_where(zero, y))), name)


def multiply_no_nan(x, y, name=None):
    """x * y, and 0 wherever y is 0 (even for x NaN or inf); gradients are 0 there too."""
    x, y = _floating(x, y, "multiply_no_nan")
    return _zero_where(y, lambda zero: math_ops.multiply(_ones_where(zero, x), y), name)


def reciprocal_no_nan(x, name=None):
    """1 / x, and 0 wherever x is 0."""
    x = convert_to_tensor(x)
    return divide_no_nan(array_ops.ones_like(x), x, name=name)


def _zero_where(test, compute, name):
    """compute(test == 0), with 0 wherever `test` is 0 (so neither the value nor its gradient is NaN there)."""
    zero = math_ops.equal(test, 0)
    value = compute(zero)
    return math_ops.where(zero, array_ops.zeros_like(value), value, name=name)


def _ones_where(zero, y):
    return math_ops.where(zero, array_ops.ones_like(y), y)


def _floating(x, y, what: str) -> tuple:
    """(x, y) when their dtype is floating or complex, else TypeError."""
    (x, y), dtype = operands("Mul", (x, y))
    if not (dtype.is_floating or dtype.is_complex):
        raise TypeError(f"{what} takes floating-point or complex tensors, got {dtype.name}; cast them first, e.g. "
                        f"placeflow.cast(x, placeflow.float32).")
    return x, y
