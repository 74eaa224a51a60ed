"""Recording ops into a graph: what the eager dispatcher calls while a graph is the default."""

from __future__ import annotations

import numpy as np

from ..eager.tensor import EagerTensor
from ..framework import dtypes, graph_mode
from . import shapes
from .graph import Tensor


def build(graph, op, inputs, dtype, attrs, resource, name):
    """Add `op` to `graph`; return its symbolic output (a list for multi-output ops)."""
    if op == "_EagerConst":
        return constant(graph, inputs[0], dtype, name or "Const")
    tensors = [as_graph_tensor(graph, value, dtype) for value in inputs]
    out_dtype = shapes.output_dtype(op, dtype, attrs)
    if op == "Split":
        outputs = _split_outputs(tensors[0], attrs, out_dtype)
        return graph.create_op(op, tensors, attrs, dtype, name, outputs).outputs
    if op in shapes.MULTI_OUTPUT:
        outputs = shapes.MULTI_OUTPUT[op]([t.shape for t in tensors], out_dtype)
        return graph.create_op(op, tensors, attrs, dtype, name, outputs).outputs
    shape = shapes.output_shape(op, [t.shape for t in tensors], attrs, dtype)
    return graph.create_op(op, tensors, attrs, dtype, name, [(out_dtype, shape)]).outputs[0]


def constant(graph, value, dtype, name="Const", device=None):
    """A Const node holding `value` (a host array, or a device array captured from an eager tensor)."""
    dtype = dtype if dtype is not None else dtypes.as_dtype(value.dtype)
    op = graph.create_op("Const", [], {"value": value, "dtype": dtype}, dtype, name, [(dtype, tuple(value.shape))])
    if device is not None:
        op.attrs["_pinned_device"] = device.name
        op.attrs["_value_device"] = device
    return op.outputs[0]


def as_graph_tensor(graph, value, dtype=None) -> Tensor:
    """`value` as a tensor of `graph`: graph tensors as they are, eager tensors and arrays as constants."""
    if isinstance(value, Tensor):
        return value
    if value.__class__ is EagerTensor:  # captured by a traced function: its value never changes
        return constant(graph, value._value, value.dtype, "Const", device=value._device)
    array = np.asarray(value)
    if dtype is not None and array.dtype != dtype.numpy_dtype and array.dtype != object:
        array = array.astype(dtype.numpy_dtype)
    return constant(graph, array, dtypes.as_dtype(array.dtype))


def shape_is_unusable(shape, axis) -> bool:
    """Whether a static shape cannot say anything along `axis` (unknown, or the axis is out of range)."""
    return shape is None or not -len(shape) <= axis < len(shape)


def _split_outputs(tensor, attrs, dtype) -> list:
    sections, axis = attrs["num_or_sections"], attrs["axis"]
    if shape_is_unusable(tensor.shape, axis):
        count = sections if isinstance(sections, int) else len(sections) + 1
        return [(dtype, None)] * count
    shape = tensor.shape
    if isinstance(sections, int):
        size = None if shape is None or shape[axis] is None else shape[axis] // sections
        sizes = [size] * sections
    else:
        bounds = [0, *sections, None if shape is None else shape[axis]]
        sizes = [None if b is None else b - a for a, b in zip(bounds, bounds[1:])]
    if shape is None:
        return [(dtype, None) for _ in sizes]
    outputs = []
    for size in sizes:
        dims = list(shape)
        dims[axis] = size
        outputs.append((dtype, tuple(dims)))
    return outputs


def install() -> None:
    """Make the eager dispatcher record ops into the active graph."""
    graph_mode.build = build
