"""tf.make_tensor_proto and tf.make_ndarray, with a TensorProto message class (and TensorShapeProto) encoded in
TensorFlow's protocol-buffer wire format: `make_tensor_proto(x).SerializeToString()` gives TensorFlow's bytes.
Large numeric tensors keep their values as raw little-endian `tensor_content`; one value, fewer values than the
shape holds (the last repeats), strings, bools, uint16 and complex numbers use the typed repeated fields."""

from __future__ import annotations

import struct

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes, tensor_proto as wire_tensor
from ..framework.protobuf_wire import (field_bytes, field_packed_floats, field_packed_varints, field_varint, fields,
                                       read_varint, signed64)


class Dim:
    """One dimension of a TensorShapeProto: `size` (and an optional `name`)."""

    def __init__(self, size=0, name=""):
        self.size, self.name = int(size), str(name)

    def _encode(self) -> bytes:
        return (field_varint(1, self.size) if self.size else b"") + (field_bytes(2, self.name) if self.name else b"")

    def __eq__(self, other):
        return isinstance(other, Dim) and (self.size, self.name) == (other.size, other.name)

    def __repr__(self):
        return f"Dim(size={self.size})"


class TensorShapeProto:
    """A shape: `dim` (a list of Dim) and `unknown_rank`."""

    Dim = Dim

    def __init__(self, dim=(), unknown_rank=False):
        self.dim = [d if isinstance(d, Dim) else Dim(**d) if isinstance(d, dict) else Dim(d) for d in dim]
        self.unknown_rank = bool(unknown_rank)

    def _encode(self) -> bytes:
        return (b"".join(field_bytes(2, d._encode()) for d in self.dim) +
                (field_varint(3, 1) if self.unknown_rank else b""))

    @classmethod
    def _decode(cls, data: bytes) -> "TensorShapeProto":
        shape = cls()
        for number, _, value in fields(data):
            if number == 2:
                dim = Dim()
                for inner, _, item in fields(value):
                    if inner == 1:
                        dim.size = signed64(item)
                    elif inner == 2:
                        dim.name = item.decode("utf-8")
                shape.dim.append(dim)
            elif number == 3:
                shape.unknown_rank = bool(value)
        return shape

    def __eq__(self, other):
        return isinstance(other, TensorShapeProto) and (self.dim, self.unknown_rank) == (other.dim, other.unknown_rank)

    def __repr__(self):
        return f"TensorShapeProto(dim={[d.size for d in self.dim]})"


# field name, number, encoding: "f" packed float32, "d" packed float64, "v" packed signed varints, "u" unsigned
# ones, "b" repeated bytes
_REPEATED = (("float_val", 5, "f"), ("double_val", 6, "d"), ("int_val", 7, "v"), ("string_val", 8, "b"),
             ("scomplex_val", 9, "f"), ("int64_val", 10, "v"), ("bool_val", 11, "v"), ("dcomplex_val", 12, "d"),
             ("half_val", 13, "u"), ("uint32_val", 16, "u"), ("uint64_val", 17, "u"))
_UNSUPPORTED = {14: "resource_handle_val", 15: "variant_val", 18: "float8_val"}


class TensorProto:
    """TensorFlow's TensorProto message: dtype (a DataType enum number), tensor_shape, tensor_content and the typed
    value lists (float_val, int_val, string_val, ...)."""

    def __init__(self, dtype=0, tensor_shape=None, version_number=0, tensor_content=b"", **values):
        unknown = sorted(set(values) - {name for name, _, _ in _REPEATED})
        if unknown:
            raise ValueError(f'Protocol message TensorProto has no "{unknown[0]}" field (placeflow implements dtype, '
                             f"tensor_shape, version_number, tensor_content and {[n for n, _, _ in _REPEATED]}).")
        self.dtype = int(dtype)
        self.tensor_shape = tensor_shape if tensor_shape is not None else TensorShapeProto()
        self._has_shape = tensor_shape is not None
        self.version_number, self.tensor_content = int(version_number), bytes(tensor_content)
        for name, _, _ in _REPEATED:
            setattr(self, name, list(values.get(name, ())))

    def SerializeToString(self) -> bytes:  # noqa: N802 - protobuf's name
        """The protocol-buffer bytes of this TensorProto."""
        out = field_varint(1, self.dtype) if self.dtype else b""
        out += field_bytes(2, self.tensor_shape._encode()) if self._has_shape or self.tensor_shape.dim else b""
        out += field_varint(3, self.version_number) if self.version_number else b""
        out += field_bytes(4, self.tensor_content) if self.tensor_content else b""
        for name, number, kind in _REPEATED:
            out += _encode_repeated(number, kind, getattr(self, name))
        return out

    @classmethod
    def FromString(cls, data) -> "TensorProto":  # noqa: N802 - protobuf's name
        """The TensorProto these protocol-buffer bytes encode."""
        proto = cls()
        proto.ParseFromString(data)
        return proto

    def ParseFromString(self, data) -> None:  # noqa: N802 - protobuf's name
        """Read these protocol-buffer bytes into this TensorProto (replacing its contents)."""
        self.__init__()
        kinds = {number: (name, kind) for name, number, kind in _REPEATED}
        for number, wire, value in fields(bytes(data)):
            if number == 1:
                self.dtype = value
            elif number == 2:
                self.tensor_shape, self._has_shape = TensorShapeProto._decode(value), True
            elif number == 3:
                self.version_number = value
            elif number == 4:
                self.tensor_content = value
            elif number in kinds:
                getattr(self, kinds[number][0]).extend(_decode_repeated(kinds[number][1], wire, value))
            elif number in _UNSUPPORTED:
                raise NotImplementedError(f"TensorProto.{_UNSUPPORTED[number]} is not implemented in placeflow.")

    def __eq__(self, other):
        return isinstance(other, TensorProto) and self.SerializeToString() == other.SerializeToString()

    def __repr__(self):
        return f"TensorProto(dtype={self.dtype}, tensor_shape={[d.size for d in self.tensor_shape.dim]})"


