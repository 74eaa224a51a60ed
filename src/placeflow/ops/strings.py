"""String ops (CPU only, as TensorFlow's): join, length, split of a scalar, as_string, upper/lower, to_number,
the hash buckets and fingerprints (string_hashes.py has the hash functions).

Strings are object arrays of bytes, as TensorFlow's; text is UTF-8."""

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from . import shape_rules as rules
from . import string_hashes
from .registry import ALL, ANY, NOT_DIFFERENTIABLE, define

STRING = frozenset({d.string})


def _map(array, fn, dtype=object):
    out = np.empty(np.shape(array), dtype=dtype)
    flat = out.reshape(-1)
    for index, item in enumerate(np.asarray(array, dtype=object).reshape(-1)):
        flat[index] = fn(item)
    return out


def _raw(item) -> bytes:
    return item.encode("utf-8") if isinstance(item, str) else bytes(item)


def _text(item) -> str:
    return item.decode("utf-8") if isinstance(item, bytes) else str(item)


@define("StringJoin", STRING, gpu=(), shape=rules.broadcast, grad=NOT_DIFFERENTIABLE)
def _join(xp, *inputs, separator=b""):
    """Elementwise concatenation of the inputs (broadcast), separated by `separator`."""
    arrays = np.broadcast_arrays(*[np.asarray(a, dtype=object) for a in inputs])
    out = np.empty(arrays[0].shape, dtype=object)
    flat = out.reshape(-1)
    columns = [a.reshape(-1) for a in arrays]
    for index in range(flat.size):
        flat[index] = separator.join(column[index] for column in columns)
    return out


@define("StringLength", STRING, gpu=(), shape=rules.same, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: d.int32)
def _length(xp, a, unit="BYTE"):
    """Bytes (or UTF-8 characters) per string."""
    if unit == "UTF8_CHAR":
        return _map(a, lambda s: len(_text(s)), np.int32)
    return _map(a, len, np.int32)


@define("StringSplitScalar", STRING, gpu=(), shape=lambda shapes, attrs: (None,), grad=NOT_DIFFERENTIABLE)
def _split(xp, a, sep=None, maxsplit=-1):
    """The parts of one string (sep None: split on runs of whitespace, as Python and TF do)."""
    parts = a.item().split(sep, maxsplit) if sep is not None else a.item().split(None, maxsplit)
    out = np.empty(len(parts), dtype=object)
    out[:] = parts
    return out


@define("AsString", ALL - STRING, gpu=(), shape=rules.same, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: d.string)
def _as_string(xp, a, precision=-1, scientific=False, shortest=False, width=-1, fill=""):
    """Each number formatted as TensorFlow does (floats with 6 decimals unless precision says)."""
    if a.dtype.kind == "b":
        return _map(a, lambda v: b"true" if v else b"false")
    pad = f"{fill or ''}{'' if width < 0 else width}" if width >= 0 else ""
    if a.dtype.kind == "f":
        kind = "e" if scientific else ("g" if shortest else "f")
        spec = f"%{pad}{'' if precision < 0 else '.' + str(precision)}{kind}"
    elif a.dtype.kind == "c":
        raise InvalidArgumentError(None, None, "as_string of complex numbers is not implemented in placeflow")
    else:
        spec = f"%{pad}d"
    return _map(a, lambda v: (spec % v).encode())


def _case(text_fn, bytes_fn):
    """Case mapping as TF's: ASCII letters only without an encoding, every Unicode letter with 'utf-8'."""
    def kernel(xp, a, encoding=""):
        if encoding == "":
            return _map(a, lambda s: bytes_fn(s if isinstance(s, bytes) else str(s).encode("utf-8")))
        if encoding != "utf-8":
            raise InvalidArgumentError(None, None, f"only utf-8 or '' (no encoding) is supported, received "
                                                   f"{encoding}")
        return _map(a, lambda s: text_fn(_text(s)).encode("utf-8"))
    return kernel


