"""The protocol-buffer wire format, by hand (placeflow has no protobuf dependency): fields are encoded as
varint keys followed by varints, fixed 32/64-bit values or length-delimited bytes; `fields()` decodes a
message into (field number, wire type, value) triples. Used by TensorBoard's event files (summary/records.py)
and tf.train.Example (api/example_proto.py)."""

from __future__ import annotations

import struct

from . import errors


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field_varint(number: int, value: int) -> bytes:
    """A varint field (int32, int64, enum, bool)."""
    return _varint(number << 3) + _varint(int(value))


def field_bytes(number: int, value) -> bytes:
    """A length-delimited field (string, bytes, submessage)."""
    data = value.encode("utf-8") if isinstance(value, str) else bytes(value)
    return _varint((number << 3) | 2) + _varint(len(data)) + data


def field_double(number: int, value: float) -> bytes:
    """A 64-bit float field."""
    return _varint((number << 3) | 1) + struct.pack("<d", float(value))


def field_packed_varints(number: int, values) -> bytes:
    """A packed repeated varint field (int64 lists)."""
    return field_bytes(number, b"".join(_varint(int(v)) for v in values))


def field_packed_floats(number: int, values) -> bytes:
    """A packed repeated float field (float lists)."""
    return field_bytes(number, struct.pack(f"<{len(values)}f", *[float(v) for v in values]))


def read_varint(data: bytes, at: int) -> tuple:
    """(value, next position) of the varint at `at`."""
    shift, value = 0, 0
    while True:
        if at >= len(data) or shift > 63:
            raise errors.DataLossError(None, None, "Could not parse a protocol buffer: truncated varint")
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at += 1
        if not byte & 0x80:
            return value, at
        shift += 7


def fields(data: bytes):
    """Each field of a serialized message: (number, wire type, value: int for varints and fixed values,
    bytes for length-delimited ones)."""
    at = 0
    while at < len(data):
        key, at = read_varint(data, at)
        number, wire_type = key >> 3, key & 7
        if wire_type == 0:
            value, at = read_varint(data, at)
        elif wire_type == 1:
            value, at = struct.unpack_from("<Q", data, at)[0], at + 8
        elif wire_type == 2:
            length, at = read_varint(data, at)
            if at + length > len(data):
                raise errors.DataLossError(None, None, "Could not parse a protocol buffer: truncated field")
            value, at = bytes(data[at:at + length]), at + length
        elif wire_type == 5:
            value, at = struct.unpack_from("<I", data, at)[0], at + 4
        else:
            raise errors.DataLossError(None, None, f"Could not parse a protocol buffer: wire type {wire_type}")
        yield number, wire_type, value


def signed64(value: int) -> int:
    """An int64 read as an unsigned varint, as the signed value it encodes."""
    return value - (1 << 64) if value >= 1 << 63 else value
