"""Unicode string kernels on the host (TF's UnicodeDecodeWithOffsets, UnicodeEncode, UnicodeTranscode and
StringSplit by bytes), for UTF-8, UTF-16-BE and UTF-32-BE. Invalid input follows `errors`: 'strict' raises
InvalidArgumentError, 'replace' puts `replacement_char` once per maximal invalid byte sequence (as ICU does),
'ignore' drops it; decoded characters carry the byte offset where each starts."""

from __future__ import annotations

import codecs
import threading

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .registry import NOT_DIFFERENTIABLE, define

_CODECS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}
_UNITS = {"UTF-8": None, "UTF-16-BE": 2, "UTF-32-BE": 4}
_local = threading.local()  # the invalid byte spans of the decode running on this thread


def _record(error):
    _local.spans.append((error.start, error.end))
    return "\ufffd", error.end


codecs.register_error("placeflow_unicode_spans", _record)


def codec_of(encoding: str) -> str:
    """Python's codec for one of TF's encoding names; InvalidArgumentError for others."""
    found = _CODECS.get(encoding.upper())
    if found is None:
        raise InvalidArgumentError(None, None, f"Could not create converter for input encoding: {encoding}")
    return found


def _is_control(code: int) -> bool:
    return code < 0x20  # TF replaces the C0 controls only


def decode_one(raw: bytes, encoding: str, errors: str, replacement: int, replace_controls: bool) -> tuple:
    """([code points], [byte offsets]) of one string."""
    codec = codec_of(encoding)
    _local.spans = []
    text = raw.decode(codec, "placeflow_unicode_spans")
    spans = _local.spans
    if spans and errors == "strict":
        raise InvalidArgumentError(None, None, "Invalid formatting on input string")
    codes, offsets, cursor, pending = [], [], 0, iter(spans)
    span = next(pending, None)
    for char in text:
        if span is not None and char == "\ufffd" and cursor == span[0]:
            start, cursor = span
            span = next(pending, None)
            if errors == "ignore":
                continue
            codes.append(replacement)
            offsets.append(start)
            continue
        code = ord(char)
        offsets.append(cursor)
        cursor += len(char.encode(codec))
        codes.append(replacement if replace_controls and _is_control(code) else code)
    return codes, offsets


def encode_one(codes, encoding: str, errors: str, replacement: int) -> bytes:
    """The bytes of code points `codes` in `encoding`."""
    codec = codec_of(encoding)
    chars = []
    for code in codes:
        valid = 0 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF
        if not valid:
            if errors == "strict":
                raise InvalidArgumentError(None, None, "Code point is out of range for Unicode, or is a surrogate.")
            if errors == "ignore":
                continue
            code = replacement
        chars.append(chr(code))
    return "".join(chars).encode(codec)


def _items(strings) -> list:
    return [item.encode("utf-8") if isinstance(item, str) else bytes(item)
            for item in np.asarray(strings, dtype=object).reshape(-1)]


@define("UnicodeDecodeWithOffsets", frozenset({d.string}), gpu=(), grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: [d.int64, d.int32, d.int64],
        shape=lambda shapes, attrs: [(None if shapes[0] is None or not shapes[0] else
                                      (None if shapes[0][0] is None else shapes[0][0] + 1),), (None,), (None,)])
def _decode_with_offsets(xp, strings, input_encoding="UTF-8", errors="replace", replacement_char=0xFFFD,
                         replace_control_characters=False):
    """(row_splits, code points, byte offsets) of a vector of strings."""
    splits, codes, offsets = [0], [], []
    for raw in _items(strings):
        row_codes, row_offsets = decode_one(raw, input_encoding, errors, replacement_char, replace_control_characters)
        codes.extend(row_codes)
        offsets.extend(row_offsets)
        splits.append(len(codes))
    return np.asarray(splits, np.int64), np.asarray(codes, np.int32), np.asarray(offsets, np.int64)


@define("UnicodeEncode", frozenset({d.int32}), gpu=(), grad=NOT_DIFFERENTIABLE, dtype=lambda dtype, attrs: d.string,
        shape=lambda shapes, attrs: (None if shapes[1] is None or shapes[1][0] is None else shapes[1][0] - 1,))