define("StringUpper", STRING, gpu=(), shape=rules.same, grad=NOT_DIFFERENTIABLE)(
    _case(str.upper, bytes.upper))
define("StringLower", STRING, gpu=(), shape=rules.same, grad=NOT_DIFFERENTIABLE)(
    _case(str.lower, bytes.lower))


@define("StringToNumber", STRING, gpu=(), shape=rules.same, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: attrs.get("out_type", d.float32))
def _to_number(xp, a, out_type=d.float32):
    """Each string parsed as a number of `out_type`; a malformed one is InvalidArgumentError (TF's text)."""
    def parse(item):
        text = _text(item)
        try:
            return float(text) if out_type.is_floating else int(text)
        except ValueError:
            raise InvalidArgumentError(None, None, f"StringToNumberOp could not correctly convert string: "
                                                   f"{text}") from None
    return _map(a, parse, out_type.numpy_dtype)


def _bucket_of(hash_fn):
    def kernel(xp, a, num_buckets, **key):
        buckets = int(num_buckets)
        return _map(a, lambda s: hash_fn(_raw(s), **key) % buckets, np.int64)
    return kernel


_INT64_OUT = {"shape": rules.same, "grad": NOT_DIFFERENTIABLE, "gpu": (), "dtype": lambda dtype, attrs: d.int64}
define("StringToHashBucketFast", STRING, **_INT64_OUT)(
    _bucket_of(lambda s: string_hashes.fingerprint64(s)))
define("StringToHashBucketStrong", STRING, **_INT64_OUT)(
    _bucket_of(lambda s, key: string_hashes.siphash24(tuple(key), s)))
define("StringToHashBucket", STRING, **_INT64_OUT)(_bucket_of(lambda s: string_hashes.hash64(s)))


def _fingerprint_shape(shapes, attrs):
    if shapes[0] is not None and len(shapes[0]) == 0:
        raise rules.Incompatible("`data` should have at least one dimension: []")
    return None if shapes[0] is None else (shapes[0][0], 8)


@define("Fingerprint", ALL | STRING, gpu=(), shape=_fingerprint_shape, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: d.uint8)
def _fingerprint(xp, data, method=b"farmhash64"):
    """Per row data[i]: FarmHash's Fingerprint64 of its bytes, little-endian (strings: of the one string, or
    of the concatenated fingerprints of the row's strings)."""
    if data.ndim == 0:
        raise InvalidArgumentError(None, None, "`data` should have at least one dimension: []")
    rows = data.reshape(data.shape[0], -1)
    out = np.empty((data.shape[0], 8), np.uint8)
    for index, row in enumerate(rows):
        if data.dtype != object:
            value = string_hashes.fingerprint64(np.ascontiguousarray(row).tobytes())
        elif row.size == 1:
            value = string_hashes.fingerprint64(_raw(row[0]))
        else:
            value = string_hashes.fingerprint64(b"".join(
                string_hashes.fingerprint64(_raw(s)).to_bytes(8, "little") for s in row))
        out[index] = np.frombuffer(value.to_bytes(8, "little"), np.uint8)
    return out


# -- regular expressions (RE2's syntax for what it shares with Python's `re`) and slicing -------------------------

def _regex(pattern: bytes):
    import re
    if b"\\p{" in pattern or b"\\P{" in pattern:
        raise InvalidArgumentError(None, None, f"Unicode classes (\\p{{...}}) in regular expressions are not "
                                               f"implemented in placeflow: {pattern!r}")
    try:
        return re.compile(pattern)
    except re.error as error:
        raise InvalidArgumentError(None, None, f"Invalid pattern: {pattern.decode('utf-8', 'replace')}, error: "
                                               f"{error}") from None


def _rewrite(rewrite: bytes) -> bytes:
    """RE2's rewrite (\\0 the whole match, \\1.. groups) in Python's template form."""
    import re
    return re.sub(rb"\\(\d)", lambda m: rb"\g<" + m.group(1) + rb">", rewrite)


