"""Recording ops into a graph: what the eager dispatcher calls while a graph is the default."""

from __future__ import annotations

import numpy as np

from ..eager.tensor import EagerTensor
from ..framework import dtypes
from ..ops import shape_rules
from ..ops.registry import op_def
from .graph import Tensor


def build(graph, op, inputs, dtype, attrs, resource, name):
    """Add `op` to `graph`; return its symbolic output (a list for multi-output ops)."""
    if op == "_EagerConst":
        return constant(graph, inputs[0], dtype, "Const" if name is None else name)
    tensors = [as_graph_tensor(graph, value, dtype) for value in inputs]
    definition = op_def(op)
    if dtype is not None and definition.allowed and dtype not in definition.allowed:
        allowed = ", ".join(sorted(t.name for t in definition.allowed))
        raise TypeError(f"Value passed to {op} has DataType {dtype.name} not in list of allowed values: {allowed}\n"
                        f"placeflow: cast the input to one of the allowed types.")
    try:
        outputs, several = shape_rules.infer(definition, [t.shape for t in tensors], attrs, dtype)
    except shape_rules.Incompatible as exc:
        raise ValueError(_shape_error(exc, op, name, dtype, tensors)) from None
    created = graph.create_op(op, tensors, attrs, dtype, name, outputs).outputs
    return created if several else created[0]


def _shape_error(exc, op, name, dtype, tensors) -> str:
    """TensorFlow's text for inputs whose static shapes the op cannot take (raised while the graph is built)."""
    shapes = ", ".join("<unknown>" if t.shape is None else shape_rules.shape_text(t.shape) for t in tensors)
    inputs = ", ".join(t.op.name for t in tensors)
    attr = f"[T={dtypes.enum_name(dtype)}]" if dtype is not None else ""
    return f"{exc} for '{{{{node {name or op}}}}} = {op}{attr}({inputs})' with input shapes: {shapes}."


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
    protocol = getattr(type(value), "__tf_tensor__", None)
    if protocol is not None:  # TensorFlow's conversion protocol (Keras variables): read while the graph runs
        return as_graph_tensor(graph, protocol(value, dtype, None), dtype)
    array = np.asarray(value)
    if dtype is not None and array.dtype != dtype.numpy_dtype and array.dtype != object:
        array = array.astype(dtype.numpy_dtype)
    return constant(graph, array, dtypes.as_dtype(array.dtype))