def _encode_repeated(number: int, kind: str, values: list) -> bytes:
    if not values:
        return b""
    if kind == "b":
        return b"".join(field_bytes(number, v.encode("utf-8") if isinstance(v, str) else bytes(v)) for v in values)
    if kind == "f":
        return field_packed_floats(number, values)
    if kind == "d":
        return field_bytes(number, struct.pack(f"<{len(values)}d", *[float(v) for v in values]))
    return field_packed_varints(number, values)


def _decode_repeated(kind: str, wire: int, value) -> list:
    if kind == "b":
        return [value]
    if wire != 2:  # one unpacked value
        if kind == "f":
            return [struct.unpack("<f", struct.pack("<I", value))[0]]
        return [struct.unpack("<d", struct.pack("<Q", value))[0]] if kind == "d" else [_signed(kind, value)]
    if kind in ("f", "d"):
        size = 4 if kind == "f" else 8
        return list(struct.unpack(f"<{len(value) // size}{kind}", value))
    out, at = [], 0
    while at < len(value):
        item, at = read_varint(value, at)
        out.append(_signed(kind, item))
    return out


def _signed(kind: str, value: int) -> int:
    return signed64(value) if kind == "v" else value


def _typed_field(dtype) -> str:
    """The repeated field TensorFlow keeps values of `dtype` in when it does not use tensor_content."""
    by_dtype = {dtypes.float32: "float_val", dtypes.float64: "double_val", dtypes.int64: "int64_val",
                dtypes.bool: "bool_val", dtypes.complex64: "scomplex_val", dtypes.complex128: "dcomplex_val",
                dtypes.float16: "half_val", dtypes.bfloat16: "half_val", dtypes.uint32: "uint32_val",
                dtypes.uint64: "uint64_val", dtypes.string: "string_val"}
    return by_dtype.get(dtype, "int_val")


def _typed_values(flat: np.ndarray, dtype) -> list:
    if dtype == dtypes.float16 or dtype == dtypes.bfloat16:
        return flat.view(np.uint16).tolist()
    if dtype.is_complex:
        return np.stack([flat.real, flat.imag], axis=-1).reshape(-1).tolist()
    if dtype == dtypes.string:
        return [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in flat.tolist()]
    if dtype == dtypes.int32 or dtype == dtypes.int64 or dtype.is_integer or dtype == dtypes.bool:
        return [int(v) for v in flat.tolist()]
    return flat.tolist()


def _as_array(values, dtype) -> tuple:
    """(NumPy array, placeflow dtype) of `values` converted as tf.constant would."""
    if values is None:
        raise ValueError("None values not supported.")
    if isinstance(values, dict):
        raise TypeError(f"Failed to convert elements of {values!r} to Tensor: make_tensor_proto takes numbers, "
                        "strings, nested lists of them, NumPy arrays or tensors.")
    tensor = convert_to_tensor(values, dtype=dtypes.as_dtype(dtype) if dtype is not None else None)
    return np.asarray(tensor.numpy()), tensor.dtype


def _checked_shape(array: np.ndarray, shape, verify_shape: bool) -> tuple:
    if shape is None:
        return tuple(array.shape)
    shape = tuple(int(d) for d in shape)
    if verify_shape and shape != tuple(array.shape):
        raise TypeError(f"Expected Tensor's shape: {shape}, but got {tuple(array.shape)}; pass values of that "
                        "shape or verify_shape=False.")
    size = int(np.prod(shape, dtype=np.int64))
    if array.size > size:
        raise ValueError(f"Too many elements provided. Takes at most {size}, but got {array.size}; pass a shape "
                         "that holds every value.")
    return shape


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
    """A TensorProto holding `values` (as tf.constant converts them), optionally with `shape`: fewer values than the
    shape holds are stored as given, and the last one repeats when read back."""
    if isinstance(values, TensorProto):
        return values
    if allow_broadcast:
        raise NotImplementedError("make_tensor_proto(allow_broadcast=True) is not implemented in placeflow; "
                                  "broadcast the values yourself (np.broadcast_to) and pass them with their shape.")
    array, dtype = _as_array(values, dtype)
    shape = _checked_shape(array, shape, verify_shape)
    proto = TensorProto(dtype=dtypes.datatype_enum(dtype), tensor_shape=TensorShapeProto(shape))
    flat = array.reshape(-1)
    if flat.size == 0:
        return proto
    typed_only = dtype == dtypes.string or dtype == dtypes.bool or dtype == dtypes.uint16 or dtype.is_complex
    if flat.size > 1 and flat.size == int(np.prod(shape, dtype=np.int64)) and not typed_only:
        proto.tensor_content = np.ascontiguousarray(flat, dtype=dtype.numpy_dtype).view(np.uint8).tobytes()
    else:
        setattr(proto, _typed_field(dtype), _typed_values(flat, dtype))
    return proto


def make_ndarray(tensor):
    """The NumPy array a TensorProto holds (the last value repeats where it holds fewer than its shape)."""
    if not isinstance(tensor, TensorProto):
        raise AttributeError(f"{type(tensor).__name__!r} object has no attribute 'tensor_shape': make_ndarray takes "
                             "a TensorProto (tf.make_tensor_proto(x) makes one).")
    array, _ = wire_tensor.decode(tensor.SerializeToString())
    return array
