"""TensorFlow's error classes for bad op arguments depend on the mode: ops that run eagerly fail in their kernel
(InvalidArgumentError), while a graph is being built (inside `function`) TensorFlow's op constructor checks input
types and type attributes (TypeError) and its shape inference and attribute checks reject what they can
(ValueError). These build the right one for the current mode, with TensorFlow's text for each."""

from __future__ import annotations

from . import errors, graph_mode


def building() -> bool:
    """Whether ops are being recorded into a graph on this thread (inside `function`, a TF1 graph)."""
    return graph_mode.active() is not None


def invalid(graph_text: str, eager_text: str | None = None, graph_class=ValueError) -> Exception:
    """`graph_class(graph_text)` (ValueError: TF's shape inference or attribute check) while a graph is built,
    else InvalidArgumentError(eager_text, default graph_text): the kernel's error."""
    if building():
        return graph_class(graph_text)
    return errors.InvalidArgumentError(None, None, graph_text if eager_text is None else eager_text)


def dtype_not_allowed(parameter: str, dtype, allowed, eager_text: str) -> Exception:
    """A type attribute outside the op's list: TypeError "Value passed to parameter '<parameter>' has DataType
    <dtype> not in list of allowed values: <allowed>" while a graph is built, else InvalidArgumentError(eager_text).
    `allowed`: the dtypes (or their names) in the op definition's order."""
    names = ", ".join(getattr(d, "name", str(d)) for d in allowed)
    return invalid(f"Value passed to parameter '{parameter}' has DataType {getattr(dtype, 'name', dtype)} not in "
                   f"list of allowed values: {names}", eager_text, TypeError)


def string_not_allowed(op: str, attr: str, value, allowed, eager_text: str) -> Exception:
    """A string attribute outside the op's list: ValueError "Attr '<attr>' of '<op>' Op passed string '<value>' not
    in: "A", "B"." while a graph is built, else InvalidArgumentError(eager_text)."""
    names = ", ".join(f'"{a}"' for a in allowed)
    return invalid(f"Attr '{attr}' of '{op}' Op passed string '{value}' not in: {names}.", eager_text)


def input_type_mismatch(op: str, parameter: str, dtype, expected, eager_text: str, of_argument: str | None = None):
    """An input whose dtype is not the one the op takes there: TypeError "Input '<parameter>' of '<op>' Op has type
    <dtype> that does not match expected type of <expected>" (or "... does not match type <expected> of argument
    '<of_argument>'" when it must equal another input's) while a graph is built, else InvalidArgumentError."""
    name, want = getattr(dtype, "name", dtype), getattr(expected, "name", expected)
    tail = f"type {want} of argument '{of_argument}'." if of_argument else f"expected type of {want}."
    return invalid(f"Input '{parameter}' of '{op}' Op has type {name} that does not match {tail}", eager_text,
                   TypeError)


def shape_inference(message: str, node: str, inputs_text: str, eager_text: str | None = None) -> Exception:
    """A static shape the op's shape function rejects: ValueError "<message> for '{{node <node>}} = ...' with input
    shapes: <inputs_text>." while a graph is built, else InvalidArgumentError(eager_text, default message)."""
    return invalid(f"{message} for '{{{{node {node}}}}}' with input shapes: {inputs_text}.",
                   message if eager_text is None else eager_text)


def shapes_text(*tensors) -> str:
    """TF's text of input shapes: [2,3], [] and ? for unknown dimensions."""
    def one(t):
        shape = getattr(t, "shape", None)
        if shape is None or getattr(shape, "rank", 0) is None:
            return "<unknown>"
        return "[" + ",".join("?" if d is None else str(int(d)) for d in shape) + "]"
    return ", ".join(one(t) for t in tensors)
