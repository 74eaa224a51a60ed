"""File ops on the host: ReadFile (a file's bytes as a string scalar) and WriteFile (a side effect, run in
program order inside `function`, as prints are); SerializeTensor and ParseTensor (TensorProto bytes)."""

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError, NotFoundError, PermissionDeniedError
from . import shape_rules as rules
from .registry import ANY, NOT_DIFFERENTIABLE, bool_output, define

STRING = frozenset({d.string})


def _path(value) -> str:
    item = value.item() if hasattr(value, "item") else value
    return item.decode("utf-8") if isinstance(item, bytes) else str(item)


@define("ReadFile", STRING, gpu=(), shape=rules.scalar, grad=NOT_DIFFERENTIABLE)
def _read_file(xp, filename):
    """The bytes of the file `filename` names."""
    path = _path(filename)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise NotFoundError(None, None, f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise PermissionDeniedError(None, None, f"{path}; Is a directory") from None
    except PermissionError:
        raise PermissionDeniedError(None, None, f"{path}; Permission denied") from None
    out = np.empty((), dtype=object)
    out[()] = data
    return out


@define("WriteFile", STRING, gpu=(), shape=rules.scalar, grad=NOT_DIFFERENTIABLE, dtype=bool_output)
def _write_file(xp, filename, contents):
    """Write `contents` to `filename` (its directory is created, as TensorFlow does)."""
    import os
    path = _path(filename)
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    item = contents.item() if hasattr(contents, "item") else contents
    with open(path, "wb") as handle:
        handle.write(item if isinstance(item, bytes) else str(item).encode("utf-8"))
    return np.asarray(True)


def _parse_dtype(dtype, attrs):
    return attrs["out_type"]


@define("SerializeTensor", ANY, gpu=(), shape=rules.scalar, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: d.string)
def _serialize_tensor(xp, tensor, T=None):  # noqa: N803 - TensorFlow's attribute name
    """The TensorProto of `tensor` as a string scalar (TF's bytes: dtype, shape, raw little-endian content)."""
    from ..framework import tensor_proto
    out = np.empty((), dtype=object)
    out[()] = tensor_proto.encode(np.asarray(tensor), T)
    return out


@define("ParseTensor", STRING, gpu=(), shape=lambda shapes, attrs: None, grad=NOT_DIFFERENTIABLE, dtype=_parse_dtype)
def _parse_tensor(xp, serialized, out_type=None):
    """The tensor a serialized TensorProto holds; InvalidArgumentError when its dtype is not `out_type`."""
    from ..framework import tensor_proto
    item = np.asarray(serialized)
    if item.ndim != 0:
        raise InvalidArgumentError(None, None, f"Expected `serialized` to be a scalar, got shape: {list(item.shape)}")
    value, dtype = tensor_proto.decode(item.item())
    if dtype != out_type:
        raise InvalidArgumentError(None, None, f"Type mismatch between parsed tensor ({d.cpp_name(dtype)}) and dtype "
                                               f"({d.cpp_name(out_type)})")
    return value