@define("StaticRegexReplace", STRING, gpu=(), shape=rules.same, grad=NOT_DIFFERENTIABLE)
def _regex_replace(xp, a, pattern=b"", rewrite=b"", replace_global=True):
    """Each string with its matches of `pattern` replaced by `rewrite` (all of them, or the first)."""
    compiled, template = _regex(pattern), _rewrite(rewrite)
    return _map(a, lambda s: compiled.sub(template, _raw(s), count=0 if replace_global else 1))


@define("StaticRegexFullMatch", STRING, gpu=(), shape=rules.same, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: d.bool)
def _regex_full_match(xp, a, pattern=b""):
    """Whether each whole string matches `pattern`."""
    compiled = _regex(pattern)
    return _map(a, lambda s: compiled.fullmatch(_raw(s)) is not None, np.bool_)


@define("StringStrip", STRING, gpu=(), shape=rules.same, grad=NOT_DIFFERENTIABLE)
def _strip(xp, a):
    """Each string without leading and trailing ASCII whitespace."""
    return _map(a, lambda s: _raw(s).strip(b" \t\n\v\f\r"))


@define("Substr", STRING, gpu=(), shape=rules.broadcast, grad=NOT_DIFFERENTIABLE)
def _substr(xp, a, pos, length, unit="BYTE"):
    """Each string's `length` bytes (or UTF-8 characters) from `pos` (negative: from the end), as TF's Substr."""
    strings, starts, lengths = np.broadcast_arrays(np.asarray(a, dtype=object), np.asarray(pos), np.asarray(length))
    out = np.empty(strings.shape, dtype=object)
    for index in np.ndindex(strings.shape):
        raw = _raw(strings[index])
        units = _text(raw) if unit == "UTF8_CHAR" else raw
        start, count = int(starts[index]), int(lengths[index])
        if start < 0:
            start += len(units)
        if not 0 <= start <= len(units):
            raise InvalidArgumentError(None, None, f"pos {int(starts[index])} out of range for string b'"
                                                   f"{raw.decode('utf-8', 'replace')}' at index {list(index)}")
        piece = units[start:start + max(count, 0)]
        out[index] = piece.encode("utf-8") if unit == "UTF8_CHAR" else piece
    return out


def _reduce_join_shape(shapes, attrs):
    shape = shapes[0]
    if shape is None:
        return None
    axes = {a % len(shape) for a in attrs["axes"]} if attrs["axes"] is not None else set(range(len(shape)))
    if attrs["keep_dims"]:
        return tuple(1 if i in axes else dim for i, dim in enumerate(shape))
    return tuple(dim for i, dim in enumerate(shape) if i not in axes)


@define("ReduceJoin", STRING, gpu=(), shape=_reduce_join_shape, grad=NOT_DIFFERENTIABLE)
def _reduce_join(xp, a, axes=None, keep_dims=False, separator=b""):
    """The strings joined along `axes` (all when None) with `separator`, in row-major order."""
    array = np.asarray(a, dtype=object)
    axes = tuple(range(array.ndim)) if axes is None else tuple(sorted(ax % array.ndim for ax in axes))
    kept = [i for i in range(array.ndim) if i not in axes]
    moved = array.transpose(kept + list(axes)).reshape([array.shape[i] for i in kept] + [-1])
    out = np.empty(moved.shape[:-1], dtype=object)
    for index in np.ndindex(out.shape):
        out[index] = separator.join(_raw(s) for s in moved[index])
    if keep_dims:
        out = out.reshape([1 if i in axes else array.shape[i] for i in range(array.ndim)])
    return out


# -- tf.strings.format: tensors written as TensorFlow summarizes them --------------------------------------------

def _element(value, kind: str, itemsize: int) -> str:
    if kind == "b":
        return "1" if value else "0"
    if kind == "f":  # TensorFlow's FloatToBuffer: 6 (15) significant digits, 9 (17) when those do not round-trip
        short, long = (15, 17) if itemsize == 8 else (6, 9)
        kind_of = np.float64 if itemsize == 8 else np.float32
        text = "%.*g" % (short, float(value))
        return text if np.isnan(value) or kind_of(float(text)) == kind_of(value) else "%.*g" % (long, float(value))
    if kind in "iu":
        return str(int(value))
    return '"' + (value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)) + '"'


