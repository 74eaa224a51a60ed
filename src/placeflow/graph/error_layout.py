"""Where each graph op was made, and TensorFlow's layout of an error a node raised while a graph ran.

TensorFlow 2.21 reports a failing node of a Session step or a `function` call as
`Graph execution error:`, then `Detected at node <name> defined at (most recent call last):` and the
frames that made the node (its own frames left out), then the kernel's message. A Session's error keeps
the op (its `str` ends with the op's creation stack); a function call's names the function (`[Op:...]`).
"""

from __future__ import annotations

import os
import sys
import threading
import types
import weakref

from ..framework.errors import format_frames

HEADER = "Graph execution error:\n\n"
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


_filtering = {"on": True}  # tf.debugging.enable/disable_traceback_filtering: leave placeflow's frames out


def enable_traceback_filtering() -> None:
    """Leave placeflow's own frames out of the frames graph errors list (the default)."""
    _filtering["on"] = True


def disable_traceback_filtering() -> None:
    """List placeflow's own frames too in graph errors (for debugging placeflow itself)."""
    _filtering["on"] = False


def is_traceback_filtering_enabled() -> bool:
    """Whether graph errors leave placeflow's own frames out."""
    return _filtering["on"]


_display_names: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # code -> the name its frames show
_display_names_lock = threading.Lock()


def user_frames() -> tuple:
    """The calling frames outside placeflow, outermost first, as a flat (code, instruction, code, ...) tuple:
    cheap to take for every op; `resolved` turns it into (file, line, function) when an error is laid out."""
    taken = []
    append, package = taken.append, (_PACKAGE if _filtering["on"] else "\0")
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if not code.co_filename.startswith(package):
            append(frame.f_lasti)
            append(code)
        frame = frame.f_back
    taken.reverse()
    return tuple(taken)


def resolved(frames) -> tuple:
    """(file, line, function) for each frame `user_frames` took."""
    return tuple((code.co_filename, _line_of(code, lasti), _display_names.get(code, code.co_name))
                 for code, lasti in zip(frames[::2], frames[1::2]))


def _line_of(code, lasti: int):
    for start, end, line in code.co_lines():
        if start <= lasti < end:
            return line
    return code.co_firstlineno


def name_nested_code(fn) -> None:
    """Frames of the lambdas and AutoGraph helpers inside traced `fn` show the enclosing function's name,
    as TensorFlow's (which converts the whole function and maps its frames back to it)."""
    code = getattr(fn, "__code__", None) or getattr(getattr(fn, "__func__", None), "__code__", None)
    if isinstance(code, types.CodeType):
        with _display_names_lock:
            _name_inner(code, code.co_name)


def _name_inner(code, name: str) -> None:
    for inner in code.co_consts:
        if isinstance(inner, types.CodeType):
            anonymous = inner.co_name == "<lambda>" or inner.co_name.startswith("__ag_")
            if anonymous:
                _display_names[inner] = name
            _name_inner(inner, name if anonymous else inner.co_name)


def _failing_op(error):
    op = getattr(error, "op", None)
    return op if op is not None and hasattr(op, "_frames") else None


def in_session_layout(error: BaseException) -> BaseException:
    """A node's error from a Session step, laid out as TensorFlow's (others are returned unchanged)."""
    op = _failing_op(error)
    if op is None or error.message.startswith(HEADER):
        return error
    name = _node_name(error)
    message = (f"{HEADER}Detected at node '{name}' defined at (most recent call last):\n"
               f"{format_frames(resolved(op._frames), '    ')}Node: '{name}'\n{error.message}")
    return _same_class(error, op, message)


def in_function_layout(error: BaseException, function_name: str) -> BaseException:
    """A node's error from a `function` call, laid out as TensorFlow's (others are returned unchanged)."""
    op = _failing_op(error)
    if op is None or error.message.startswith(HEADER) or error.message.startswith("{{function_node "):
        return error
    if "<lambda>" in function_name:  # TF finds no source frames for a lambda: it names the function instead
        return _same_class(error, None, f"{{{{function_node {function_name}}}}} {error.message} [Op:{function_name}]")
    message = (f"{HEADER}Detected at node {_node_name(error)} defined at (most recent call last):\n"
               f"{format_frames(resolved(op._frames), '  ', gap=chr(10))}{error.message} [Op:{function_name}]")
    return _same_class(error, None, message)


def _node_name(error) -> str:
    """The failing node as the message names it (a body's node carries its cond/while op's name)."""
    framed = error.message.rsplit("{{node ", 1)
    return framed[1].split("}}", 1)[0] if len(framed) == 2 else error.op.name


def _same_class(error, op, message):
    wrapped = type(error)(getattr(error, "node_def", None), op, message)
    wrapped.__dict__.update({k: v for k, v in error.__dict__.items() if k not in wrapped.__dict__})
    return wrapped.with_traceback(error.__traceback__)
