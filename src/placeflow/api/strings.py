"""placeflow.strings: join, length, split, as_string, upper, lower, to_number, the hash buckets (strings are
bytes, as in TF)."""

from __future__ import annotations

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes, errors


def _strings(value):
    tensor = convert_to_tensor(value)
    if tensor.dtype != dtypes.string:  # TF: the op's type constraint, InvalidArgumentError eagerly, TypeError in graphs
        from ..framework import graph_mode
        if graph_mode.active() is not None:
            raise TypeError(f"Value passed to parameter 'input' has DataType {tensor.dtype.name} not in list of "
                            f"allowed values: string\nplaceflow: convert numbers with placeflow.strings.as_string "
                            f"first.")
        raise errors.InvalidArgumentError(None, None, f"Expected a string tensor, got dtype {tensor.dtype.name}: "
                                                      f"{tensor!r}\nplaceflow: convert numbers with "
                                                      f"placeflow.strings.as_string first.")
    return tensor


def _bytes(text) -> bytes:
    return text.encode("utf-8") if isinstance(text, str) else bytes(text)


def join(inputs, separator="", name=None):
    """The inputs joined elementwise (broadcast) with `separator`."""
    tensors = [_strings(t) for t in inputs]
    return execute("StringJoin", tuple(tensors), dtypes.string, {"separator": _bytes(separator)}, name=name)


def length(input, unit="BYTE", name=None):  # noqa: A002 - TensorFlow's parameter name
    """Bytes per string, or characters with unit='UTF8_CHAR'."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}")
    return execute("StringLength", (_strings(input),), dtypes.string, {"unit": unit}, name=name)


def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """The parts of each string: a 1-D tensor for a scalar; for strings of rank N (dense or ragged), a
    RaggedTensor of ragged rank N whose innermost rows are the parts (TF's shape)."""
    from .ragged import RaggedTensor, split_rows
    from .unicode_strings import nest_rows
    source = input if isinstance(input, RaggedTensor) else convert_to_tensor(input)
    if source.dtype != dtypes.string:
        raise ValueError(f"input: Tensor conversion requested dtype string for Tensor with dtype "
                         f"{source.dtype.name}: {source!r}")
    sep = None if sep is None else _bytes(sep)
    if not isinstance(source, RaggedTensor) and source.shape is not None and len(source.shape) == 0:
        return execute("StringSplitScalar", (source,), dtypes.string, {"sep": sep, "maxsplit": int(maxsplit)},
                       name=name)
    if source.shape is None:
        raise NotImplementedError("strings.split of strings of unknown rank is not implemented in placeflow; give "
                                  "the input a known rank.")
    flat = source.flat_values if isinstance(source, RaggedTensor) else source
    from .array_ops import reshape
    return nest_rows(source, split_rows(reshape(flat, [-1]), sep, maxsplit, name))


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):  # noqa: A002
    """Each number as a string, formatted as TensorFlow formats it."""
    tensor = convert_to_tensor(input)
    return execute("AsString", (tensor,), tensor.dtype, {"precision": int(precision), "scientific": bool(scientific),
                                                         "shortest": bool(shortest), "width": int(width),
                                                         "fill": fill}, name=name)


def upper(input, encoding="", name=None):  # noqa: A002
    """Each string in upper case: ASCII letters only, or every letter with encoding='utf-8' (as TF)."""
    return execute("StringUpper", (_strings(input),), dtypes.string, {"encoding": encoding}, name=name)


def lower(input, encoding="", name=None):  # noqa: A002
    """Each string in lower case: ASCII letters only, or every letter with encoding='utf-8' (as TF)."""
    return execute("StringLower", (_strings(input),), dtypes.string, {"encoding": encoding}, name=name)


def to_number(input, out_type=dtypes.float32, name=None):  # noqa: A002 - TensorFlow's argument name
    """Each string parsed as a number."""
    out_type = dtypes.as_dtype(out_type)
    return execute("StringToNumber", (_strings(input),), dtypes.string, {"out_type": out_type}, name=name)


def _buckets(num_buckets) -> int:
    buckets = int(num_buckets)
    if buckets < 1:
        raise errors.InvalidArgumentError(None, None, f"`num_buckets` must be >= 1; got {num_buckets!r}.")
    return buckets


def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002
    """Each string's FarmHash Fingerprint64 modulo `num_buckets` (int64), as TensorFlow computes it."""
    return execute("StringToHashBucketFast", (_strings(input),), dtypes.string,
                   {"num_buckets": _buckets(num_buckets)}, name=name)


def to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """Each string's SipHash-2-4 under `key` (two integers) modulo `num_buckets` (int64)."""
    key = [int(k) for k in key]
    if len(key) != 2:
        raise errors.InvalidArgumentError(None, None, f"Key must have 2 elements; got {len(key)}: {key}.")
    return execute("StringToHashBucketStrong", (_strings(input),), dtypes.string,
                   {"num_buckets": _buckets(num_buckets), "key": tuple(key)}, name=name)


