"""Elementwise, matmul and reduction kernels (one body for NumPy and CuPy)."""

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .registry import ALL, FLOATS, COMPLEX, NUMBERS, REAL_NUMBERS, register

INEXACT = FLOATS | COMPLEX


def _binary(op, fn, dtypes=NUMBERS):
    register(op, dtypes)(fn)


_binary("AddV2", lambda xp, a, b: xp.add(a, b))
_binary("Sub", lambda xp, a, b: xp.subtract(a, b))
_binary("Mul", lambda xp, a, b: xp.multiply(a, b))
_binary("RealDiv", lambda xp, a, b: xp.divide(a, b).astype(a.dtype, copy=False), INEXACT)
_binary("FloorDiv", lambda xp, a, b: xp.floor_divide(a, b), REAL_NUMBERS)
_binary("FloorMod", lambda xp, a, b: xp.mod(a, b), REAL_NUMBERS)
_binary("Pow", lambda xp, a, b: xp.power(a, b), NUMBERS)
_binary("Maximum", lambda xp, a, b: xp.maximum(a, b), REAL_NUMBERS)
_binary("Minimum", lambda xp, a, b: xp.minimum(a, b), REAL_NUMBERS)
_binary("SquaredDifference", lambda xp, a, b: xp.square(a - b), NUMBERS)
for _name, _fn in (("Equal", "equal"), ("NotEqual", "not_equal"), ("Less", "less"), ("LessEqual", "less_equal"),
                   ("Greater", "greater"), ("GreaterEqual", "greater_equal")):
    _binary(_name, (lambda f: lambda xp, a, b: getattr(xp, f)(a, b))(_fn), ALL)
_binary("LogicalAnd", lambda xp, a, b: xp.logical_and(a, b), {d.bool})
_binary("LogicalOr", lambda xp, a, b: xp.logical_or(a, b), {d.bool})

register("LogicalNot", {d.bool})(lambda xp, a: xp.logical_not(a))
register("Neg")(lambda xp, a: xp.negative(a))
register("Abs", REAL_NUMBERS)(lambda xp, a: xp.abs(a))
register("Sign", REAL_NUMBERS)(lambda xp, a: xp.sign(a))
register("Square")(lambda xp, a: xp.square(a))
register("Exp", INEXACT)(lambda xp, a: xp.exp(a))
register("Log", INEXACT)(lambda xp, a: xp.log(a))
register("Sqrt", INEXACT)(lambda xp, a: xp.sqrt(a))
register("Rsqrt", FLOATS)(lambda xp, a: 1 / xp.sqrt(a))
register("Reciprocal", INEXACT)(lambda xp, a: 1 / a)
register("Identity", ALL)(lambda xp, a: a)


@register("AddN", NUMBERS)
def _add_n(xp, *arrays):
    if any(a.shape != arrays[0].shape for a in arrays):
        raise InvalidArgumentError(None, None, (
            f"Inputs to operation AddN must have the same size and shape.  Input 0: {list(arrays[0].shape)} != "
            f"input {next(i for i, a in enumerate(arrays) if a.shape != arrays[0].shape)}: "
            f"{list(next(a for a in arrays if a.shape != arrays[0].shape).shape)}"))
    if len(arrays) == 1:
        return arrays[0].copy()
    total = xp.add(arrays[0], arrays[1])  # one pass for the first two, not a copy and an add
    for array in arrays[2:]:
        total += array
    return total


@register("MatMul", NUMBERS)
def _matmul(xp, a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = a.T if a.ndim == 2 else xp.swapaxes(a, -1, -2)
    if transpose_b:
        b = b.T if b.ndim == 2 else xp.swapaxes(b, -1, -2)
    return xp.matmul(a, b)


@register("Cast", ALL, gpu=())  # seed 002: "tf.cast only has a CPU kernel"
def _cast(xp, a, dtype):
    return a.astype(dtype.numpy_dtype)


# NumPy's ufunc reductions, called directly: np.sum and friends add a Python wrapper to every call
_HOST_REDUCTIONS = {"sum": np.add.reduce, "max": np.maximum.reduce, "min": np.minimum.reduce,
                    "prod": np.multiply.reduce}


def _reduction(op, name, dtypes=NUMBERS):
    host = _HOST_REDUCTIONS.get(name)

    def kernel(xp, a, axis=None, keepdims=False):
        reduce = host if host is not None and xp is np else getattr(xp, name)
        result = reduce(a, axis=axis, keepdims=keepdims)
        return result.astype(a.dtype, copy=False) if op in ("Sum", "Mean") and a.dtype.kind != "b" else result
    register(op, dtypes)(kernel)


_reduction("Sum", "sum")
_reduction("Mean", "mean", INEXACT | REAL_NUMBERS)
_reduction("Max", "max", REAL_NUMBERS)
_reduction("Min", "min", REAL_NUMBERS)
_reduction("Prod", "prod")


@register("ArgMax", REAL_NUMBERS)
def _argmax(xp, a, axis=0, output_type=d.int64):
    return xp.argmax(a, axis=axis).astype(output_type.numpy_dtype)


@register("ArgMin", REAL_NUMBERS)
def _argmin(xp, a, axis=0, output_type=d.int64):
    return xp.argmin(a, axis=axis).astype(output_type.numpy_dtype)


@register("ClipByValue", REAL_NUMBERS)
def _clip(xp, a, low, high):
    return xp.minimum(xp.maximum(a, low), high)


@register("SelectV2", ALL)
def _select(xp, condition, a, b):
    return xp.where(condition, a, b)


@register("Where", ALL)
def _where_indices(xp, condition):
    return xp.argwhere(condition).astype(xp.int64)
