"""The sorted string table of a checkpoint's `.index` file (TensorFlow's LevelDB-style table, uncompressed).

Layout: data blocks of prefix-compressed entries (shared length, unshared length, value length as
varints, then the unshared key bytes and the value) closed by an array of restart offsets; each block is
followed by a one-byte compression type and the masked CRC-32C of block and type. Then an empty
meta-index block, an index block mapping a separator key to each data block's (offset, size), and a
48-byte footer: the two block handles padded to 40 bytes and the table's magic number."""

from __future__ import annotations

import struct

from ..framework import errors
from ..framework.protobuf_wire import _varint, read_varint
from ..framework.record_framing import masked_crc

MAGIC = 0xDB4775248B80FB57
_FOOTER_SIZE = 48
_BLOCK_SIZE = 262144  # TensorFlow's table option block_size
_RESTART_INTERVAL = 16


class _BlockBuilder:
    def __init__(self, restart_interval: int):
        self._restart_interval = restart_interval
        self._buffer = bytearray()
        self._restarts = [0]
        self._count = 0
        self._last_key = b""

    def add(self, key: bytes, value: bytes) -> None:
        shared = 0
        if self._count < self._restart_interval:
            limit = min(len(key), len(self._last_key))
            while shared < limit and key[shared] == self._last_key[shared]:
                shared += 1
        else:
            self._restarts.append(len(self._buffer))
            self._count = 0
        self._buffer += _varint(shared) + _varint(len(key) - shared) + _varint(len(value))
        self._buffer += key[shared:] + value
        self._last_key = key
        self._count += 1

    def size_estimate(self) -> int:
        return len(self._buffer) + 4 * len(self._restarts) + 4

    def empty(self) -> bool:
        return not self._buffer

    def finish(self) -> bytes:
        restarts = b"".join(struct.pack("<I", offset) for offset in self._restarts)
        return bytes(self._buffer) + restarts + struct.pack("<I", len(self._restarts))


def _handle(offset: int, size: int) -> bytes:
    return _varint(offset) + _varint(size)


def _short_successor(key: bytes) -> bytes:
    for i, byte in enumerate(key):
        if byte != 0xFF:
            return key[:i] + bytes([byte + 1])
    return key


def _shortest_separator(start: bytes, limit: bytes) -> bytes:
    shared = 0
    while shared < min(len(start), len(limit)) and start[shared] == limit[shared]:
        shared += 1
    if shared < min(len(start), len(limit)):
        byte = start[shared]
        if byte < 0xFF and byte + 1 < limit[shared]:
            return start[:shared] + bytes([byte + 1])
    return start


def build_table(entries) -> bytes:
    """The table holding `entries`, (key bytes, value bytes) pairs in strictly increasing key order."""
    out = bytearray()
    index = _BlockBuilder(restart_interval=1)
    block = _BlockBuilder(_RESTART_INTERVAL)
    pending = None  # (last key of the finished block, its handle)
    last_key = None

    def write_block(builder) -> bytes:
        contents = builder.finish()
        handle = _handle(len(out), len(contents))
        out.extend(contents + b"\x00" + struct.pack("<I", masked_crc(contents + b"\x00")))
        return handle

    for key, value in entries:
        if last_key is not None and key <= last_key:
            raise ValueError(f"Checkpoint table keys must increase: {key!r} after {last_key!r}")
        if pending is not None:
            index.add(_shortest_separator(pending[0], key), pending[1])
            pending = None
        block.add(key, value)
        last_key = key
        if block.size_estimate() >= _BLOCK_SIZE:
            pending = (last_key, write_block(block))
            block = _BlockBuilder(_RESTART_INTERVAL)
    if not block.empty():
        pending = (last_key, write_block(block))
    meta_handle = write_block(_BlockBuilder(_RESTART_INTERVAL))
    if pending is not None:
        index.add(_short_successor(pending[0]), pending[1])
    index_handle = write_block(index)
    footer = meta_handle + index_handle
    out.extend(footer + b"\x00" * (40 - len(footer)) + struct.pack("<Q", MAGIC))
    return bytes(out)


def _corrupt(path: str, what: str) -> errors.DataLossError:
    return errors.DataLossError(None, None, f"Unable to read the checkpoint index {path}: {what}. It is not a "
                                            "TensorFlow checkpoint's .index file, or it is truncated or corrupted.")


def _read_block(data: bytes, offset: int, size: int, path: str) -> bytes:
    if offset + size + 5 > len(data):
        raise _corrupt(path, "a block lies past the end of the file")
    contents = data[offset:offset + size]
    kind = data[offset + size]
    (crc,) = struct.unpack_from("<I", data, offset + size + 1)
    if crc != masked_crc(contents + bytes([kind])):
        raise _corrupt(path, "a block's checksum does not match")
    if kind != 0:
        raise _corrupt(path, f"block compression type {kind} (only uncompressed tables are supported)")
    return contents


def _block_entries(block: bytes, path: str):
    if len(block) < 4:
        raise _corrupt(path, "a block is too short")
    (restarts,) = struct.unpack_from("<I", block, len(block) - 4)
    end = len(block) - 4 - 4 * restarts
    if end < 0:
        raise _corrupt(path, "a block's restart array is too long")
    at, key = 0, b""
    while at < end:
        shared, at = read_varint(block, at)
        unshared, at = read_varint(block, at)
        length, at = read_varint(block, at)
        if shared > len(key) or at + unshared + length > end:
            raise _corrupt(path, "an entry runs past its block")
        key = key[:shared] + block[at:at + unshared]
        at += unshared
        yield key, block[at:at + length]
        at += length


def read_table(data: bytes, path: str = "<bytes>"):
    """Every (key, value) of a table, in key order."""
    if len(data) < _FOOTER_SIZE:
        raise _corrupt(path, f"{len(data)} bytes is shorter than a table's footer")
    (magic,) = struct.unpack_from("<Q", data, len(data) - 8)
    if magic != MAGIC:
        raise _corrupt(path, "bad table magic number")
    footer = data[len(data) - _FOOTER_SIZE:]
    _, at = read_varint(footer, 0)
    _, at = read_varint(footer, at)
    index_offset, at = read_varint(footer, at)
    index_size, _ = read_varint(footer, at)
    for _, handle in _block_entries(_read_block(data, index_offset, index_size, path), path):
        offset, at = read_varint(handle, 0)
        size, _ = read_varint(handle, at)
        yield from _block_entries(_read_block(data, offset, size, path), path)
