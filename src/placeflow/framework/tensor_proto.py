"""TensorFlow's TensorProto message, encoded and decoded by hand: dtype, shape, and the values as raw
little-endian `tensor_content` (strings as repeated `string_val`), as TF's SerializeTensor writes them; a
decoded proto may also hold its values in the typed repeated fields (float_val, int_val, ...)."""

from __future__ import annotations

import struct

import numpy as np

from . import dtypes, errors
from .protobuf_wire import field_bytes, field_varint, fields, read_varint, signed64


def _shape(shape) -> bytes:
    return b"".join(field_bytes(2, field_varint(1, dim) if dim else b"") for dim in shape)


def encode(array: np.ndarray, dtype) -> bytes:
    """The serialized TensorProto of `array` with placeflow dtype `dtype`."""
    dtype = dtypes.as_dtype(dtype)
    out = field_varint(1, dtypes.datatype_enum(dtype)) + field_bytes(2, _shape(array.shape))
    if dtype == dtypes.string:
        items = [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in np.asarray(array).reshape(-1).tolist()]
        return out + b"".join(field_bytes(8, item) for item in items)
    content = np.ascontiguousarray(array, dtype=dtype.numpy_dtype).reshape(-1).view(np.uint8).tobytes()
    return out + (field_bytes(4, content) if content else b"")


_TYPED_FIELDS = {5: "f", 6: "d", 7: "varint", 10: "varint", 11: "varint", 13: "varint", 16: "varint", 17: "varint",
                 9: "f", 12: "d"}


def decode(data: bytes) -> tuple:
    """(NumPy array, placeflow dtype) of a serialized TensorProto."""
    dtype_enum, shape, content, strings, typed = 0, [], None, [], []
    try:
        for number, wire, value in fields(data):
            if number == 1:
                dtype_enum = value
            elif number == 2:
                shape = _read_shape(value)
            elif number == 4:
                content = value
            elif number == 8:
                strings.append(value)
            elif number in _TYPED_FIELDS:
                typed.extend(_typed_values(number, wire, value))
    except errors.DataLossError:
        import base64
        raise errors.InvalidArgumentError(None, None, "Could not parse `serialized` as TensorProto, base64: "
                                                      f"{base64.b64encode(data).decode()}") from None
    dtype = dtypes.from_datatype_enum(dtype_enum)
    count = int(np.prod(shape, dtype=np.int64))
    if dtype == dtypes.string:
        values = np.empty(len(strings), dtype=object)
        values[:] = strings
    elif content is not None:
        values = np.frombuffer(content, dtype=dtype.numpy_dtype)
    else:
        values = _from_typed(typed, dtype)
    if values.size != count:
        if values.size == 0 or values.size > count:
            raise errors.InvalidArgumentError(None, None, f"Could not parse `serialized` as TensorProto: it holds "
                                                          f"{values.size} values for shape {shape}")
        values = np.concatenate([values, np.repeat(values[-1:], count - values.size)])  # TF repeats the last
    return values.reshape(shape).copy(), dtype


def _read_shape(proto: bytes) -> list:
    shape = []
    for number, _, value in fields(proto):
        if number == 2:
            size = 0
            for dim_number, _, dim_value in fields(value):
                if dim_number == 1:
                    size = signed64(dim_value)
            shape.append(size)
    return shape


def _typed_values(number: int, wire: int, value) -> list:
    kind = _TYPED_FIELDS[number]
    if wire != 2:  # one unpacked value
        if kind == "f":
            return [struct.unpack("<f", struct.pack("<I", value))[0]]
        if kind == "d":
            return [struct.unpack("<d", struct.pack("<Q", value))[0]]
        return [signed64(value)]
    if kind == "f":
        return list(struct.unpack(f"<{len(value) // 4}f", value))
    if kind == "d":
        return list(struct.unpack(f"<{len(value) // 8}d", value))
    out, at = [], 0
    while at < len(value):
        item, at = read_varint(value, at)
        out.append(signed64(item))
    return out


def _from_typed(typed: list, dtype) -> np.ndarray:
    if dtype.is_complex:
        pairs = np.asarray(typed, dtype=np.float64).reshape(-1, 2)
        return (pairs[:, 0] + 1j * pairs[:, 1]).astype(dtype.numpy_dtype)
    if dtype == dtypes.float16 or dtype == dtypes.bfloat16:
        return np.asarray(typed, dtype=np.uint16).view(dtype.numpy_dtype)
    return np.asarray(typed).astype(dtype.numpy_dtype)

