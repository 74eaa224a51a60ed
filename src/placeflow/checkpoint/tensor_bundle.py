"""TensorFlow's checkpoint files (the "TensorBundle" V2 format), read and written byte for byte as TF does.

`<prefix>.data-00000-of-00001` holds the tensors' bytes back to back, in the order they were added
(little-endian; a string tensor as the varint lengths of its elements, a masked CRC-32C of those lengths,
then the bytes). `<prefix>.index` is a sorted table (sstable.py) whose "" key holds a BundleHeaderProto
(shard count, endianness, format version) and whose other keys map each tensor's name to a
BundleEntryProto: dtype, shape, shard, offset, size and the masked CRC-32C of its bytes."""

from __future__ import annotations

import os
import struct

import numpy as np

from ..framework import dtypes, errors
from ..framework.protobuf_wire import _varint, field_bytes, field_varint, fields, read_varint, signed64
from ..framework.record_framing import crc32c, masked_crc
from . import sstable

_HEADER_KEY = b""
_LITTLE_ENDIAN = 0


def data_path(prefix: str, shard: int = 0, shards: int = 1) -> str:
    """The data file of one shard: `<prefix>.data-00000-of-00001`."""
    return f"{prefix}.data-{shard:05d}-of-{shards:05d}"


def index_path(prefix: str) -> str:
    """The index file of a checkpoint: `<prefix>.index`."""
    return prefix + ".index"


def _mask(crc: int) -> int:
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _unmask(masked: int) -> int:
    rotated = (masked - 0xA282EAD8) & 0xFFFFFFFF
    return ((rotated >> 17) | (rotated << 15)) & 0xFFFFFFFF


def _shape_proto(shape) -> bytes:
    return b"".join(field_bytes(2, field_varint(1, dim) if dim else b"") for dim in shape)


def _optional_varint(number: int, value: int) -> bytes:
    return field_varint(number, value) if value else b""


def _entry_proto(dtype, shape, offset: int, size: int, crc: int) -> bytes:
    return (field_varint(1, dtypes.datatype_enum(dtype)) + field_bytes(2, _shape_proto(shape))
            + _optional_varint(4, offset) + _optional_varint(5, size) + b"\x35" + struct.pack("<I", crc))


def _string_bytes(array: np.ndarray) -> tuple:
    elements = [e.encode("utf-8") if isinstance(e, str) else bytes(e) for e in array.reshape(-1).tolist()]
    lengths = b"".join(_varint(len(e)) for e in elements)
    lengths_for_crc = b"".join(struct.pack("<I", len(e)) if len(e) <= 0xFFFFFFFF else struct.pack("<Q", len(e))
                               for e in elements)
    length_checksum = struct.pack("<I", _mask(crc32c(lengths_for_crc)))
    body = b"".join(elements)
    return lengths + length_checksum + body, _mask(crc32c(lengths_for_crc + length_checksum + body))


def _numeric_bytes(array: np.ndarray, dtype) -> tuple:
    array = np.ascontiguousarray(array, dtype=dtype.numpy_dtype)
    if array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("<"))
    raw = memoryview(array.reshape(-1).view(np.uint8))
    return raw, masked_crc(raw)


class BundleWriter:
    """Writes one checkpoint: add tensors in the order TF saves them, then `finish()`."""

    def __init__(self, prefix: str):
        self._prefix = prefix
        directory = os.path.dirname(os.path.abspath(prefix))
        os.makedirs(directory, exist_ok=True)
        self._temp_data = data_path(prefix) + ".tempstate"
        self._data = open(self._temp_data, "wb")
        self._offset = 0
        self._entries: dict = {}

    def add(self, key: str, value, dtype) -> None:
        """Append one tensor (a NumPy array, or bytes/str elements for a string tensor) under `key`."""
        dtype = dtypes.as_dtype(dtype)
        if key in self._entries:
            raise ValueError(f"Adding duplicate key: {key!r} (each tensor of a checkpoint needs its own name)")
        array = np.asarray(value, dtype=object if dtype == dtypes.string else None)
        raw, crc = _string_bytes(array) if dtype == dtypes.string else _numeric_bytes(array, dtype)
        self._data.write(raw)
        self._entries[key.encode("utf-8")] = _entry_proto(dtype, array.shape, self._offset, len(raw), crc)
        self._offset += len(raw)

    def finish(self) -> None:
        """Write the index and move both files into place."""
        self._data.close()
        header = field_varint(1, 1) + field_bytes(3, field_varint(1, 1))  # one shard; format version 1
        table = sstable.build_table([(_HEADER_KEY, header)] + sorted(self._entries.items()))
        temp_index = index_path(self._prefix) + ".tempstate"
        with open(temp_index, "wb") as handle:
            handle.write(table)
        os.replace(self._temp_data, data_path(self._prefix))
        os.replace(temp_index, index_path(self._prefix))

    def abort(self) -> None:
        """Remove the partial files of a save that failed."""
        self._data.close()
        for path in (self._temp_data, index_path(self._prefix) + ".tempstate"):
            if os.path.exists(path):
                os.remove(path)


