"""Debugging ops: CheckNumerics, the comparison assertions, and PrintV2 (tf.print).

Assertions and prints are side effects: inside `function` they run even though nothing consumes them,
in the order the program made them (graph/function keeps such ops, chained; see `SIDE_EFFECT_OPS`).
"""

import sys

import numpy as np

from ..framework.errors import InvalidArgumentError
from . import shape_rules as rules
from ..framework import dtypes as d
from .registry import ALL, FLOATS, NOT_DIFFERENTIABLE, bool_output, define

SIDE_EFFECT_OPS = frozenset({"_AssertCompare", "PrintV2", "Assert", "WriteFile", "ReadFile",  # file reads too:
                             "EagerPyFunc", "PyFunc"})  # a read after a write in a function sees it, and Python
# functions (tf.py_function, stateful tf.numpy_function) run in program order, as TF orders stateful ops


@define("CheckNumerics", FLOATS, shape=rules.same, grad=lambda e, g: [g])
def _check_numerics(xp, a, message=""):
    """`a` itself, or InvalidArgumentError when it holds NaN or Inf (as TensorFlow's text)."""
    if bool(xp.isnan(a).any()):
        raise InvalidArgumentError(None, None, f"{message} : Tensor had NaN values")
    if bool(xp.isinf(a).any()):
        raise InvalidArgumentError(None, None, f"{message} : Tensor had Inf values")
    return a


_RELATIONS = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
              ">=": np.greater_equal}


def _summary(values, summarize: int) -> str:
    flat = np.asarray(values).reshape(-1)[:summarize]
    return np.array2string(flat, separator=" ").replace("\n", "")


@define("_AssertCompare", ALL, shape=rules.scalar, grad=NOT_DIFFERENTIABLE, dtype=bool_output)
def _assert_compare(xp, x, y, relation="==", message="", summarize=3):
    """True, or InvalidArgumentError in TensorFlow's format when `x relation y` fails somewhere."""
    x_host, y_host = (a.get() if hasattr(a, "get") else np.asarray(a) for a in (x, y))
    holds = _RELATIONS[relation](x_host, y_host)
    if bool(np.all(holds)):
        return xp.asarray(True)
    bad = np.argwhere(~np.broadcast_to(holds, np.broadcast_shapes(x_host.shape, y_host.shape)))
    lead = f"{message}\n" if message else ""
    text = (f"{lead}Condition x {relation} y did not hold.\nIndices of first {min(len(bad), summarize)} different "
            f"values:\n{np.array2string(bad[:summarize])}\nCorresponding x values:\n"
            f"{_summary(np.broadcast_to(x_host, holds.shape)[tuple(bad[:summarize].T)], summarize)}\n"
            f"Corresponding y values:\n"
            f"{_summary(np.broadcast_to(y_host, holds.shape)[tuple(bad[:summarize].T)], summarize)}\n"
            f"First {min(x_host.size, summarize)} elements of x:\n{_summary(x_host, summarize)}\n"
            f"First {min(y_host.size, summarize)} elements of y:\n{_summary(y_host, summarize)}")
    error = InvalidArgumentError(None, None, text)
    error.complete = True  # eagerly TF raises this text as is (no ' [Op:...]' suffix)
    raise error


@define("Assert", ALL | {d.string}, gpu=(), shape=rules.scalar, grad=NOT_DIFFERENTIABLE, dtype=bool_output)
def _assert(xp, condition, *data, summarize=3):
    """True, or InvalidArgumentError 'assertion failed: [data0] [data1] ...' when `condition` is false."""
    if bool(np.asarray(condition.get() if hasattr(condition, "get") else condition)):
        return xp.asarray(True)
    parts = " ".join(f"[{_assert_item(value, summarize)}]" for value in data)
    raise InvalidArgumentError(None, None, f"assertion failed: {parts}")


def _assert_item(value, summarize):
    from .strings import summarize_v1
    return summarize_v1(value.get() if hasattr(value, "get") else np.asarray(value), summarize)


def format_for_print(value, summarize: int = 3) -> str:
    """A value as tf.print writes it: TensorFlow's tensor summary (strings.summarize: its float digits, bools
    as 1/0, quoted strings in arrays, each dimension cut to `summarize` entries per end), a scalar string bare."""
    from .strings import summarize as summary
    array = value.get() if hasattr(value, "get") else np.asarray(value)
    if array.ndim == 0 and array.dtype == object:
        item = array[()]
        return item.decode("utf-8", "replace") if isinstance(item, bytes) else str(item)
    return summary(array, -1 if summarize is None else int(summarize))


@define("PrintV2", ALL | {d.string}, gpu=(), shape=rules.scalar, grad=NOT_DIFFERENTIABLE, dtype=bool_output)
def _print(xp, *inputs, parts=(), sep=" ", end="\n", summarize=3, stream="stderr"):
    """Write the Python values of `parts` and the tensor `inputs` (in their places) to the stream."""
    values = iter(inputs)
    text = sep.join(format_for_print(next(values), summarize) if part is None else str(part) for part in parts)
    out = sys.stderr if stream == "stderr" else sys.stdout
    out.write(text + end)
    out.flush()
    return xp.asarray(True)


@define("Timestamp", frozenset({d.float64}), gpu=(), shape=rules.scalar, grad=NOT_DIFFERENTIABLE)
def _timestamp(xp):
    """Seconds since the epoch when the op runs (float64)."""
    import time
    return np.asarray(time.time(), dtype=np.float64)
