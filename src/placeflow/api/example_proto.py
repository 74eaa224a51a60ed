"""tf.train.Example and its parts (Features, Feature, BytesList, FloatList, Int64List) with TensorFlow's
protocol-buffer encoding (framework/protobuf_wire.py), and tf.io.parse_single_example / parse_example with
FixedLenFeature and VarLenFeature. Parsing runs on the host eagerly (and so inside tf.data's map, which calls
its function eagerly); inside `function` it is refused by name."""

from __future__ import annotations

import collections
import struct

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes, errors, graph_mode
from ..framework.protobuf_wire import (field_bytes, field_packed_floats, field_packed_varints, fields,
                                       read_varint, signed64)


class _List:
    """A repeated value list (BytesList, FloatList, Int64List): `value` is a Python list."""

    _NUMBER = 0

    def __init__(self, value=()):
        self.value = [self._coerce(v) for v in value]

    @staticmethod
    def _coerce(value):
        return value

    def __eq__(self, other):
        return type(self) is type(other) and self.value == other.value

    def __repr__(self):
        return f"{type(self).__name__}(value={self.value!r})"


class BytesList(_List):
    """Byte strings (str is UTF-8 encoded)."""

    @staticmethod
    def _coerce(value):
        return value.encode("utf-8") if isinstance(value, str) else bytes(value)

    def _encode(self) -> bytes:
        return b"".join(field_bytes(1, v) for v in self.value)


class FloatList(_List):
    """32-bit floats."""

    @staticmethod
    def _coerce(value):
        return float(np.float32(value))

    def _encode(self) -> bytes:
        return field_packed_floats(1, self.value) if self.value else b""


class Int64List(_List):
    """64-bit integers."""

    @staticmethod
    def _coerce(value):
        return int(value)

    def _encode(self) -> bytes:
        return field_packed_varints(1, self.value) if self.value else b""


_KINDS = (("bytes_list", 1, BytesList), ("float_list", 2, FloatList), ("int64_list", 3, Int64List))


class Feature:
    """One feature: a bytes_list, float_list or int64_list (or none)."""

    def __init__(self, bytes_list=None, float_list=None, int64_list=None):
        given = [(name, value) for name, value in (("bytes_list", bytes_list), ("float_list", float_list),
                                                   ("int64_list", int64_list)) if value is not None]
        if len(given) > 1:
            raise ValueError(f"A Feature holds one of bytes_list, float_list, int64_list; got {[n for n, _ in given]}.")
        self.bytes_list, self.float_list, self.int64_list = bytes_list, float_list, int64_list

    def WhichOneof(self, name):  # noqa: N802 - protobuf's name
        """The name of the list this feature holds (None when empty)."""
        return next((kind for kind, _, _ in _KINDS if getattr(self, kind) is not None), None)

    def _encode(self) -> bytes:
        for kind, number, _ in _KINDS:
            value = getattr(self, kind)
            if value is not None:
                return field_bytes(number, value._encode())
        return b""

    def __eq__(self, other):
        return isinstance(other, Feature) and all(getattr(self, k) == getattr(other, k) for k, _, _ in _KINDS)

    def __repr__(self):
        kind = self.WhichOneof("kind")
        return f"Feature({kind}={getattr(self, kind)!r})" if kind else "Feature()"


class Features:
    """A map from names to Feature."""

    def __init__(self, feature=None):
        self.feature = dict(feature or {})

    def _encode(self) -> bytes:
        return b"".join(field_bytes(1, field_bytes(1, name) + field_bytes(2, value._encode()))
                        for name, value in sorted(self.feature.items()))  # map entries by key: deterministic bytes

    def __eq__(self, other):
        return isinstance(other, Features) and self.feature == other.feature

    def __repr__(self):
        return f"Features(feature={self.feature!r})"


