"""TFRecord files, as TensorFlow writes and reads them (framing in framework/record_framing.py; a GZIP or
ZLIB file compresses the whole stream): tf.io.TFRecordWriter and TFRecordOptions, and the reader
data/tfrecord.py's TFRecordDataset uses."""

from __future__ import annotations

import gzip
import io
import struct
import zlib

from ..framework import errors
from ..framework.record_framing import masked_crc, record

COMPRESSIONS = ("", "GZIP", "ZLIB")


class TFRecordOptions:
    """How a TFRecord file is compressed: '' (none), 'GZIP' or 'ZLIB' (with its compression level)."""

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None, output_buffer_size=None,
                 window_bits=None, compression_level=None, compression_method=None, mem_level=None,
                 compression_strategy=None):
        self.compression_type = _compression(compression_type)
        unsupported = {"flush_mode": flush_mode, "window_bits": window_bits, "compression_method": compression_method,
                       "mem_level": mem_level, "compression_strategy": compression_strategy}
        given = [name for name, value in unsupported.items() if value is not None]
        if given:
            raise NotImplementedError(f"TFRecordOptions({', '.join(given)}=...) is not implemented in placeflow; "
                                      f"compression_type and compression_level are.")
        self.compression_level = compression_level
        self.input_buffer_size, self.output_buffer_size = input_buffer_size, output_buffer_size


def _compression(value) -> str:
    if isinstance(value, TFRecordOptions):
        return value.compression_type
    text = "" if value is None else str(value).upper()
    if text not in COMPRESSIONS:
        raise ValueError(f"Unsupported compression type: {value!r}; expected '', 'GZIP' or 'ZLIB'.")
    return text


class TFRecordWriter:
    """Writes records (bytes) to a TFRecord file; a context manager."""

    def __init__(self, path, options=None):
        options = options if isinstance(options, TFRecordOptions) else TFRecordOptions(options)
        self._raw = open(path, "wb")
        level = -1 if options.compression_level is None else int(options.compression_level)
        if options.compression_type == "GZIP":
            self._file = gzip.GzipFile(fileobj=self._raw, mode="wb", compresslevel=9 if level < 0 else level)
        elif options.compression_type == "ZLIB":
            self._file = _ZlibWriter(self._raw, level)
        else:
            self._file = self._raw

    def write(self, record_bytes):
        """Append one record."""
        data = record_bytes.numpy() if hasattr(record_bytes, "numpy") else record_bytes
        if isinstance(data, str):
            data = data.encode("utf-8")
        self._file.write(record(bytes(data)))

    def flush(self):
        """Flush what was written to the file."""
        self._file.flush()

    def close(self):
        """Finish and close the file."""
        if self._file is not self._raw:
            self._file.close()
        self._raw.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _ZlibWriter:
    def __init__(self, raw, level):
        self._raw, self._compressor = raw, zlib.compressobj(level)

    def write(self, data):
        self._raw.write(self._compressor.compress(data))

    def flush(self):
        self._raw.write(self._compressor.flush(zlib.Z_SYNC_FLUSH))
        self._raw.flush()

    def close(self):
        self._raw.write(self._compressor.flush())


def read_records(path, compression: str):
    """Each record's bytes, checking the CRCs (DataLossError on a corrupted or truncated record)."""
    with open(path, "rb") as handle:
        raw = handle.read()
    if compression == "GZIP":
        data = gzip.decompress(raw)
    elif compression == "ZLIB":
        data = zlib.decompress(raw)
    else:
        data = raw
    stream, offset = io.BytesIO(data), 0
    while True:
        header = stream.read(12)
        if not header:
            return
        if len(header) < 12:
            raise errors.DataLossError(None, None, f"truncated record at {offset} in {path}")
        length, length_crc = struct.unpack("<QI", header)
        if masked_crc(header[:8]) != length_crc:
            raise errors.DataLossError(None, None, f"corrupted record at {offset} in {path}")
        body, footer = stream.read(length), stream.read(4)
        if len(body) < length or len(footer) < 4:
            raise errors.DataLossError(None, None, f"truncated record at {offset} in {path}")
        if masked_crc(body) != struct.unpack("<I", footer)[0]:
            raise errors.DataLossError(None, None, f"corrupted record at {offset} in {path}")
        offset += 16 + length
        yield body
