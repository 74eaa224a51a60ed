"""How gradient rules build ops: `emit` runs an op in the current interpreter (framework/interpreter.py):
now, or recorded into the graph being traced.

So op definitions, which live below the eager and graph layers, can state their gradients in terms
of other ops. The helpers here are the few compositions those rules share; inputs are tensors
(Python numbers only through tensor operators).
"""

from __future__ import annotations

import numpy as np

from ..framework import interpreter

def emit(op: str, inputs, dtype=None, attrs=None):
    """Run (or record) `op` on `inputs`; `dtype` defaults to the first input's (a select's: its values')."""
    if dtype is None:
        dtype = inputs[1].dtype if op in ("SelectV2", "Select") else inputs[0].dtype
    return interpreter.current().run_op(op, tuple(inputs), dtype, attrs)


def unconnected_zeros(x):
    """Zeros standing for the upstream gradient of an output nothing used (is_unconnected tells them apart)."""
    zeros = zeros_like(x)
    zeros._placeflow_unconnected = True
    return zeros


def is_unconnected(grad) -> bool:
    """Whether an upstream gradient is the zeros of an unused output (a rule may skip its terms)."""
    return grad is None or getattr(grad, "_placeflow_unconnected", False)


def shape_of(value) -> tuple:
    """The static shape of a tensor (or array) as a tuple."""
    shape = getattr(value, "shape", None)
    return tuple(shape) if shape is not None else tuple(np.shape(value))


def negative(x):
    """-x."""
    return emit("Neg", (x,))


def zeros_like(x):
    """Zeros of x's shape and dtype."""
    return emit("ZerosLike", (x,))


def ones_like(x):
    """Ones of x's shape and dtype."""
    return emit("OnesLike", (x,))


def reshape(x, shape):
    """x with a new shape."""
    return emit("Reshape", (x,), attrs={"shape": tuple(int(dim) for dim in shape)})


def transpose(x, perm=None):
    """x with its dimensions permuted (reversed when perm is None)."""
    return emit("Transpose", (x,), attrs={"perm": None if perm is None else tuple(int(p) for p in perm)})


def expand_dims(x, axis):
    """x with a dimension of size 1 at `axis`."""
    return emit("ExpandDims", (x,), attrs={"axis": int(axis)})


def reduce_sum(x, axis=None, keepdims=False):
    """Sum of x over `axis` (all when None)."""
    return emit("Sum", (x,), attrs={"axis": _axes(axis), "keepdims": bool(keepdims)})


def reduce_mean(x, axis=None, keepdims=False):
    """Mean of x over `axis` (all when None)."""
    return emit("Mean", (x,), attrs={"axis": _axes(axis), "keepdims": bool(keepdims)})


def matmul(a, b, transpose_a=False, transpose_b=False):
    """a @ b, either side transposed."""
    return emit("MatMul", (a, b), attrs={"transpose_a": transpose_a, "transpose_b": transpose_b})


def where(condition, x, y):
    """x where condition, else y."""
    return emit("SelectV2", (condition, x, y), x.dtype)


def compare(op, x, y):
    """The bool tensor of comparison `op` ("Equal", "GreaterEqual", ...)."""
    return emit(op, (x, y))


def cast(x, dtype):
    """x converted to `dtype` (x itself when it already has it)."""
    return x if x.dtype == dtype else emit("Cast", (x,), x.dtype, {"dtype": dtype})


def split(x, sizes, axis):
    """x cut along `axis` into parts of `sizes` (a list) or into that many equal parts (an int)."""
    parts = sizes if isinstance(sizes, int) else [int(s) for s in sizes]
    return emit("Split", (x,), attrs={"num_or_sizes": parts, "axis": int(axis)})


def concat(values, axis):
    """The tensors joined along `axis`."""
    return emit("ConcatV2", tuple(values), attrs={"axis": int(axis)})


def reduce_to(grad, shape):
    """Sum `grad` over the dimensions that broadcasting added or stretched, back to `shape`."""
    grad_shape, shape = shape_of(grad), tuple(shape)
    lead = len(grad_shape) - len(shape)
    if grad_shape == shape or lead < 0:
        return grad
    # a dimension of 1 stretched by broadcasting (an unknown one may have been: summing a size-1 axis is harmless)
    stretched = [i + lead for i, dim in enumerate(shape) if dim == 1 and grad_shape[i + lead] != 1]
    out = reduce_sum(grad, axis=stretched, keepdims=True) if stretched else grad
    return reduce_sum(out, axis=list(range(lead))) if lead else out


def binary(e, grad_x, grad_y):
    """The gradients of a broadcasting binary op, each reduced back to its input's shape."""
    x, y = e.inputs[:2]
    return [reduced_like(grad_x, x), reduced_like(grad_y, y)]


def reduced_like(grad, operand):
    """`grad` summed back to `operand`'s shape; decided when the graph runs if either rank is unknown then."""
    if grad is None:
        return None
    if getattr(operand, "shape", ()) is None or getattr(grad, "shape", ()) is None:
        return emit("_ReduceToShapeOf", (grad, operand), grad.dtype)
    return reduce_to(grad, shape_of(operand))


def _axes(axis):
    if axis is None or np.ndim(axis) == 0:
        return None if axis is None else int(axis)
    return tuple(int(a) for a in axis)