class Example:
    """A record of named features: Example(features=Features(feature={...}))."""

    def __init__(self, features=None):
        self.features = features if features is not None else Features()

    def SerializeToString(self) -> bytes:  # noqa: N802 - protobuf's name
        """The protocol-buffer bytes of this example."""
        return field_bytes(1, self.features._encode()) if self.features.feature else b""

    @classmethod
    def FromString(cls, data) -> "Example":  # noqa: N802 - protobuf's name
        """The Example these protocol-buffer bytes encode."""
        example = cls()
        example.ParseFromString(data)
        return example

    def ParseFromString(self, data) -> None:  # noqa: N802 - protobuf's name
        """Read these protocol-buffer bytes into this example."""
        self.features = Features(_decode_features(bytes(data)))

    def __eq__(self, other):
        return isinstance(other, Example) and self.features == other.features

    def __repr__(self):
        return f"Example(features={self.features!r})"


def _decode_features(data: bytes) -> dict:
    found = {}
    for number, _, message in fields(data):
        if number != 1:
            continue
        for inner, _, features in fields(message):
            if inner != 1:
                continue
            name, feature = b"", b""
            for key, _, value in fields(features):
                if key == 1:
                    name = value
                elif key == 2:
                    feature = value
            found[name.decode("utf-8")] = _decode_feature(feature)
    return found


def _decode_feature(data: bytes) -> Feature:
    for number, _, body in fields(data):
        if number == 1:
            return Feature(bytes_list=BytesList([v for key, _, v in fields(body) if key == 1]))
        if number == 2:
            return Feature(float_list=FloatList(_floats(body)))
        if number == 3:
            return Feature(int64_list=Int64List(_ints(body)))
    return Feature()


def _floats(body: bytes) -> list:
    values = []
    for _, wire_type, value in fields(body):
        if wire_type == 2:  # packed
            values.extend(struct.unpack(f"<{len(value) // 4}f", value))
        else:
            values.append(struct.unpack("<f", struct.pack("<I", value))[0])
    return values


def _ints(body: bytes) -> list:
    values = []
    for _, wire_type, value in fields(body):
        if wire_type == 2:  # packed
            at = 0
            while at < len(value):
                item, at = read_varint(value, at)
                values.append(signed64(item))
        else:
            values.append(signed64(value))
    return values


# -- parsing -------------------------------------------------------------------------------------------------------

FixedLenFeature = collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"],
                                         defaults=[None])
VarLenFeature = collections.namedtuple("VarLenFeature", ["dtype"])
_ALLOWED = (dtypes.string, dtypes.float32, dtypes.int64)


def _values_of(feature: Feature | None, dtype, key: str) -> list | None:
    if feature is None or feature.WhichOneof("kind") is None:
        return None
    kind = feature.WhichOneof("kind")
    wanted = {dtypes.string: "bytes_list", dtypes.float32: "float_list", dtypes.int64: "int64_list"}[dtype]
    if kind != wanted:
        raise errors.InvalidArgumentError(None, None, f"Name: <unknown>, Feature: {key}.  Data types don't match. "
                                                      f"Expected type: {_tf_name(dtype)}, Actual type: "
                                                      f"{_tf_name_of_kind(kind)}")
    return list(getattr(feature, kind).value)


def _tf_name(dtype) -> str:
    return {dtypes.string: "string", dtypes.float32: "float", dtypes.int64: "int64"}[dtype]


def _tf_name_of_kind(kind: str) -> str:
    return {"bytes_list": "string", "float_list": "float", "int64_list": "int64"}[kind]


def _host_values(values, dtype):
    if dtype == dtypes.string:
        array = np.empty(len(values), dtype=object)
        array[:] = values
        return array
    return np.asarray(values, dtype=dtype.numpy_dtype)


def _check_spec(key, spec):
    dtype = dtypes.as_dtype(spec.dtype)
    if dtype not in _ALLOWED:
        raise ValueError(f"Unsupported dtype {dtype.name} for feature {key!r}: tf.train.Example features are "
                         f"string, float32 or int64.")
    if not isinstance(spec, (FixedLenFeature, VarLenFeature)):
        raise ValueError(f"Unsupported feature specification for {key!r}: {spec!r} (FixedLenFeature and "
                         f"VarLenFeature are implemented in placeflow).")
    return dtype


