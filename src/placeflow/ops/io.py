"""File ops on the host: ReadFile (a file's bytes as a string scalar) and WriteFile (a side effect, run in
program order inside `function`, as prints are); SerializeTensor and ParseTensor (TensorProto bytes)."""

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError, NotFoundError, PermissionDeniedError
from . import shape_rules as rules
from .registry import ANY, NOT_DIFFERENTIABLE, bool_output, define

STRING = frozenset({d.string})


def _path(value) -> str:
    item = value.item() if hasattr(value, "item") else value
    return item.decode("utf-8") if isinstance(item, bytes) else str(item)


@define("ReadFile", STRING, gpu=(), shape=rules.scalar, grad=NOT_DIFFERENTIABLE)
def _read_file(xp, filename):
    """The bytes of the file `filename` names."""
    path = _path(filename)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise NotFoundError(None, None, f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise PermissionDeniedError(None, None, f"{path}; Is a directory") from None
    except PermissionError:
        raise PermissionDeniedError(None, None, f"{path}; Permission denied") from None
    out = np.empty((), dtype=object)
    out[()] = data
    return out


@define("WriteFile", STRING, gpu=(), shape=rules.scalar, grad=NOT_DIFFERENTIABLE, dtype=bool_output)
def _write_file(xp, filename, contents):
    """Write `contents` to `filename` (its directory is created, as TensorFlow does)."""
    import os
    path = _path(filename)
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    item = contents.item() if hasattr(contents, "item") else contents
    with open(path, "wb") as handle:
        handle.write(item if isinstance(item, bytes) else str(item).encode("utf-8"))
    return np.asarray(True)


def _parse_dtype(dtype, attrs):
    return attrs["out_type"]


@define("SerializeTensor", ANY, gpu=(), shape=rules.scalar, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: d.string)
def _serialize_tensor(xp, tensor, T=None):  # noqa: N803 - TensorFlow's attribute name
    """The TensorProto of `tensor` as a string scalar (TF's bytes: dtype, shape, raw little-endian content)."""
    from ..framework import tensor_proto
    out = np.empty((), dtype=object)
    out[()] = tensor_proto.encode(np.asarray(tensor), T)
    return out


@define("ParseTensor", STRING, gpu=(), shape=lambda shapes, attrs: None, grad=NOT_DIFFERENTIABLE, dtype=_parse_dtype)
def _parse_tensor(xp, serialized, out_type=None):
    """The tensor a serialized TensorProto holds; InvalidArgumentError when its dtype is not `out_type`."""
    from ..framework import tensor_proto
    item = np.asarray(serialized)
    if item.ndim != 0:
        raise InvalidArgumentError(None, None, f"Expected `serialized` to be a scalar, got shape: {list(item.shape)}")
    value, dtype = tensor_proto.decode(item.item())
    if dtype != out_type:
        raise InvalidArgumentError(None, None, f"Type mismatch between parsed tensor ({d.cpp_name(dtype)}) and dtype "
                                               f"({d.cpp_name(out_type)})")
    return value


# -- text and byte decoders (TF's DecodeCSV, DecodeRaw, EncodeBase64, DecodeBase64, DecodeCompressed) ----------

def _text(value) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def csv_fields(record: bytes, delim: bytes, quoted: bool, index: int) -> list:
    """The fields of one CSV record: TF's rules (a quoted field may hold the delimiter and doubled quotes)."""
    fields, at, size = [], 0, len(record)
    while True:
        if quoted and at < size and record[at:at + 1] == b'"':
            value, at = bytearray(), at + 1
            while True:
                if at >= size:
                    raise InvalidArgumentError(None, None, f"Quoted field has to end with quote followed by delim or "
                                                           f"end in record {index}")
                if record[at:at + 1] == b'"':
                    if record[at + 1:at + 2] == b'"':
                        value += b'"'
                        at += 2
                        continue
                    at += 1
                    break
                value += record[at:at + 1]
                at += 1
            if at < size and record[at:at + 1] != delim:
                raise InvalidArgumentError(None, None, f"Quoted field has to end with quote followed by delim or end "
                                                       f"in record {index}")
            fields.append(bytes(value))
        else:
            end = record.find(delim, at)
            end = size if end < 0 else end
            fields.append(record[at:end])
            at = end
        if at >= size:
            return fields
        at += 1
        if at == size:
            fields.append(b"")
            return fields


def _csv_value(text: bytes, dtype, field: int, record: int):
    if dtype == d.string:
        return text
    try:
        if dtype.is_integer:
            value = int(text.decode("ascii").strip())
            limits = np.iinfo(dtype.numpy_dtype)
            if not limits.min <= value <= limits.max:
                raise ValueError(text)
            return value
        return float(text.decode("ascii").strip())
    except (ValueError, UnicodeDecodeError):
        name = "float" if dtype == d.float32 else "double" if dtype == d.float64 else dtype.name
        raise InvalidArgumentError(None, None, f"Field {field} in record {record} is not a valid {name}: "
                                               f"{text.decode('utf-8', 'replace')}") from None


def _decode_csv_dtypes(dtype, attrs):
    types = list(attrs["OUT_TYPE"])
    return types[0] if len(types) == 1 else types


def _decode_csv_shapes(shapes, attrs):
    count = len(attrs["OUT_TYPE"])
    return shapes[0] if count == 1 else [shapes[0]] * count


@define("DecodeCSV", ANY, gpu=(), grad=NOT_DIFFERENTIABLE, shape=_decode_csv_shapes, dtype=_decode_csv_dtypes)
def _decode_csv(xp, records, *defaults, OUT_TYPE=(), field_delim=",", use_quote_delim=True,  # noqa: N803
                na_value="", select_cols=()):
    """One tensor per column (shaped as `records`), each field parsed as its column's dtype; empty (or
    na_value) fields take the column's default, or fail for a column without one."""
    host = np.asarray(records, dtype=object)
    delim, na = _text(field_delim), _text(na_value)
    wanted = list(select_cols) if select_cols else list(range(len(OUT_TYPE)))
    columns = [np.empty(host.shape, dtype=object if t == d.string else t.numpy_dtype) for t in OUT_TYPE]
    for index, (position, raw) in enumerate(zip(np.ndindex(host.shape), host.reshape(-1))):
        fields = csv_fields(_text(raw), delim, bool(use_quote_delim), index)
        if select_cols:
            if max(wanted) >= len(fields):
                raise InvalidArgumentError(None, None, f"Expect {max(wanted) + 1} fields but have {len(fields)} in "
                                                       f"record {index}")
            fields = [fields[c] for c in wanted]
        elif len(fields) != len(OUT_TYPE):
            raise InvalidArgumentError(None, None, f"Expect {len(OUT_TYPE)} fields but have {len(fields)} in record "
                                                   f"{index}")
        for column, (text, dtype, default) in enumerate(zip(fields, OUT_TYPE, defaults)):
            if text == b"" or (na and text == na):
                fallback = np.asarray(default).reshape(-1)
                if fallback.size == 0:
                    raise InvalidArgumentError(None, None, f"Field {column} is required but missing in record "
                                                           f"{index}!")
                columns[column][position] = fallback[0]
            else:
                columns[column][position] = _csv_value(text, dtype, column, index)
    return columns[0] if len(columns) == 1 else tuple(columns)


@define("DecodeRaw", STRING, gpu=(), grad=NOT_DIFFERENTIABLE, dtype=lambda dtype, attrs: attrs["out_type"],
        shape=lambda shapes, attrs: None if shapes[0] is None else tuple(shapes[0]) + (None,))
def _decode_raw(xp, data, out_type=None, little_endian=True, fixed_length=None):
    """The bytes of each string reinterpreted as `out_type` numbers (all strings the same size, or zero-padded
    and cut to fixed_length bytes)."""
    host = np.asarray(data, dtype=object)
    items = [_text(v) for v in host.reshape(-1)]
    if fixed_length is not None:
        items = [item[:fixed_length].ljust(fixed_length, b"\x00") for item in items]
    if items and any(len(item) != len(items[0]) for item in items):
        bad = next(i for i, item in enumerate(items) if len(item) != len(items[0]))
        raise InvalidArgumentError(None, None, f"DecodeRaw requires input strings to all be the same size, but "
                                               f"element {bad} has size {len(items[0])} != {len(items[bad])}")
    kind = out_type.numpy_dtype.newbyteorder("<" if little_endian else ">") if out_type.size > 1 else \
        out_type.numpy_dtype
    width = len(items[0]) if items else 0
    if width % out_type.size:
        raise InvalidArgumentError(None, None, f"Input to DecodeRaw has length {width} that is not a multiple of "
                                               f"{out_type.size}, the size of {out_type.name}")
    values = np.frombuffer(b"".join(items), dtype=kind).astype(out_type.numpy_dtype)
    return values.reshape(host.shape + (width // out_type.size,))


@define("EncodeBase64", STRING, gpu=(), grad=NOT_DIFFERENTIABLE, shape=lambda shapes, attrs: shapes[0])
def _encode_base64(xp, data, pad=False):
    """Each string in web-safe base64 ('-' and '_'), '=' padding only when `pad`."""
    import base64
    host = np.asarray(data, dtype=object)
    out = np.empty(host.shape, dtype=object)
    for index, value in zip(np.ndindex(host.shape), host.reshape(-1)):
        encoded = base64.urlsafe_b64encode(_text(value))
        out[index] = encoded if pad else encoded.rstrip(b"=")
    return out


@define("DecodeBase64", STRING, gpu=(), grad=NOT_DIFFERENTIABLE, shape=lambda shapes, attrs: shapes[0])
def _decode_base64(xp, data):
    """Each web-safe base64 string decoded (padding optional)."""
    import base64
    import binascii
    host = np.asarray(data, dtype=object)
    out = np.empty(host.shape, dtype=object)
    for index, value in zip(np.ndindex(host.shape), host.reshape(-1)):
        text = _text(value)
        if any(c not in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=" for c in text):
            raise InvalidArgumentError(None, None, "Invalid character found in base64.")
        try:
            out[index] = base64.urlsafe_b64decode(text + b"=" * (-len(text.rstrip(b"=")) % 4))
        except (binascii.Error, ValueError):
            raise InvalidArgumentError(None, None, "Invalid base64 data.") from None
    return out


@define("DecodeCompressed", STRING, gpu=(), grad=NOT_DIFFERENTIABLE, shape=lambda shapes, attrs: shapes[0])
def _decode_compressed(xp, data, compression_type=""):
    """Each string decompressed ('' none, 'ZLIB', 'GZIP')."""
    import gzip
    import zlib
    host = np.asarray(data, dtype=object)
    out = np.empty(host.shape, dtype=object)
    for index, value in zip(np.ndindex(host.shape), host.reshape(-1)):
        raw = _text(value)
        try:
            out[index] = raw if not compression_type else zlib.decompress(raw) if compression_type == "ZLIB" else \
                gzip.decompress(raw)
        except (OSError, zlib.error) as error:
            from ..framework.errors import DataLossError
            raise DataLossError(None, None, f"{compression_type} decompression failed: {error}") from None
    return out
