"""A kernel's failure as the TensorFlow error class TF raises for it, the same in eager and graph mode.

NumPy and CuPy report bad shapes, axes, indices and values as ValueError, IndexError, AxisError,
TypeError or ZeroDivisionError; TensorFlow reports them as InvalidArgumentError. Running out of
memory is ResourceExhaustedError. Eager errors end their first line with TF's ` [Op:<op>] name: <name>`;
graph errors add TF's `[[{{node <name>}}]]` line. Interrupts (KeyboardInterrupt, SystemExit) pass
through unchanged.
"""

from __future__ import annotations

import traceback

from ..framework import errors
from ..memory.oom import DeviceOutOfMemory, log_exhausted

INVALID_ARGUMENT = (ValueError, IndexError, TypeError, ZeroDivisionError, OverflowError, FloatingPointError,
                    KeyError)


def as_op_error(exc: BaseException, op: str, name: str | None, device) -> BaseException:
    """The error to raise for `exc`, raised by eager op `op` (named `name`) on `device`."""
    if not isinstance(exc, Exception):
        return exc
    if isinstance(exc, DeviceOutOfMemory):
        log_exhausted(exc, op)
        return exc.for_op(op, name)
    if isinstance(exc, errors.OpError):
        if "[Op:" in exc.message or "{{node " in exc.message or getattr(exc, "complete", False):
            return exc
        return _with_first_line_suffix(type(exc), exc.message, f" [Op:{op}] name: {name or ''}")
    cls, text = classify(exc, device)
    return cls(None, None, f"{text} [Op:{op}] name: {name or ''}")


def for_node(exc: BaseException, node) -> BaseException:
    """The error to raise for `exc`, raised by plan node `node` (TensorFlow's `[[{{node x}}]]` framing)."""
    if not isinstance(exc, Exception):
        return exc
    frame = f"\n\t [[{{{{node {node.name}}}}}]]"
    if isinstance(exc, DeviceOutOfMemory):
        log_exhausted(exc, node.type)
        return exc.for_node(node.name, node.op)
    if isinstance(exc, errors.OpError):
        if "{{node " in exc.message:
            return _inside(exc, node) if node.type in BODY_OPS else exc
        first, _, rest = exc.message.partition("\n")
        first = first.split(" [Op:", 1)[0]
        return type(exc)(None, node.op, first + frame + ("\n" + rest if rest else ""))
    cls, text = classify(exc, node.device)
    return cls(None, node.op, text + frame)


BODY_OPS = ("If", "While")  # their bodies' nodes are named inside them, as TF names them once it inlines bodies


def _inside(exc, node):
    """A body node's error named as TensorFlow names the node: `<cond or while op>/<node>`."""
    renamed = type(exc)(exc.node_def, exc.op, exc.message.replace("{{node ", f"{{{{node {node.name}/"))
    renamed.__dict__.update({k: v for k, v in exc.__dict__.items() if k not in renamed.__dict__})
    return renamed.with_traceback(exc.__traceback__)


def drop_refused_buffers(exc: BaseException) -> None:
    """An out-of-memory error must not keep the buffers of the step that ran out alive: a caller that keeps
    the error (its traceback) would pin them, on the device too. Clears the locals of every finished frame
    of `exc` and of the errors chained to it (the frames stay listed; executing frames are left alone)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        traceback.clear_frames(exc.__traceback__)
        exc = exc.__cause__ or exc.__context__


def classify(exc: Exception, device) -> tuple:
    """(TF error class, message) for a raw Python or NumPy exception raised by a kernel."""
    if isinstance(exc, MemoryError):
        where = getattr(device, "name", "the device")
        allocator = device.memory.name if device is not None else "cpu"
        return errors.ResourceExhaustedError, f"OOM when allocating tensor on {where} by allocator {allocator}: {exc}"
    if isinstance(exc, INVALID_ARGUMENT):
        return errors.InvalidArgumentError, f"{type(exc).__name__}: {exc}"
    return errors.UnknownError, f"{type(exc).__name__}: {exc}"


def _with_first_line_suffix(cls, message: str, suffix: str):
    first, newline, rest = message.partition("\n")
    return cls(None, None, first + suffix + newline + rest)