def _parse_records(records: list, features: dict) -> dict:
    """{key: per-record host values} after checking each FixedLenFeature's size and defaults."""
    parsed = [Example.FromString(r).features.feature for r in records]
    out = {}
    for key, spec in features.items():
        dtype = _check_spec(key, spec)
        rows = []
        for index, found in enumerate(parsed):
            values = _values_of(found.get(key), dtype, key)
            if isinstance(spec, FixedLenFeature):
                shape = tuple(int(d) for d in spec.shape)
                size = int(np.prod(shape, dtype=np.int64)) if shape else 1
                if values is None:
                    if spec.default_value is None:
                        raise errors.InvalidArgumentError(None, None, f"Feature: {key} (data type: "
                                                          f"{_tf_name(dtype)}) is required but could not be found.")
                    values = list(np.broadcast_to(np.asarray(spec.default_value, dtype=object if dtype ==
                                                             dtypes.string else dtype.numpy_dtype), shape).reshape(-1))
                if len(values) != size:
                    raise errors.InvalidArgumentError(None, None, f"Key: {key}.  Can't parse serialized Example: "
                                                      f"expected {size} values, got {len(values)}.")
                rows.append(_host_values(values, dtype).reshape(shape))
            else:
                rows.append(_host_values(values or [], dtype))
        out[key] = rows
    return out


def _refuse_in_graph(what: str):
    if graph_mode.active() is not None:
        raise NotImplementedError(f"tf.io.{what} inside a function or graph is not implemented in placeflow; parse "
                                  f"eagerly (tf.data's map does) or before the function.")


def _records(serialized):
    values = serialized.numpy() if hasattr(serialized, "numpy") else np.asarray(serialized, dtype=object)
    return values


def parse_single_example(serialized, features, example_names=None, name=None):
    """{key: tensor} of one serialized Example: FixedLenFeature gives a dense tensor of its shape, VarLenFeature a
    1-D SparseTensor."""
    _refuse_in_graph("parse_single_example")
    from .sequence_example import has_new_kinds, parse_example_more
    if has_new_kinds(features):  # FixedLenSequenceFeature, SparseFeature, RaggedFeature
        return parse_example_more(serialized, features, batched=False)
    from .sparse import SparseTensor
    record = _records(serialized)
    if np.ndim(record) != 0:
        raise ValueError(f"Input serialized must be a scalar; got shape {np.shape(record)}.")
    parsed = _parse_records([record.item() if hasattr(record, "item") else record], features)
    out = {}
    for key, spec in features.items():
        dtype = dtypes.as_dtype(spec.dtype)
        row = parsed[key][0]
        if isinstance(spec, FixedLenFeature):
            out[key] = convert_to_tensor(row, dtype=dtype)
        else:
            values = convert_to_tensor(row, dtype=dtype) if len(row) else _empty(dtype)
            out[key] = SparseTensor(np.arange(len(row), dtype=np.int64).reshape(-1, 1), values, [len(row)])
    return out


def parse_example(serialized, features, example_names=None, name=None):
    """{key: tensor} of a batch of serialized Examples: FixedLenFeature gives [batch, *shape], VarLenFeature a
    [batch, longest] SparseTensor."""
    _refuse_in_graph("parse_example")
    from .sequence_example import has_new_kinds, parse_example_more
    if has_new_kinds(features):  # FixedLenSequenceFeature, SparseFeature, RaggedFeature
        return parse_example_more(serialized, features, batched=True)
    from .sparse import SparseTensor
    records = list(np.asarray(_records(serialized), dtype=object).reshape(-1))
    parsed = _parse_records(records, features)
    out = {}
    for key, spec in features.items():
        dtype = dtypes.as_dtype(spec.dtype)
        rows = parsed[key]
        if isinstance(spec, FixedLenFeature):
            stacked = np.stack(rows) if rows else np.zeros((0,) + tuple(spec.shape), dtype.numpy_dtype)
            out[key] = convert_to_tensor(stacked, dtype=dtype)
        else:
            indices = np.asarray([[b, i] for b, row in enumerate(rows) for i in range(len(row))],
                                 np.int64).reshape(-1, 2)
            flat = [v for row in rows for v in row]
            values = convert_to_tensor(_host_values(flat, dtype), dtype=dtype) if flat else _empty(dtype)
            out[key] = SparseTensor(indices, values, [len(rows), max((len(r) for r in rows), default=0)])
    return out


def _empty(dtype):
    return convert_to_tensor(np.zeros(0, object if dtype == dtypes.string else dtype.numpy_dtype), dtype=dtype)
