"""Values a graph knows while it is built (TensorFlow's `constant_value`): a constant, the shape, size or rank
of a tensor whose static shape is fully known, and small pure ops of such values (slicing, packing, casts,
arithmetic), evaluated with their CPU kernels. So `tf.random.uniform(tf.shape(x))` or
`tf.zeros([tf.shape(x)[0], 4])` inside `function` take the traced shape, as in TensorFlow."""

from __future__ import annotations

import numpy as np

from ..ops.registry import find_kernel

MAX_ELEMENTS = 1 << 16
PURE = frozenset({"Identity", "StridedSlice", "Pack", "ConcatV2", "Cast", "Reshape", "ExpandDims", "Squeeze",
                  "AddV2", "Sub", "Mul", "FloorDiv", "FloorMod", "Maximum", "Minimum", "Neg", "Prod", "Sum",
                  "Range", "Fill", "Gather", "GatherV2"})


def static_value(tensor):
    """The NumPy value of graph tensor `tensor` if the graph being built knows it, else None."""
    return _value(tensor, 0)


def _value(tensor, depth: int):
    op = tensor.op
    if depth > 32 or op.control_inputs:
        return None
    if op.type == "Const" and not op.inputs:
        return np.asarray(op.attrs["value"])
    if op.type in ("Shape", "Size", "Rank"):
        return _of_static_shape(op)
    if op.type == "StridedSlice" and op.inputs[0].op.type == "Shape":
        return _slice_of_partial_shape(op)
    if op.type not in PURE or op.resource is not None:
        return None
    shape = tensor.shape
    if shape is None or None in shape or int(np.prod(shape, dtype=np.int64)) > MAX_ELEMENTS:
        return None
    inputs = [_value(t, depth + 1) for t in op.inputs]
    if any(v is None for v in inputs):
        return None
    kernel = find_kernel(op.type, "CPU", op.dtype)
    if kernel is None:
        return None
    attrs = {k: v for k, v in op.attrs.items() if not k.startswith("_")}
    try:
        out = kernel.fn(np, *inputs, **attrs)
    except Exception:  # noqa: BLE001 - unknown here: the op runs (and fails by name) when the graph runs
        return None
    return None if isinstance(out, tuple) else np.asarray(out)


def _slice_of_partial_shape(op):
    """tf.shape(x)[i:j] when x's static shape knows those dimensions (others may be unknown)."""
    shape_op = op.inputs[0].op
    shape = shape_op.inputs[0].shape
    if shape is None or shape_op.control_inputs:
        return None
    out_type = shape_op.attrs.get("out_type")
    dims = np.asarray([-1 if d is None else int(d) for d in shape], dtype=np.int64)  # -1: unknown (dims are >= 0)
    rest = [_value(t, 1) for t in op.inputs[1:]]
    kernel = find_kernel(op.type, "CPU", op.dtype)
    if kernel is None or any(v is None for v in rest):
        return None
    attrs = {k: v for k, v in op.attrs.items() if not k.startswith("_")}
    try:
        sliced = np.asarray(kernel.fn(np, dims, *rest, **attrs))
    except Exception:  # noqa: BLE001 - unknown here: the op runs (and fails by name) when the graph runs
        return None
    if (sliced < 0).any():
        return None
    return sliced.astype(out_type.numpy_dtype if out_type is not None else np.int32)


def _of_static_shape(op):
    shape = op.inputs[0].shape
    if shape is None or None in shape:
        return None
    dims = [int(d) for d in shape]
    out_type = op.attrs.get("out_type")
    numpy_type = out_type.numpy_dtype if out_type is not None else np.int32
    if op.type == "Shape":
        return np.asarray(dims, dtype=numpy_type)
    if op.type == "Size":
        return np.asarray(int(np.prod(dims, dtype=np.int64)), dtype=numpy_type)
    return np.asarray(len(dims), dtype=np.int32)