class Entry:
    """Where one tensor of a checkpoint lies, and what it is."""

    __slots__ = ("dtype_enum", "shape", "shard", "offset", "size", "crc", "sliced")

    def __init__(self, proto: bytes):
        self.dtype_enum, self.shape, self.shard, self.offset, self.size, self.crc = 0, [], 0, 0, 0, None
        self.sliced = False
        for number, _, value in fields(proto):
            if number == 1:
                self.dtype_enum = value
            elif number == 2:
                self.shape = _read_shape(value)
            elif number == 3:
                self.shard = value
            elif number == 4:
                self.offset = signed64(value)
            elif number == 5:
                self.size = signed64(value)
            elif number == 6:
                self.crc = value
            elif number == 7:
                self.sliced = True

    @property
    def dtype(self):
        """The placeflow dtype of the tensor."""
        return dtypes.from_datatype_enum(self.dtype_enum)


def _read_shape(proto: bytes) -> list:
    shape = []
    for number, _, value in fields(proto):
        if number == 2:
            size = 0
            for dim_number, _, dim_value in fields(value):
                if dim_number == 1:
                    size = signed64(dim_value)
            shape.append(size)
        elif number == 3 and value:
            raise errors.DataLossError(None, None, "A checkpoint tensor has an unknown rank.")
    return shape


class BundleReader:
    """Reads a checkpoint written by TensorFlow or placeflow: its keys, and each tensor on demand."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        path = index_path(prefix)
        if not os.path.exists(path):
            raise errors.NotFoundError(None, None, f"Unsuccessful TensorSliceReader constructor: Failed to find "
                                                   f"any matching files for {prefix}")
        with open(path, "rb") as handle:
            table = handle.read()
        self.entries: dict = {}
        self.shards = 1
        for key, value in sstable.read_table(table, path):
            if key == _HEADER_KEY:
                self._read_header(value, path)
            else:
                self.entries[key.decode("utf-8")] = Entry(value)

    def _read_header(self, proto: bytes, path: str) -> None:
        for number, _, value in fields(proto):
            if number == 1:
                self.shards = value
            elif number == 2 and value != _LITTLE_ENDIAN:
                raise errors.UnimplementedError(None, None, f"{path} was written on a big-endian machine; "
                                                            "placeflow reads little-endian checkpoints only.")

    def tensor(self, key: str) -> np.ndarray:
        """The value saved under `key` (bytes elements for a string tensor), its checksum verified."""
        entry = self.entries.get(key)
        if entry is None:
            raise errors.NotFoundError(None, None, f"Key {key} not found in checkpoint")
        if entry.sliced:
            raise errors.UnimplementedError(None, None, f"{key} is saved in slices (a partitioned variable); "
                                                        "placeflow reads whole tensors only.")
        raw = self._read(entry, key)
        dtype = entry.dtype
        if dtype == dtypes.string:
            return _decode_strings(raw, entry, key)
        expected = int(np.prod(entry.shape, dtype=np.int64)) * dtype.size
        if len(raw) != expected:
            raise errors.DataLossError(None, None, f"Checkpoint tensor {key} holds {len(raw)} bytes; its shape "
                                                   f"{entry.shape} and dtype {dtype.name} need {expected}.")
        little = dtype.numpy_dtype.newbyteorder("<") if dtype.numpy_dtype.byteorder != "|" else dtype.numpy_dtype
        return np.frombuffer(raw, dtype=little).astype(dtype.numpy_dtype, copy=False).reshape(entry.shape)

    def _read(self, entry: Entry, key: str) -> bytearray:
        path = data_path(self.prefix, entry.shard, self.shards)
        try:
            with open(path, "rb") as handle:
                handle.seek(entry.offset)
                raw = bytearray(entry.size)
                read = handle.readinto(raw)
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"{path} not found: the checkpoint's data file is missing.") \
                from None
        if read != entry.size:
            raise errors.DataLossError(None, None, f"Checkpoint tensor {key} is truncated: {path} holds {read} of "
                                                   f"its {entry.size} bytes.")
        if entry.crc is not None and entry.dtype_enum != 7 and masked_crc(raw) != entry.crc:
            raise errors.DataLossError(None, None, f"Checksum does not match: stored {entry.crc} vs. calculated on "
                                                   f"the restored bytes {masked_crc(raw)} (tensor {key}).")
        return raw


def _decode_strings(raw: bytearray, entry: Entry, key: str) -> np.ndarray:
    count = int(np.prod(entry.shape, dtype=np.int64))
    lengths, at = [], 0
    for _ in range(count):
        length, at = read_varint(raw, at)
        lengths.append(length)
    if at + 4 + sum(lengths) != len(raw):
        raise errors.DataLossError(None, None, f"Checkpoint string tensor {key} is corrupted: its lengths do not "
                                               "add up to its size.")
    lengths_for_crc = b"".join(struct.pack("<I", n) if n <= 0xFFFFFFFF else struct.pack("<Q", n) for n in lengths)
    calculated = _mask(crc32c(lengths_for_crc + bytes(raw[at:])))
    if entry.crc is not None and calculated != entry.crc:
        raise errors.DataLossError(None, None, f"Checksum does not match: stored {entry.crc} vs. calculated on "
                                               f"the restored bytes {calculated} (tensor {key}).")
    at += 4  # the masked CRC-32C of the lengths
    out = np.empty(count, dtype=object)
    for i, length in enumerate(lengths):
        out[i] = bytes(raw[at:at + length])
        at += length
    return out.reshape(entry.shape)
