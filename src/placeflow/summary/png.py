"""A PNG encoder for tf.summary.image (8-bit grayscale, RGB or RGBA; zlib from the standard library)."""

import struct
import zlib

import numpy as np

_COLOR_TYPES = {1: 0, 3: 2, 4: 6}  # channels -> PNG color type


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(image: np.ndarray) -> bytes:
    """The PNG file of a uint8 [height, width, channels] image."""
    height, width, channels = image.shape
    rows = b"".join(b"\x00" + np.ascontiguousarray(image[row]).tobytes() for row in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, _COLOR_TYPES[channels], 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows)) + \
        _chunk(b"IEND", b"")
