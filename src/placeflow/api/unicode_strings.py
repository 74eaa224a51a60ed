"""tf.strings' Unicode functions: unicode_decode(_with_offsets), unicode_split(_with_offsets), unicode_encode,
unicode_transcode, bytes_split. A scalar string gives tensors; strings of rank N (dense or ragged) give a
RaggedTensor of ragged rank N: each string's row under the input's own dimensions (uniform where dense), as TF."""

from __future__ import annotations

import builtins

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes
from . import array_ops
from .ragged import RaggedTensor

_ERRORS = ("strict", "replace", "ignore")


def _strings(value):
    """(the strings as a flat vector, the input: a RaggedTensor or a tensor)."""
    if isinstance(value, RaggedTensor):
        return array_ops.reshape(value.flat_values, [-1]), value
    tensor = convert_to_tensor(value, dtype=dtypes.string) if isinstance(value, (str, bytes, list)) else \
        convert_to_tensor(value)
    return array_ops.reshape(tensor, [-1]), tensor


def nest_rows(source, rows):
    """`rows` (a RaggedTensor with one row per string of `source`, flattened) under `source`'s dimensions: the
    row itself for a scalar (rows' values), a RaggedTensor of ragged rank = source's rank otherwise (TF's shape:
    dense dimensions become uniform row partitions, a RaggedTensor keeps its own)."""
    if isinstance(source, RaggedTensor):
        return source.with_flat_values(nest_rows(source.flat_values, rows))
    dims = source.shape
    if len(dims) == 0:
        return rows.values
    for axis in builtins.range(len(dims) - 1, 0, -1):
        rows = _uniform_rows(rows, source, axis)
    return rows


def _uniform_rows(values, source, axis):
    """`values` grouped into rows of source.shape[axis] (static), one per index of source's dimensions before."""
    length = source.shape[axis]
    if length is None:
        raise NotImplementedError(f"strings of shape {source.shape} (dimension {axis} known only when the graph "
                                  f"runs) to a RaggedTensor is not implemented in placeflow; give the inner "
                                  f"dimensions static sizes (an input_signature with them set).")
    outer = [source.shape[i] for i in builtins.range(axis)]
    if all(d is not None for d in outer):
        count = int(np.prod(outer, dtype=np.int64))
        splits = convert_to_tensor(np.arange(count + 1, dtype=np.int64) * int(length), dtype=dtypes.int64)
    else:
        from .math_ops import reduce_prod
        count = reduce_prod(array_ops.shape(source, out_type=dtypes.int64)[:axis])
        splits = array_ops.range(count + 1, dtype=dtypes.int64) * int(length)
    return RaggedTensor(values, splits, internal=True, uniform_row_length=int(length))


def _check_errors(errors):
    if errors not in _ERRORS:
        raise ValueError(f"Invalid value for errors: {errors!r}; expected one of {list(_ERRORS)}")


def _decode(input, input_encoding, errors, replacement_char, replace_control_characters):  # noqa: A002
    _check_errors(errors)
    flat, source = _strings(input)
    splits, codes, offsets = execute("UnicodeDecodeWithOffsets", (flat,), dtypes.string,
                                     {"input_encoding": input_encoding, "errors": errors,
                                      "replacement_char": int(replacement_char),
                                      "replace_control_characters": bool(replace_control_characters)})
    return source, splits, codes, offsets


def _rows(source, splits, values):
    return nest_rows(source, RaggedTensor(values, splits, internal=True))


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """The code points (int32) of each string."""
    source, splits, codes, _ = _decode(input, input_encoding, errors, replacement_char, replace_control_characters)
    return _rows(source, splits, codes)


def unicode_decode_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                                replace_control_characters=False, name=None):
    """(code points, the byte offset where each starts) of each string."""
    source, splits, codes, offsets = _decode(input, input_encoding, errors, replacement_char, replace_control_characters)
    return _rows(source, splits, codes), _rows(source, splits, offsets)


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """The characters of each string, each as a string in `input_encoding`."""
    source, splits, codes, _ = _decode(input, input_encoding, errors, replacement_char, False)
    return _rows(source, splits, _characters(codes, input_encoding, replacement_char))


def unicode_split_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                               name=None):
    """(the characters of each string, the byte offset where each starts)."""
    source, splits, codes, offsets = _decode(input, input_encoding, errors, replacement_char, False)
    return _rows(source, splits, _characters(codes, input_encoding, replacement_char)), _rows(source, splits, offsets)