def _encode(xp, codes, splits, output_encoding="UTF-8", errors="replace", replacement_char=0xFFFD):
    """Each row of code points (rows given by `splits`) as one string."""
    host, bounds = np.asarray(codes).reshape(-1), np.asarray(splits).reshape(-1)
    out = np.empty(max(len(bounds) - 1, 0), dtype=object)
    for row in range(len(out)):
        out[row] = encode_one(host[bounds[row]:bounds[row + 1]].tolist(), output_encoding, errors, replacement_char)
    return out


@define("UnicodeTranscode", frozenset({d.string}), gpu=(), grad=NOT_DIFFERENTIABLE,
        shape=lambda shapes, attrs: shapes[0])
def _transcode(xp, strings, input_encoding="UTF-8", output_encoding="UTF-8", errors="replace",
               replacement_char=0xFFFD, replace_control_characters=False):
    """Each string decoded from `input_encoding` and encoded in `output_encoding`."""
    host = np.asarray(strings, dtype=object)
    out = np.empty(host.shape, dtype=object)
    for index, raw in zip(np.ndindex(host.shape), _items(host)):
        codes, _ = decode_one(raw, input_encoding, errors, replacement_char, replace_control_characters)
        out[index] = encode_one(codes, output_encoding, errors, replacement_char)
    return out


@define("_StringBytesSplit", frozenset({d.string}), gpu=(), grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: [d.string, d.int64],
        shape=lambda shapes, attrs: [(None,), (None if shapes[0] is None or not shapes[0] or shapes[0][0] is None
                                               else shapes[0][0] + 1,)])
def _bytes_split(xp, strings):
    """(every byte of every string as a one-byte string, row_splits)."""
    parts, splits = [], [0]
    for raw in _items(strings):
        parts.extend(raw[i:i + 1] for i in range(len(raw)))
        splits.append(len(parts))
    values = np.empty(len(parts), dtype=object)
    values[:] = parts
    return values, np.asarray(splits, np.int64)


@define("StringNGrams", frozenset({d.string}), gpu=(), grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: [d.string, d.int64], shape=lambda shapes, attrs: [(None,), shapes[1]])
def _string_ngrams(xp, data, data_splits, separator=b" ", ngram_widths=(), left_pad=b"", right_pad=b"",
                   pad_width=0, preserve_short_sequences=False):
    """(the n-grams of each row for each width in turn, joined by `separator`, and their row splits)."""
    tokens = _items(data)
    bounds = np.asarray(data_splits).reshape(-1).tolist()
    out, splits = [], [0]
    for start, end in zip(bounds, bounds[1:]):
        row = tokens[start:end]
        for width in ngram_widths:
            pad = min(width - 1 if pad_width < 0 else pad_width, width - 1)
            padded = [left_pad] * pad + row + [right_pad] * pad
            count = max(0, len(padded) - width + 1)
            if count == 0 and preserve_short_sequences and row:
                out.append(separator.join(padded))
                continue
            out.extend(separator.join(padded[i:i + width]) for i in range(count))
        splits.append(len(out))
    values = np.empty(len(out), dtype=object)
    values[:] = out
    return values, np.asarray(splits, np.int64)


@define("UnsortedSegmentJoin", frozenset({d.string}), gpu=(), grad=NOT_DIFFERENTIABLE,
        shape=lambda shapes, attrs: None)
def _unsorted_segment_join(xp, inputs, segment_ids, num_segments, separator=b""):
    """The strings of each segment joined by `separator`, in the order they appear."""
    host = np.asarray(inputs, dtype=object)
    ids = np.asarray(segment_ids).astype(np.int64)
    count = int(np.asarray(num_segments))
    if np.any(ids < 0) or np.any(ids >= count):
        raise InvalidArgumentError(None, None, "segment_ids are not allowed to exceed num_segments or to have "
                                               "negative values.")
    inner = host.shape[ids.ndim:]
    rows = list(host.reshape((-1,) + inner)) if inner else [np.asarray(v, dtype=object) for v in host.reshape(-1)]
    groups: list = [[] for _ in range(count)]
    for segment, row in zip(ids.reshape(-1), rows):
        groups[segment].append(row)
    out = np.empty((count,) + inner, dtype=object)
    for segment, members in enumerate(groups):
        for position in np.ndindex(inner):
            out[(segment,) + position] = separator.join(_items([m[position] for m in members])) if members else b""
    return out
