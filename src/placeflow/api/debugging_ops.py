"""tf.debugging's assertions and check_numerics, and tf.print: ops, so they also run inside `function`."""

from __future__ import annotations

import sys

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..eager.tensor import EagerTensor
from ..graph.graph import Tensor as GraphTensor


def _assert(relation, x, y, message, summarize, name):
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    checked = execute("_AssertCompare", (x, y), x.dtype, {"relation": relation, "message": message or "",
                                                         "summarize": int(summarize or 3)}, name=name)
    return None if isinstance(checked, EagerTensor) else checked  # eagerly None, as TF; in a graph, the op


def assert_equal(x, y, message=None, summarize=None, name=None):
    """InvalidArgumentError unless x == y everywhere (broadcasting); in a function, when it runs."""
    return _assert("==", x, y, message, summarize, name)


def assert_none_equal(x, y, message=None, summarize=None, name=None):
    """InvalidArgumentError unless x != y everywhere."""
    return _assert("!=", x, y, message, summarize, name)


def assert_less(x, y, message=None, summarize=None, name=None):
    """InvalidArgumentError unless x < y everywhere."""
    return _assert("<", x, y, message, summarize, name)


def assert_less_equal(x, y, message=None, summarize=None, name=None):
    """InvalidArgumentError unless x <= y everywhere."""
    return _assert("<=", x, y, message, summarize, name)


def assert_greater(x, y, message=None, summarize=None, name=None):
    """InvalidArgumentError unless x > y everywhere."""
    return _assert(">", x, y, message, summarize, name)


def assert_greater_equal(x, y, message=None, summarize=None, name=None):
    """InvalidArgumentError unless x >= y everywhere."""
    return _assert(">=", x, y, message, summarize, name)


def assert_rank(x, rank, message=None, name=None):
    """ValueError unless `x` has rank `rank` (known statically, as TF checks it when possible)."""
    x = convert_to_tensor(x)
    if x.shape is not None and len(x.shape) != int(rank):
        named = "" if isinstance(x, EagerTensor) else x.name
        raise ValueError(f"{message + '.  ' if message else ''}Tensor {named} must have rank "
                         f"{int(rank)}.  Received rank {len(x.shape)}, shape {tuple(x.shape)}")


def check_numerics(tensor, message, name=None):
    """`tensor`, or InvalidArgumentError '<message> : Tensor had NaN values' (or Inf)."""
    x = convert_to_tensor(tensor)
    return execute("CheckNumerics", (x,), x.dtype, {"message": message}, name=name)


_IMPORT_TIME_STREAMS = {id(sys.stderr): "stderr", id(sys.stdout): "stdout", id(sys.__stderr__): "stderr",
                        id(sys.__stdout__): "stdout"}  # tf.print's default is the stderr of import time, as TF's


def _stream_name(output_stream) -> str:
    if output_stream is sys.stderr or output_stream is sys.stdout:
        return "stderr" if output_stream is sys.stderr else "stdout"
    known = _IMPORT_TIME_STREAMS.get(id(output_stream))
    if known is None:
        raise NotImplementedError("tf.print(output_stream=...) other than sys.stderr or sys.stdout is not "
                                  "implemented in placeflow.")
    return known


def print_(*inputs, output_stream=sys.stderr, sep=" ", end="\n", summarize=3, name=None):
    """tf.print: write the inputs (tensors by value) to stderr or stdout (the current ones, so a reassigned
    sys.stderr, e.g. by contextlib.redirect_stderr, receives it); inside `function`, when it runs."""
    stream = _stream_name(output_stream)
    tensors, parts = [], []
    for value in inputs:
        if isinstance(value, (EagerTensor, GraphTensor)) or hasattr(value, "_as_tensor"):
            tensors.append(convert_to_tensor(value))
            parts.append(None)
        else:
            parts.append(value)
    attrs = {"parts": tuple(parts), "sep": sep, "end": end, "summarize": summarize,
             "stream": stream}
    dtype = tensors[0].dtype if tensors else None
    return execute("PrintV2", tuple(tensors), dtype, attrs, name=name)



def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TensorFlow's name
    """InvalidArgumentError 'assertion failed: [data...]' when `condition` is false: eagerly at once, in a
    function when it runs (in program order, as prints)."""
    from ..eager.convert import convert_to_tensor
    from ..eager.execute import execute
    from ..framework import dtypes
    check = convert_to_tensor(condition)
    if check.dtype != dtypes.bool:
        raise TypeError(f"Value passed to parameter 'condition' has DataType {check.dtype.name} not in list of "
                        f"allowed values: bool")
    values = [convert_to_tensor(item) for item in data]
    from ..framework import graph_mode
    if graph_mode.active() is None:  # eagerly TF checks at once, with its own text
        if not bool(check.numpy()):
            from ..framework import errors
            summary = "\n".join(_summarize_eagerly(value, summarize) for value in values)
            error = errors.InvalidArgumentError(None, None, f"Expected '{check}' to be true. Summarized data: "
                                                            f"{summary}")
            error.complete = True  # no ' [Op:...]' suffix, as TF's
            raise error
        return None
    return graph_assert(check, values, summarize, name or "Assert")


def graph_assert(check, values, summarize, scope="Assert"):
    """The Assert node of a graph, named as TF names it: `<scope>/Assert` when every data item is a string or
    int32 (TF assumes those are on the host), else `<scope>/AssertGuard/Assert` (TF guards it with a cond).
    Returns the Operation, as TF does in a graph."""
    from ..framework import dtypes
    from ..graph.v1_api import name_scope
    attrs = {"summarize": 3 if summarize is None else int(summarize)}
    with name_scope(scope):
        if all(value.dtype in (dtypes.string, dtypes.int32) for value in values):
            return execute("Assert", (check, *values), check.dtype, attrs, name="Assert").op
        with name_scope("AssertGuard"):
            return execute("Assert", (check, *values), check.dtype, attrs, name="Assert").op


def _summarize_eagerly(value, summarize):
    """One data item as TF's eager Assert prints it: scalars as NumPy prints them, others' first elements."""
    import numpy as np
    scalar = value.numpy()
    array = np.asarray(scalar, dtype=object if isinstance(scalar, bytes) else None)
    if array.ndim == 0:
        return str(scalar) if summarize != 0 else ""
    flat = array.reshape(-1)
    items = [str(item) for item in (flat if summarize is None else flat[:summarize])]
    if len(items) < flat.size:
        items.append("...")
    return ", ".join(items)
