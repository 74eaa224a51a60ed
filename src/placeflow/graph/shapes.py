"""Static output dtypes and shapes of graph ops (unknown dimensions are None)."""

from __future__ import annotations

import numpy as np

from ..framework import dtypes
from ..ops.registry import find_kernel

BOOL_OUTPUT = frozenset({"Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd",
                         "LogicalOr", "LogicalNot"})
ELEMENTWISE = frozenset({"AddV2", "Sub", "Mul", "RealDiv", "FloorDiv", "FloorMod", "Pow", "Maximum", "Minimum",
                         "SquaredDifference", "ClipByValue", "SelectV2", "AddN"}) | BOOL_OUTPUT
SAME_SHAPE = frozenset({"Neg", "Abs", "Sign", "Square", "Exp", "Log", "Sqrt", "Rsqrt", "Reciprocal", "Identity",
                        "Relu", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "ZerosLike", "OnesLike", "Cast",
                        "LogicalNot", "Assign", "AssignAdd", "AssignSub", "ReadVariableOp", "_Send", "_Recv",
                        "BiasAdd", "ReluGrad", "_NcclAllReduce"})
REDUCTIONS = frozenset({"Sum", "Mean", "Max", "Min", "Prod"})


def output_dtype(op: str, dtype, attrs):
    """The dtype an op produces from input dtype `dtype`."""
    if op in BOOL_OUTPUT:
        return dtypes.bool
    for key in ("dtype", "output_type", "out_type"):
        if attrs and key in attrs:
            return dtypes.as_dtype(attrs[key])
    if op == "Where":
        return dtypes.int64
    return dtype


def output_shape(op: str, shapes: list, attrs: dict, dtype):
    """The static shape of the (first) output, from the input shapes (None entries: unknown)."""
    attrs = attrs or {}
    if op in SAME_SHAPE and shapes:
        return shapes[0]
    if op in ELEMENTWISE:
        return _broadcast(shapes)
    rule = _RULES.get(op)
    if rule is not None:
        try:
            return rule(shapes, attrs)
        except (IndexError, ValueError, TypeError, KeyError, ZeroDivisionError):
            return None  # inconsistent static shapes: unknown here, the kernel reports the error when it runs
    return _by_evaluation(op, shapes, attrs, dtype)


def _broadcast(shapes):
    if any(s is None for s in shapes):
        return None
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(rank):
        dims = [s[len(s) - rank + i] for s in shapes if len(s) - rank + i >= 0]
        known = [d for d in dims if d is not None and d != 1]
        out.append(known[0] if known else (None if None in dims else 1))
    return tuple(out)


def _matmul(shapes, attrs):
    a, b = shapes
    if a is None or b is None or len(a) < 2 or len(b) < 2:
        return None
    rows = a[-1] if attrs.get("transpose_a") else a[-2]
    cols = b[-2] if attrs.get("transpose_b") else b[-1]
    batch = _broadcast([a[:-2], b[:-2]]) or ()
    return tuple(batch) + (rows, cols)


def _reduce(shapes, attrs):
    shape = shapes[0]
    axis = attrs.get("axis")
    if shape is None:
        return () if axis is None and not attrs.get("keepdims") else None
    axes = range(len(shape)) if axis is None else [a % len(shape) for a in np.atleast_1d(axis)]
    if attrs.get("keepdims"):
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _arg_reduce(shapes, attrs):
    shape = shapes[0]
    if shape is None:
        return None
    axis = attrs.get("axis", 0) % max(len(shape), 1)
    return tuple(d for i, d in enumerate(shape) if i != axis)


def _reshape(shapes, attrs):
    target = list(attrs["shape"])
    if -1 in target:
        known = shapes[0] is not None and None not in shapes[0]
        rest = int(np.prod([d for d in target if d != -1]))
        total = int(np.prod(shapes[0])) if known else None
        target[target.index(-1)] = total // rest if known and rest else None
    return tuple(target)


def _transpose(shapes, attrs):
    shape = shapes[0]
    if shape is None:
        return None
    perm = attrs.get("perm")
    return tuple(reversed(shape)) if perm is None else tuple(shape[p] for p in perm)


def _concat(shapes, attrs):
    if any(s is None for s in shapes):
        return None
    axis = attrs["axis"] % len(shapes[0])
    sizes = [s[axis] for s in shapes]
    out = list(shapes[0])
    out[axis] = None if None in sizes else sum(sizes)
    return tuple(out)


def _pack(shapes, attrs):
    if shapes[0] is None:
        return None
    out = list(shapes[0])
    axis = attrs.get("axis", 0)
    out.insert(axis if axis >= 0 else len(out) + 1 + axis, len(shapes))
    return tuple(out)


_RULES = {
    "MatMul": _matmul,
    "Sum": _reduce, "Mean": _reduce, "Max": _reduce, "Min": _reduce, "Prod": _reduce,
    "ArgMax": _arg_reduce, "ArgMin": _arg_reduce,
    "Reshape": _reshape,
    "Transpose": _transpose,
    "ConcatV2": _concat,
    "Pack": _pack,
    "Fill": lambda shapes, attrs: tuple(attrs["shape"]),
    "Tile": lambda shapes, attrs: None if shapes[0] is None or len(shapes[0]) != len(attrs["multiples"]) else
    tuple(None if d is None else d * int(m) for d, m in zip(shapes[0], attrs["multiples"])),
    "Shape": lambda shapes, attrs: (None if shapes[0] is None else len(shapes[0]),),
    "Where": lambda shapes, attrs: (None, None if shapes[0] is None else len(shapes[0])),
    "NoOp": lambda shapes, attrs: (),
    "RandomUniform": lambda shapes, attrs: tuple(attrs["shape"]),
    "RandomStandardNormal": lambda shapes, attrs: tuple(attrs["shape"]),
}


def _xent_outputs(shapes, dtype):
    """(per-example loss, backprop) of the fused softmax cross-entropy ops."""
    logits = shapes[0]
    return [(dtype, None if logits is None else tuple(logits[:-1])), (dtype, logits)]


_RULES["_ReduceGrad"] = lambda shapes, attrs: shapes[1]
_RULES["ResourceApplyGradientDescent"] = lambda shapes, attrs: ()

MULTI_OUTPUT = {"SparseSoftmaxCrossEntropyWithLogits": _xent_outputs, "SoftmaxCrossEntropyWithLogits": _xent_outputs}


def _by_evaluation(op, shapes, attrs, dtype):
    """Run the CPU kernel on small zero arrays (unknown dims as 1); unknown dims stay unknown."""
    kernel = find_kernel(op, "CPU", dtype)
    if kernel is None or any(s is None for s in shapes):
        return None
    numpy_dtype = dtype.numpy_dtype if dtype is not None else np.float32
    arrays = [np.zeros(tuple(1 if d is None else d for d in s), dtype=numpy_dtype) for s in shapes]
    if sum(a.size for a in arrays) > 1 << 20:
        return None
    try:
        result = kernel.fn(np, *arrays, **attrs)
    except Exception:  # noqa: BLE001 - a shape we cannot infer statically is simply unknown
        return None
    result = result[0] if isinstance(result, (tuple, list)) else result
    if any(None in s for s in shapes):
        return tuple(None for _ in np.shape(result))
    return tuple(np.shape(result))
