"""The Event protocol messages TensorBoard reads, written by hand (no protobuf package), framed as TFRecords
(framework/record_framing.py). The messages are encoded field by field (varint keys, length-delimited
submessages), as protobuf does."""

from __future__ import annotations

import struct

import numpy as np

from ..framework.record_framing import crc32c, masked_crc, record  # noqa: F401 - also used here


from ..framework.protobuf_wire import _varint, field_bytes, field_double, field_varint  # noqa: E402,F401


# -- the messages ---------------------------------------------------------------------------------------------------

_DTYPES = {np.dtype(np.float32): 1, np.dtype(np.float64): 2, np.dtype(np.int32): 3, np.dtype(np.uint8): 4,
           np.dtype(np.int16): 5, np.dtype(np.int8): 6, np.dtype(np.int64): 9, np.dtype(np.bool_): 10,
           np.dtype(np.float16): 19}
DT_STRING = 7


def tensor_proto(value) -> bytes:
    """A TensorProto of a NumPy array (numbers, bools, or bytes/str for DT_STRING)."""
    array = np.asarray(value)
    shape = b"".join(field_bytes(2, field_varint(1, dim)) for dim in array.shape)
    if array.dtype.kind in "USO":
        strings = [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in array.reshape(-1).tolist()]
        return field_varint(1, DT_STRING) + field_bytes(2, shape) + b"".join(field_bytes(8, s) for s in strings)
    if array.dtype not in _DTYPES:
        raise TypeError(f"tf.summary cannot write a tensor of dtype {array.dtype}")
    content = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False).tobytes()
    return field_varint(1, _DTYPES[array.dtype]) + field_bytes(2, shape) + field_bytes(4, content)


def summary_metadata(plugin_name: str, content: bytes = b"", description: str = "", data_class: int = 0) -> bytes:
    """A SummaryMetadata: which TensorBoard plugin reads the value (data_class 1 scalar, 2 tensor, 3 blobs)."""
    out = field_bytes(1, field_bytes(1, plugin_name) + (field_bytes(2, content) if content else b""))
    if description:
        out += field_bytes(3, description)
    if data_class:
        out += field_varint(4, data_class)
    return out


def event(wall_time: float, step: int, *, file_version: str | None = None, tag: str | None = None,
          tensor: bytes = b"", metadata: bytes = b"") -> bytes:
    """An Event: the file's version line, or one summary value (tag, metadata, tensor) at `step`."""
    out = field_double(1, wall_time) + field_varint(2, step)
    if file_version is not None:
        return out + field_bytes(3, file_version)
    value = field_bytes(1, tag) + field_bytes(9, metadata) + field_bytes(8, tensor)
    return out + field_bytes(5, field_bytes(1, value))
