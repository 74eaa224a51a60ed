"""TFRecord framing: each record is its length (uint64, little-endian), the masked CRC-32C of the length,
the bytes, and the masked CRC-32C of the bytes (TFRecord files and TensorBoard event files)."""

from __future__ import annotations

import struct


def _crc32c_table() -> list:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _crc32c_table()


try:
    from google_crc32c import value as _fast_crc32c  # Google's C implementation (a dependency): ~300x faster
except ImportError:  # pragma: no cover - e.g. a machine running from src/ without the dependencies
    _fast_crc32c = None


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli) of `data` (google-crc32c when installed, else the table below)."""
    if _fast_crc32c is not None:
        return _fast_crc32c(bytes(data))
    return _table_crc32c(data)


def _table_crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    """TFRecord's masked CRC of `data`."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def record(data: bytes) -> bytes:
    """`data` framed as one TFRecord."""
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", masked_crc(length)) + data + struct.pack("<I", masked_crc(data))
