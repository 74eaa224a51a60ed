"""tf.data.TextLineDataset and FixedLengthRecordDataset: the lines, or the fixed-size records, of files in turn
(optionally GZIP or ZLIB compressed), as scalar strings."""

from __future__ import annotations

import gzip
import zlib

import numpy as np

from ..api.tfrecord import _compression
from ..framework import dtypes, errors


def _paths(filenames) -> list:
    names = filenames.numpy() if hasattr(filenames, "numpy") else filenames
    if isinstance(names, (str, bytes)) or np.ndim(names) == 0:
        names = [names.item() if hasattr(names, "item") else names]
    return [p.decode("utf-8") if isinstance(p, bytes) else str(p) for p in np.asarray(names, dtype=object).reshape(-1)]


def _contents(path: str, compression: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None
    return gzip.decompress(raw) if compression == "GZIP" else zlib.decompress(raw) if compression == "ZLIB" else raw


def _scalar(data: bytes):
    return np.asarray(data, dtype=object)


def text_line_dataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
    """Each line of each file (without its '\\n' or '\\r\\n'), as a scalar string."""
    from .dataset import Dataset, _spec_of
    paths, compression = _paths(filenames), _compression(compression_type)

    def make():
        for path in paths:
            data = _contents(path, compression)
            lines = data.split(b"\n")
            if lines and lines[-1] == b"":
                lines.pop()  # the newline ending the last line ends no further line
            for line in lines:
                yield _scalar(line[:-1] if line.endswith(b"\r") else line)
    return Dataset(make, -2, _spec_of((), dtypes.string))


def fixed_length_record_dataset(filenames, record_bytes, header_bytes=None, footer_bytes=None, buffer_size=None,
                                compression_type=None, num_parallel_reads=None, name=None):
    """Each file's body (after `header_bytes`, before `footer_bytes`) cut into records of `record_bytes`."""
    from .dataset import Dataset, _spec_of
    paths, compression = _paths(filenames), _compression(compression_type)
    size, head, foot = int(record_bytes), int(header_bytes or 0), int(footer_bytes or 0)
    if size <= 0:
        raise errors.InvalidArgumentError(None, None, f"record_bytes must be positive; got {size}.")

    def make():
        for path in paths:
            data = _contents(path, compression)
            body = data[head:len(data) - foot]
            if len(body) % size:
                raise errors.InvalidArgumentError(None, None, (
                    f"Excluding the header ({head} bytes) and footer ({foot} bytes), input file \"{path}\" has body "
                    f"length {len(body)} bytes, which is not an exact multiple of the record length ({size} bytes)."))
            for start in range(0, len(body), size):
                yield _scalar(body[start:start + size])
    return Dataset(make, -2, _spec_of((), dtypes.string))