def summarize(array: np.ndarray, summarize_count: int, depth: int = 0) -> str:
    """TensorFlow's text of a tensor: scalars bare, arrays bracketed with each dimension cut to its first and last
    `summarize_count` entries around '...' (all of them when negative); rows on their own lines."""
    kind, itemsize = array.dtype.kind, array.dtype.itemsize
    if array.ndim == 0:
        return _element(array.item() if kind != "O" else array[()], kind, itemsize)
    count = array.shape[0]
    if 0 <= summarize_count and count > 2 * summarize_count:
        rows = list(range(summarize_count)) + [None] + list(range(count - summarize_count, count))
    else:
        rows = list(range(count))
    if array.ndim == 1:
        return "[" + " ".join("..." if i is None else _element(array[i], kind, itemsize) for i in rows) + "]"
    separator = "\n" * (array.ndim - 1) + " " * (depth + 1)
    return "[" + separator.join("..." if i is None else summarize(array[i], summarize_count, depth + 1)
                                for i in rows) + "]"


@define("StringFormat", ANY, gpu=(), shape=rules.scalar, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: d.string)
def _string_format(xp, *inputs, template=b"{}", placeholder=b"{}", summarize=3):
    """`template` with each placeholder replaced by the next input's summary."""
    pieces = template.split(placeholder)
    texts = [summarize_array(np.asarray(v.get() if hasattr(v, "get") else v), int(summarize)) for v in inputs]
    out = np.empty((), dtype=object)
    out[()] = "".join(piece + (texts[i] if i < len(texts) else "") for i, piece in enumerate(
        [p.decode("utf-8") for p in pieces])).encode("utf-8")
    return out


summarize_array = summarize


_C_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"', ord("'"): "\\'",
              ord("\\"): "\\\\"}


def _c_escape(raw: bytes) -> str:
    """C's escaping of a UTF-8 byte string (absl's Utf8SafeCEscape): quotes, backslashes and controls escaped,
    other control bytes as three octal digits, UTF-8 sequences kept."""
    escaped = b"".join(_C_ESCAPES[b].encode() if b in _C_ESCAPES else bytes([b]) if b >= 32 and b != 127
                       else f"\\{b:03o}".encode() for b in raw)
    return escaped.decode("utf-8", "replace")


def summarize_v1(array: np.ndarray, max_entries: int) -> str:
    """TensorFlow's older tensor text (its Assert op's): the first `max_entries` values in row-major order,
    rows bracketed without separators (`[1 2][3 4]`), strings bare, '...' where values were left out."""
    flat = array.reshape(-1)
    limit = flat.size if max_entries < 0 else min(max_entries, flat.size)
    kind, itemsize = array.dtype.kind, array.dtype.itemsize

    def element(value):
        if kind == "O" or kind in "SU":
            return _c_escape(value if isinstance(value, bytes) else str(value).encode("utf-8"))
        return _element(value, kind, itemsize)
    if array.ndim <= 1:
        text = " ".join(element(flat[i]) for i in range(limit))
        return text + ("..." if limit < flat.size else "")
    out, index = [], [0]

    def one_dim(dim):
        if index[0] >= limit:
            return
        if dim == array.ndim - 1:
            for i in range(array.shape[dim]):
                if index[0] >= limit:
                    out.append("...")
                    return
                out.append((" " if i else "") + element(flat[index[0]]))
                index[0] += 1
            return
        for _ in range(array.shape[dim]):
            opened = index[0] < limit
            if opened:
                out.append("[")
            one_dim(dim + 1)
            if opened or index[0] < limit:
                out.append("]")
    one_dim(0)
    return "".join(out) + ("..." if limit < flat.size else "")