def _characters(codes, encoding, replacement_char):
    """Each code point as its own string (one-character rows)."""
    count = array_ops.shape(codes, out_type=dtypes.int64)[0]
    splits = array_ops.range(count + 1, dtype=dtypes.int64)
    return execute("UnicodeEncode", (codes, splits), dtypes.int32,
                   {"output_encoding": encoding, "errors": "replace", "replacement_char": int(replacement_char)})


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """Code points as strings: a 1-D tensor as one string, each row of a RaggedTensor or matrix as one."""
    _check_errors(errors)
    attrs = {"output_encoding": output_encoding, "errors": errors, "replacement_char": int(replacement_char)}
    if isinstance(input, RaggedTensor):
        if isinstance(input.values, RaggedTensor):  # each innermost row is one string
            return input.with_values(unicode_encode(input.values, output_encoding, errors, replacement_char))
        if len(input.values.shape) != 1:  # the values' last dimension holds the code points
            return input.with_values(unicode_encode(input.values, output_encoding, errors, replacement_char))
        return execute("UnicodeEncode", (input.values, input.row_splits), dtypes.int32, attrs)
    codes = convert_to_tensor(input, dtype=dtypes.int32)
    rank = len(codes.shape)
    if rank == 1:
        splits = convert_to_tensor([0, int(codes.shape[0])], dtype=dtypes.int64)
        return array_ops.reshape(execute("UnicodeEncode", (codes, splits), dtypes.int32, attrs), [])
    if rank == 2:
        rows, width = int(codes.shape[0]), int(codes.shape[1])
        splits = convert_to_tensor([i * width for i in range(rows + 1)], dtype=dtypes.int64)
        return execute("UnicodeEncode", (array_ops.reshape(codes, [-1]), splits), dtypes.int32, attrs)
    if rank == 0:
        raise ValueError(f"unicode_encode needs code points of rank 1 or more, got a scalar: {codes!r}; pass a "
                         f"list of code points.")
    rows = array_ops.reshape(codes, [-1, codes.shape[-1]])  # rank >= 3: encode each innermost row, keep the rest
    return array_ops.reshape(unicode_encode(rows, output_encoding, errors, replacement_char),
                             array_ops.shape(codes)[:-1])


def unicode_transcode(input, input_encoding, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                      replace_control_characters=False, name=None):
    """Each string re-encoded from `input_encoding` to `output_encoding`."""
    _check_errors(errors)
    tensor = convert_to_tensor(input, dtype=dtypes.string) if isinstance(input, (str, bytes, list)) else \
        convert_to_tensor(input)
    return execute("UnicodeTranscode", (tensor,), dtypes.string,
                   {"input_encoding": input_encoding, "output_encoding": output_encoding, "errors": errors,
                    "replacement_char": int(replacement_char),
                    "replace_control_characters": bool(replace_control_characters)})


def bytes_split(input, name=None):  # noqa: A002
    """The bytes of each string, each as a one-byte string."""
    flat, source = _strings(input)
    values, splits = execute("_StringBytesSplit", (flat,), dtypes.string)
    return _rows(source, splits, values)


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None, preserve_short_sequences=False,
           name=None):
    """The n-grams of a sequence of strings (the last dimension): a vector gives a vector; a matrix or a
    RaggedTensor, one row of n-grams per row. Several widths give each width's n-grams in turn."""
    widths = [int(ngram_width)] if isinstance(ngram_width, int) else [int(w) for w in ngram_width]
    if pad_values is None:
        left = right = b""
        pad_width = 0
        if padding_width is not None:
            raise ValueError("padding_width requires pad_values")
    else:
        left, right = (pad_values, pad_values) if isinstance(pad_values, (str, bytes)) else tuple(pad_values)
        left, right = (v.encode("utf-8") if isinstance(v, str) else v for v in (left, right))
        pad_width = -1 if padding_width is None else int(padding_width)
        if padding_width is not None and padding_width < 1:
            raise ValueError("padding_width must be greater than 0.")
    if isinstance(data, RaggedTensor) and isinstance(data.values, RaggedTensor):  # n-grams of innermost rows
        return data.with_values(ngrams(data.values, ngram_width, separator, pad_values, padding_width,
                                       preserve_short_sequences))
    if isinstance(data, RaggedTensor):
        values, splits, rank = data.values, data.row_splits, 2
    else:
        tensor = convert_to_tensor(data, dtype=dtypes.string) if isinstance(data, (list, str, bytes)) else \
            convert_to_tensor(data)
        rank = len(tensor.shape)
        if rank == 0:
            raise ValueError(f"tf.strings.ngrams needs a sequence of strings (rank 1 or more), got a scalar: "
                             f"{tensor!r}; pass a list of strings.")
        if rank > 2:  # n-grams of each innermost row, under the other dimensions (a dense result, as TF)
            grams = ngrams(array_ops.reshape(tensor, [-1, tensor.shape[-1]]), ngram_width, separator, pad_values,
                           padding_width, preserve_short_sequences)
            from .array_ops import concat
            return array_ops.reshape(grams, concat([array_ops.shape(tensor)[:-1], array_ops.shape(grams)[1:]], 0))
        rows = 1 if rank == 1 else int(tensor.shape[0])
        length = int(tensor.shape[-1])
        values = array_ops.reshape(tensor, [-1])
        splits = convert_to_tensor([i * length for i in range(rows + 1)], dtype=dtypes.int64)
    grams, gram_splits = execute("StringNGrams", (values, splits), dtypes.string,
                                 {"separator": separator.encode("utf-8") if isinstance(separator, str) else separator,
                                  "ngram_widths": tuple(widths), "left_pad": left, "right_pad": right,
                                  "pad_width": pad_width, "preserve_short_sequences": bool(preserve_short_sequences)})
    if rank == 1:
        return grams
    ragged = RaggedTensor(grams, gram_splits, internal=True)
    return ragged if isinstance(data, RaggedTensor) else ragged.to_tensor()


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """The strings of each of `num_segments` segments joined by `separator`, in order of appearance."""
    tensor = convert_to_tensor(inputs, dtype=dtypes.string) if isinstance(inputs, (list, str, bytes)) else \
        convert_to_tensor(inputs)
    ids = convert_to_tensor(segment_ids)
    return execute("UnsortedSegmentJoin", (tensor, ids, convert_to_tensor(num_segments)), dtypes.string,
                   {"separator": separator.encode("utf-8") if isinstance(separator, str) else separator}, name=name)
