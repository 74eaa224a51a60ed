"""placeflow.strings: join, length, split, as_string, upper, lower, to_number (strings are bytes, as in TF)."""

from __future__ import annotations

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes, errors


def _strings(value):
    tensor = convert_to_tensor(value)
    if tensor.dtype != dtypes.string:  # TF: the op's type constraint, an InvalidArgumentError eagerly
        raise errors.InvalidArgumentError(None, None, f"Expected a string tensor, got dtype {tensor.dtype.name}: "
                                                      f"{tensor!r}\nplaceflow: convert numbers with "
                                                      f"placeflow.strings.as_string first.")
    return tensor


def _bytes(text) -> bytes:
    return text.encode("utf-8") if isinstance(text, str) else bytes(text)


def join(inputs, separator="", name=None):
    """The inputs joined elementwise (broadcast) with `separator`."""
    tensors = [_strings(t) for t in inputs]
    return execute("StringJoin", tuple(tensors), dtypes.string, {"separator": _bytes(separator)}, name=name)


def length(input, unit="BYTE", name=None):  # noqa: A002 - TensorFlow's parameter name
    """Bytes per string, or characters with unit='UTF8_CHAR'."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}")
    return execute("StringLength", (_strings(input),), dtypes.string, {"unit": unit}, name=name)


def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """The parts of a scalar string (a 1-D tensor); splitting a batch needs RaggedTensor, not implemented."""
    tensor = _strings(input)
    if len(tensor.shape) != 0:
        raise NotImplementedError("strings.split of a non-scalar tensor returns a RaggedTensor in TensorFlow; "
                                  "placeflow has no RaggedTensor: split each string (a scalar) separately.")
    return execute("StringSplitScalar", (tensor,), dtypes.string,
                   {"sep": None if sep is None else _bytes(sep), "maxsplit": int(maxsplit)}, name=name)


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):  # noqa: A002
    """Each number as a string, formatted as TensorFlow formats it."""
    tensor = convert_to_tensor(input)
    return execute("AsString", (tensor,), tensor.dtype, {"precision": int(precision), "scientific": bool(scientific),
                                                         "shortest": bool(shortest), "width": int(width),
                                                         "fill": fill}, name=name)


def upper(input, encoding="", name=None):  # noqa: A002
    """Each string in upper case."""
    return execute("StringUpper", (_strings(input),), dtypes.string, name=name)


def lower(input, encoding="", name=None):  # noqa: A002
    """Each string in lower case."""
    return execute("StringLower", (_strings(input),), dtypes.string, name=name)


def to_number(string_tensor, out_type=dtypes.float32, name=None):
    """Each string parsed as a number."""
    out_type = dtypes.as_dtype(out_type)
    return execute("StringToNumber", (_strings(string_tensor),), dtypes.string, {"out_type": out_type}, name=name)
