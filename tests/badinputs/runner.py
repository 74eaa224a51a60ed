"""Run one bad-input call and describe its outcome: the error class and first line, or that it returned."""

import re

import numpy as np

from . import calls


def namespace(tf) -> dict:
    """The names every call may use: tf, np and what calls.SETUP defines."""
    names = {"tf": tf, "np": np}
    exec(calls.SETUP, names)  # noqa: S102 - our own fixed setup text
    return names


def raised(source: str, names: dict):
    """The exception the call raises, or None when it returns."""
    try:
        eval(source, dict(names))  # noqa: S307 - the rows of calls.py
    except Exception as error:  # noqa: BLE001 - the error is the result
        return error
    return None


def first_line(message: str) -> str:
    """A message's first line without what only TF's runtime adds or what names a node: TF's
    '{{function_node ...}} ' prefix and the ' [Op:...] name: ...' suffix."""
    line = message.strip().splitlines()[0] if message.strip() else ""
    line = re.sub(r"^\{\{function_node [^}]*\}\} ", "", line)
    return re.sub(r"\s*\[Op:[^\]]*\].*$", "", line).strip()


def outcome(source: str, names: dict) -> dict:
    """{'raises': class name, 'message': first line} or {'returns': what it returned, described}."""
    try:
        value = eval(source, dict(names))  # noqa: S307 - the rows of calls.py
    except Exception as error:  # noqa: BLE001 - the class is the recorded outcome
        lines = str(error).strip().splitlines()
        return {"raises": type(error).__name__, "message": lines[0][:300] if lines else ""}
    return {"returns": describe(value)}


def describe(value):
    """A JSON-able description of a returned value: tensors as dtype and nested values, else the type's name."""
    if isinstance(value, (list, tuple)):
        return [describe(item) for item in value]
    if hasattr(value, "numpy") and hasattr(value, "dtype"):
        array = np.asarray(value.numpy())
        return {"dtype": np.dtype(array.dtype).name, "value": _text(array.tolist())}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return type(value).__name__


def _text(value):
    if isinstance(value, list):
        return [_text(item) for item in value]
    return value.decode("latin-1") if isinstance(value, bytes) else value
