"""String ops (CPU only, as TensorFlow's): join, length, split of a scalar, as_string, upper/lower, to_number.

Strings are object arrays of bytes, as TensorFlow's; text is UTF-8."""

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from . import shape_rules as rules
from .registry import ALL, NOT_DIFFERENTIABLE, define

STRING = frozenset({d.string})


def _map(array, fn, dtype=object):
    out = np.empty(np.shape(array), dtype=dtype)
    flat = out.reshape(-1)
    for index, item in enumerate(np.asarray(array, dtype=object).reshape(-1)):
        flat[index] = fn(item)
    return out


def _text(item) -> str:
    return item.decode("utf-8") if isinstance(item, bytes) else str(item)


@define("StringJoin", STRING, gpu=(), shape=rules.broadcast, grad=NOT_DIFFERENTIABLE)
def _join(xp, *inputs, separator=b""):
    """Elementwise concatenation of the inputs (broadcast), separated by `separator`."""
    arrays = np.broadcast_arrays(*[np.asarray(a, dtype=object) for a in inputs])
    out = np.empty(arrays[0].shape, dtype=object)
    flat = out.reshape(-1)
    columns = [a.reshape(-1) for a in arrays]
    for index in range(flat.size):
        flat[index] = separator.join(column[index] for column in columns)
    return out


@define("StringLength", STRING, gpu=(), shape=rules.same, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: d.int32)
def _length(xp, a, unit="BYTE"):
    """Bytes (or UTF-8 characters) per string."""
    if unit == "UTF8_CHAR":
        return _map(a, lambda s: len(_text(s)), np.int32)
    return _map(a, len, np.int32)


@define("StringSplitScalar", STRING, gpu=(), shape=lambda shapes, attrs: (None,), grad=NOT_DIFFERENTIABLE)
def _split(xp, a, sep=None, maxsplit=-1):
    """The parts of one string (sep None: split on runs of whitespace, as Python and TF do)."""
    parts = a.item().split(sep, maxsplit) if sep is not None else a.item().split(None, maxsplit)
    out = np.empty(len(parts), dtype=object)
    out[:] = parts
    return out


@define("AsString", ALL - STRING, gpu=(), shape=rules.same, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: d.string)
def _as_string(xp, a, precision=-1, scientific=False, shortest=False, width=-1, fill=""):
    """Each number formatted as TensorFlow does (floats with 6 decimals unless precision says)."""
    if a.dtype.kind == "b":
        return _map(a, lambda v: b"true" if v else b"false")
    pad = f"{fill or ''}{'' if width < 0 else width}" if width >= 0 else ""
    if a.dtype.kind == "f":
        kind = "e" if scientific else ("g" if shortest else "f")
        spec = f"%{pad}{'' if precision < 0 else '.' + str(precision)}{kind}"
    elif a.dtype.kind == "c":
        raise InvalidArgumentError(None, None, "as_string of complex numbers is not implemented in placeflow")
    else:
        spec = f"%{pad}d"
    return _map(a, lambda v: (spec % v).encode())


def _case(fn):
    return lambda xp, a, encoding="": _map(a, lambda s: fn(_text(s)).encode("utf-8"))


define("StringUpper", STRING, gpu=(), shape=rules.same, grad=NOT_DIFFERENTIABLE)(_case(str.upper))
define("StringLower", STRING, gpu=(), shape=rules.same, grad=NOT_DIFFERENTIABLE)(_case(str.lower))


@define("StringToNumber", STRING, gpu=(), shape=rules.same, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: attrs.get("out_type", d.float32))
def _to_number(xp, a, out_type=d.float32):
    """Each string parsed as a number of `out_type`; a malformed one is InvalidArgumentError (TF's text)."""
    def parse(item):
        text = _text(item)
        try:
            return float(text) if out_type.is_floating else int(text)
        except ValueError:
            raise InvalidArgumentError(None, None, f"StringToNumberOp could not correctly convert string: "
                                                   f"{text}") from None
    return _map(a, parse, out_type.numpy_dtype)