def to_hash_bucket(input, num_buckets, name=None):  # noqa: A002 - TensorFlow's argument name
    """Each string's TensorFlow Hash64 modulo `num_buckets` (the legacy op; prefer to_hash_bucket_fast)."""
    return execute("StringToHashBucket", (_strings(input),), dtypes.string,
                   {"num_buckets": _buckets(num_buckets)}, name=name)


def fingerprint(data, method="farmhash64", name=None):
    """An [N, 8] uint8 fingerprint of each row data[i] (FarmHash Fingerprint64, little-endian)."""
    if method != "farmhash64":
        raise errors.InvalidArgumentError(None, None, f"Unsupported fingerprint method: {method}; the one method "
                                                      f"is 'farmhash64'.")
    tensor = convert_to_tensor(data)
    return execute("Fingerprint", (tensor,), tensor.dtype, {"method": b"farmhash64"}, name=name)


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """Each string with the matches of `pattern` (RE2 syntax shared with Python's re) replaced by `rewrite`
    (\\1.. for groups): all of them, or the first with replace_global=False."""
    return execute("StaticRegexReplace", (_strings(input),), dtypes.string,
                   {"pattern": _static_bytes(pattern, "pattern"), "rewrite": _static_bytes(rewrite, "rewrite"),
                    "replace_global": bool(replace_global)}, name=name)


def regex_full_match(input, pattern, name=None):  # noqa: A002
    """Whether each whole string matches `pattern`."""
    return execute("StaticRegexFullMatch", (_strings(input),), dtypes.string,
                   {"pattern": _static_bytes(pattern, "pattern")}, name=name)


def strip(input, name=None):  # noqa: A002
    """Each string without leading and trailing whitespace."""
    return execute("StringStrip", (_strings(input),), dtypes.string, name=name)


def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002 - TensorFlow's parameter names
    """`len` bytes (or UTF-8 characters with unit='UTF8_CHAR') of each string from `pos` (negative: from the end);
    pos and len broadcast with the strings."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}")
    positions, lengths = (convert_to_tensor(v) for v in (pos, len))
    if positions.shape is not None and lengths.shape is not None and tuple(positions.shape) != tuple(lengths.shape):
        from ..framework import graph_mode
        shapes = f"{list(positions.shape)} vs. {list(lengths.shape)}".replace(" ", "").replace("vs.", " vs. ")
        message = f"pos and len should have the same shape, got: {shapes}"
        if graph_mode.active() is not None:
            raise ValueError(message)
        raise errors.InvalidArgumentError(None, None, f"{message} [Op:Substr]")
    return execute("Substr", (_strings(input), positions, lengths), dtypes.string, {"unit": unit}, name=name)


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """The strings joined along `axis` (all when None) with `separator`."""
    import numpy as np
    axes = None if axis is None else tuple(int(a) for a in np.atleast_1d(axis))
    return execute("ReduceJoin", (_strings(inputs),), dtypes.string,
                   {"axes": axes, "keep_dims": bool(keepdims), "separator": _bytes(separator)}, name=name)


def _static_bytes(value, what: str) -> bytes:
    if hasattr(value, "dtype"):
        from .array_ops import get_static_value
        known = get_static_value(value)
        if known is None:
            raise NotImplementedError(f"a regular-expression {what} computed when the graph runs is not implemented "
                                      f"in placeflow; pass a Python string.")
        value = known.item() if hasattr(known, "item") else known
    return _bytes(value)


def format(template, inputs, placeholder="{}", summarize=3, name=None):  # noqa: A001 - TensorFlow's name
    """A scalar string: `template` with each `placeholder` replaced by the next tensor of `inputs`, written as
    TensorFlow summarizes tensors (each dimension cut to its first and last `summarize` entries)."""
    values = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    expected = str(template).count(placeholder)
    if expected != len(values):
        raise ValueError(f"The template expects {expected} tensors, but the inputs only has {len(values)}. Please "
                         f"ensure the number of placeholders in template matches inputs length.")
    tensors = [convert_to_tensor(v) for v in values]
    return execute("StringFormat", tuple(tensors), tensors[0].dtype if tensors else dtypes.string,
                   {"template": _bytes(template), "placeholder": _bytes(placeholder),
                    "summarize": int(summarize)}, name=name)


from .unicode_strings import (  # noqa: E402,F401 - tf.strings' Unicode functions, n-grams and segment joins
    bytes_split, ngrams, unicode_decode, unicode_decode_with_offsets, unicode_encode, unicode_split,
    unicode_split_with_offsets, unicode_transcode, unsorted_segment_join,
)
