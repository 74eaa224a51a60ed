"""tf.train.SequenceExample (a context of Features and FeatureLists of per-step Features) in TensorFlow's wire
format, tf.io.parse_sequence_example / parse_single_sequence_example, and the feature kinds FixedLenSequenceFeature,
SparseFeature and RaggedFeature, which tf.io.parse_example and parse_single_example also take (through
parse_example_more). Parsing runs on the host eagerly; inside `function` it is refused by name. RaggedFeature
partitions (ragged_feature.py) nest the values as TF does."""

from __future__ import annotations

import collections

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes, errors
from ..framework.protobuf_wire import field_bytes, fields
from .example_proto import (Example, Features, FixedLenFeature, VarLenFeature, _ALLOWED, _decode_feature,
                            _decode_features, _host_values, _refuse_in_graph, _records, _tf_name, _tf_name_of_kind,
                            parse_example)


class FeatureList:
    """The Features of a sequence's steps: `feature`, a list of Feature."""

    def __init__(self, feature=()):
        self.feature = list(feature)

    def _encode(self) -> bytes:
        return b"".join(field_bytes(1, f._encode()) for f in self.feature)

    def SerializeToString(self) -> bytes:  # noqa: N802 - protobuf's name
        """The protocol-buffer bytes of this feature list."""
        return self._encode()

    @classmethod
    def FromString(cls, data) -> "FeatureList":  # noqa: N802 - protobuf's name
        """The FeatureList these protocol-buffer bytes encode."""
        return cls([_decode_feature(v) for k, _, v in fields(bytes(data)) if k == 1])

    def __eq__(self, other):
        return isinstance(other, FeatureList) and self.feature == other.feature

    def __repr__(self):
        return f"FeatureList(feature={self.feature!r})"


class FeatureLists:
    """A map from names to FeatureList."""

    def __init__(self, feature_list=None):
        self.feature_list = dict(feature_list or {})

    def _encode(self) -> bytes:
        return b"".join(field_bytes(1, field_bytes(1, name) + field_bytes(2, value._encode()))
                        for name, value in sorted(self.feature_list.items()))  # by key: deterministic bytes

    def __eq__(self, other):
        return isinstance(other, FeatureLists) and self.feature_list == other.feature_list

    def __repr__(self):
        return f"FeatureLists(feature_list={self.feature_list!r})"


class SequenceExample:
    """A sequence record: SequenceExample(context=Features(...), feature_lists=FeatureLists(...))."""

    def __init__(self, context=None, feature_lists=None):
        self.context = context if context is not None else Features()
        self.feature_lists = feature_lists if feature_lists is not None else FeatureLists()
        self._given = (context is not None, feature_lists is not None)  # a given empty message is still written

    def SerializeToString(self) -> bytes:  # noqa: N802 - protobuf's name
        """The protocol-buffer bytes of this sequence example."""
        context = field_bytes(1, self.context._encode()) if self.context.feature or self._given[0] else b""
        lists = field_bytes(2, self.feature_lists._encode()) if self.feature_lists.feature_list or self._given[1] \
            else b""
        return context + lists

    @classmethod
    def FromString(cls, data) -> "SequenceExample":  # noqa: N802 - protobuf's name
        """The SequenceExample these protocol-buffer bytes encode."""
        example = cls()
        example.ParseFromString(data)
        return example

    def ParseFromString(self, data) -> None:  # noqa: N802 - protobuf's name
        """Read these protocol-buffer bytes into this sequence example."""
        data = bytes(data)
        self.context = Features(_decode_features(data))
        self.feature_lists = FeatureLists(_decode_feature_lists(data))
        numbers = {number for number, _, _ in fields(data)}
        self._given = (1 in numbers, 2 in numbers)

    def __eq__(self, other):
        return isinstance(other, SequenceExample) and (self.context, self.feature_lists) == (other.context,
                                                                                            other.feature_lists)

    def __repr__(self):
        return f"SequenceExample(context={self.context!r}, feature_lists={self.feature_lists!r})"


def _decode_feature_lists(data: bytes) -> dict:
    found = {}
    for number, _, message in fields(data):
        if number != 2:
            continue
        for inner, _, entry in fields(message):
            if inner != 1:
                continue
            name, body = b"", b""
            for key, _, value in fields(entry):
                if key == 1:
                    name = value
                elif key == 2:
                    body = value
            found[name.decode("utf-8")] = FeatureList.FromString(body)
    return found


# -- feature kinds -------------------------------------------------------------------------------------------------

FixedLenSequenceFeature = collections.namedtuple("FixedLenSequenceFeature",
                                                 ["shape", "dtype", "allow_missing", "default_value"],
                                                 defaults=[False, None])
SparseFeature = collections.namedtuple("SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"],
                                       defaults=[False])
_RaggedBase = collections.namedtuple("RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype",
                                                       "validate"])


class RaggedFeature(_RaggedBase):
    """A feature parsed into a RaggedTensor: its values (a 1-D tensor from parse_single_example), nested by
    `partitions` (outermost first: RowSplits, RowLengths, RowStarts, RowLimits, ValueRowIds keys of int64 values
    in the same record, or UniformRowLength); partitions are always checked (validate=True or not)."""

    __slots__ = ()
    RowSplits = collections.namedtuple("RowSplits", ["key"])
    RowLengths = collections.namedtuple("RowLengths", ["key"])
    RowStarts = collections.namedtuple("RowStarts", ["key"])
    RowLimits = collections.namedtuple("RowLimits", ["key"])
    ValueRowIds = collections.namedtuple("ValueRowIds", ["key"])
    UniformRowLength = collections.namedtuple("UniformRowLength", ["length"])

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=dtypes.int32, validate=False):
        kinds = (cls.RowSplits, cls.RowLengths, cls.RowStarts, cls.RowLimits, cls.ValueRowIds, cls.UniformRowLength)
        for partition in partitions:
            if not isinstance(partition, kinds):
                raise TypeError(f"RaggedFeature partitions must be RaggedFeature.RowSplits, RowLengths, RowStarts, "
                                f"RowLimits, ValueRowIds or UniformRowLength; got {partition!r}.")
        row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if row_splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"RaggedFeature row_splits_dtype must be int32 or int64; got {row_splits_dtype.name}.")
        return super().__new__(cls, dtypes.as_dtype(dtype), value_key, tuple(partitions), row_splits_dtype,
                               bool(validate))


_NEW_KINDS = (FixedLenSequenceFeature, SparseFeature, RaggedFeature)


def has_new_kinds(features: dict) -> bool:
    """Whether `features` holds a FixedLenSequenceFeature, SparseFeature or RaggedFeature."""
    return any(isinstance(spec, _NEW_KINDS) for spec in dict(features).values())


def _dtype(key, spec):
    dtype = dtypes.as_dtype(spec.dtype)
    if dtype not in _ALLOWED:
        raise ValueError(f"Unsupported dtype {dtype.name} for feature {key!r}: tf.train.Example features are "
                         f"string, float32 or int64.")
    return dtype


def _invalid(message: str):
    return errors.InvalidArgumentError(None, None, message)


def _values(feature, dtype, key: str, where: str = "Feature") -> list | None:
    """The values of `feature` (None when absent or empty of any list), checked against `dtype`."""
    if feature is None or feature.WhichOneof("kind") is None:
        return None
    kind = feature.WhichOneof("kind")
    if _tf_name_of_kind(kind) != _tf_name(dtype):
        raise _invalid(f"Name: <unknown>, {where}: {key}.  Data types don't match. Expected type: {_tf_name(dtype)}, "
                       f"Actual type: {_tf_name_of_kind(kind)}")
    return list(getattr(feature, kind).value)


def _empty(dtype, shape=(0,)):
    return convert_to_tensor(np.zeros(shape, object if dtype == dtypes.string else dtype.numpy_dtype), dtype=dtype)


def _tensor(values: list, dtype, shape=None):
    array = _host_values(values, dtype)
    if shape is not None:
        array = array.reshape(shape)
    return convert_to_tensor(array, dtype=dtype) if array.size else _empty(dtype, array.shape)


# -- FixedLenSequenceFeature, SparseFeature and RaggedFeature in parse_example -------------------------------------

def _padded(rows: list, spec, dtype, key: str):
    """[batch, longest, *shape] of each record's values (split into rows of `shape`), padded with the default."""
    shape = tuple(int(d) for d in spec.shape)
    size = int(np.prod(shape, dtype=np.int64)) if shape else 1
    for index, values in enumerate(rows):
        if size and len(values) % size:
            raise _invalid(f"Name: <unknown>, Key: {key}, Index: {index}.  Number of {_tf_name(dtype)} values is not a "
                           f"multiple of {size} (the size of shape {list(shape)}); fix the record or the shape.")
    longest = max((len(v) // size for v in rows if size), default=0)
    filler = _host_values([0 if dtype != dtypes.string else b""], dtype)[0] if spec.default_value is None else \
        np.asarray(spec.default_value, object if dtype == dtypes.string else dtype.numpy_dtype)
    out = np.empty((len(rows), longest) + shape, object if dtype == dtypes.string else dtype.numpy_dtype)
    out[...] = filler
    for index, values in enumerate(rows):
        if values and size:
            out[index, :len(values) // size] = _host_values(values, dtype).reshape((-1,) + shape)
    return _tensor(list(out.reshape(-1)), dtype, out.shape)


def _sparse(parsed: list, spec, key: str, batched: bool):
    from .sparse import SparseTensor
    dtype = _dtype(key, spec)
    index_keys = [spec.index_key] if isinstance(spec.index_key, str) else list(spec.index_key)
    sizes = [int(spec.size)] if np.ndim(spec.size) == 0 else [int(s) for s in spec.size]
    if len(sizes) != len(index_keys):
        raise ValueError(f"SparseFeature {key!r} has {len(index_keys)} index keys but size {spec.size!r}; give one "
                         "size per index key.")
    indices, values = [], []
    for record, found in enumerate(parsed):
        ix = [_values(found.get(k), dtypes.int64, k) or [] for k in index_keys]
        vals = _values(found.get(spec.value_key), dtype, spec.value_key) or []
        if any(len(i) != len(vals) for i in ix):
            raise ValueError(f"SparseFeature {key!r}, record {record}: {[len(i) for i in ix]} indices but {len(vals)} "
                             "values (dimensions not compatible); give one index per value.")
        entries = list(zip(zip(*ix), vals)) if ix else []
        if not spec.already_sorted:
            entries.sort(key=lambda entry: entry[0])
        indices.extend(([record] if batched else []) + list(i) for i, _ in entries)
        values.extend(v for _, v in entries)
    rank = len(sizes) + (1 if batched else 0)
    shape = ([len(parsed)] if batched else []) + sizes
    return SparseTensor(np.asarray(indices, np.int64).reshape(-1, rank), _tensor(values, dtype), shape)


def _ragged(units: list, spec, dtype, outer: int):
    """The RaggedTensor of RaggedFeature `spec` from `units` (each a (values, partition values by key) of one
    record or step), grouped `outer` times into extra outer ragged dimensions (batch, steps)."""
    from .ragged_feature import nest
    return nest(units, spec, dtype, outer, _tensor)


def _unit(found, spec, dtype, key: str):
    """(values, {partition key: its int64 values}) of RaggedFeature `spec` in one record's features `found`."""
    values = _values(found.get(spec.value_key or key), dtype, spec.value_key or key) or []
    keys = [p.key for p in spec.partitions if hasattr(p, "key")]
    return values, {k: _values(found.get(k), dtypes.int64, k) or [] for k in keys}


def _new_kind(parsed: list, key: str, spec, batched: bool):
    if isinstance(spec, SparseFeature):
        return _sparse(parsed, spec, key, batched)
    dtype = _dtype(key, spec)
    if isinstance(spec, RaggedFeature):
        units = [_unit(found, spec, dtype, key) for found in parsed]
        return _ragged(units if batched else units[0], spec, dtype, 1 if batched else 0)
    if not spec.allow_missing:
        raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True (parse_example "
                         "reads a missing feature as empty).")
    padded = _padded([_values(found.get(key), dtype, key) or [] for found in parsed], spec, dtype, key)
    return padded if batched else padded[0]


def _check_keys(features: dict):
    """TensorFlow's rules: a record key is read as one dtype, and by one of the dense (FixedLenFeature,
    FixedLenSequenceFeature), sparse (VarLenFeature, SparseFeature) or ragged (RaggedFeature) kinds."""
    groups, types = {"dense": [], "sparse": [], "ragged": []}, {}
    for key, spec in features.items():
        dtype = dtypes.as_dtype(spec.dtype)
        if isinstance(spec, SparseFeature):
            index_keys = [spec.index_key] if isinstance(spec.index_key, str) else list(spec.index_key)
            used = [(k, dtypes.int64, "sparse") for k in index_keys] + [(spec.value_key, dtype, "sparse")]
        elif isinstance(spec, RaggedFeature):
            used = [(spec.value_key or key, dtype, "ragged")] + [(p.key, dtypes.int64, "ragged")
                                                                 for p in spec.partitions if hasattr(p, "key")]
        else:
            used = [(key, dtype, "sparse" if isinstance(spec, VarLenFeature) else "dense")]
        for name, kind_dtype, group in used:
            if types.setdefault(name, kind_dtype) != kind_dtype:
                raise ValueError(f"Conflicting type {types[name]!r} vs {kind_dtype!r} for feature {name}; read a key "
                                 "as one dtype.")
            if name not in groups[group]:
                groups[group].append(name)
    for first, second in (("dense", "sparse"), ("dense", "ragged"), ("ragged", "sparse")):
        both = set(groups[first]) & set(groups[second])
        if both:
            raise ValueError(f"{first.capitalize()} and {second} keys must not intersect; {first}_keys: "
                             f"{sorted(groups[first])}, {second}_keys: {sorted(groups[second])}, intersection: {both}")


def parse_example_more(serialized, features: dict, batched: bool) -> dict:
    """parse_example (batched) or parse_single_example with FixedLenSequenceFeature, SparseFeature and
    RaggedFeature among `features` (FixedLenFeature and VarLenFeature go to example_proto)."""
    from .example_proto import parse_single_example
    records = np.asarray(_records(serialized), dtype=object)
    if not batched and records.ndim != 0:
        raise ValueError(f"Input serialized must be a scalar; got shape {records.shape}.")
    _check_keys(features)
    old = {k: s for k, s in features.items() if isinstance(s, (FixedLenFeature, VarLenFeature))}
    out = dict((parse_example if batched else parse_single_example)(serialized, old)) if old else {}
    parsed = [Example.FromString(r).features.feature for r in records.reshape(-1)]
    for key, spec in features.items():
        if key not in old:
            if not isinstance(spec, _NEW_KINDS):
                raise ValueError(f"Unsupported feature specification for {key!r}: {spec!r}.")
            out[key] = _new_kind(parsed, key, spec, batched)
    return {key: out[key] for key in features}


# -- parsing SequenceExamples --------------------------------------------------------------------------------------

def _check_kinds(context_features, sequence_features):
    if context_features is None and sequence_features is None:
        raise ValueError("Both context_features and sequence_features are None, but at least one should have values.")
    for key, spec in (context_features or {}).items():
        if not isinstance(spec, (FixedLenFeature, VarLenFeature, RaggedFeature)):
            raise ValueError(f"Unsupported {type(spec).__name__} {spec!r} for key {key!r}: context features are "
                             "FixedLenFeature, VarLenFeature or RaggedFeature.")
    for key, spec in (sequence_features or {}).items():
        if not isinstance(spec, (FixedLenSequenceFeature, VarLenFeature, RaggedFeature)):
            raise ValueError(f"Unsupported {type(spec).__name__} {spec!r} for key {key!r}: sequence features are "
                             "FixedLenSequenceFeature, VarLenFeature or RaggedFeature.")
        if isinstance(spec, FixedLenSequenceFeature) and spec.default_value is not None:
            raise ValueError(f"Value feature_list.dense_defaults[{key}] must be None: feature lists have no default "
                             "values; pad the parsed tensor yourself.")


def _decode_sequence(record) -> tuple:
    """(context Features, {name: [Feature per step]}) of one serialized SequenceExample."""
    try:
        example = SequenceExample.FromString(record)
    except errors.DataLossError:
        raise _invalid("Invalid protocol message input, example id: <unknown>; pass serialized "
                       "tf.train.SequenceExample records.") from None
    return example.context, {k: v.feature for k, v in example.feature_lists.feature_list.items()}


def _steps(lists: dict, key: str, spec, dtype) -> list:
    """Each step's values of feature list `key` ([] for a missing list where that is allowed)."""
    if key not in lists:
        if isinstance(spec, FixedLenSequenceFeature) and not spec.allow_missing:
            raise _invalid(f"Name: <unknown>, Feature list '{key}' is required but could not be found; pass "
                           "allow_missing=True to read it as empty.")
        return []
    return [_values(step, dtype, f"{key}, Index: {i}", "Feature list") or [] for i, step in enumerate(lists[key])]


def _fixed_steps(per_record: list, spec, dtype, key: str):
    shape = tuple(int(d) for d in spec.shape)
    size = int(np.prod(shape, dtype=np.int64)) if shape else 1
    for steps in per_record:
        if any(len(step) != size for step in steps):
            total = sum(len(step) for step in steps)
            raise _invalid(f"Feature list '{key}' has an unexpected number of values.  Total values size: {total} is "
                           f"not consistent with output shape: [?,{','.join(str(d) for d in shape)}]")
    longest = max((len(steps) for steps in per_record), default=0)
    out = np.empty((len(per_record), longest) + shape, object if dtype == dtypes.string else dtype.numpy_dtype)
    out[...] = b"" if dtype == dtypes.string else 0
    for index, steps in enumerate(per_record):
        if steps:
            out[index, :len(steps)] = _host_values([v for s in steps for v in s], dtype).reshape((-1,) + shape)
    lengths = convert_to_tensor(np.asarray([len(s) for s in per_record], np.int64), dtype=dtypes.int64)
    return _tensor(list(out.reshape(-1)), dtype, out.shape), lengths


def _var_steps(per_record: list, dtype, batched: bool):
    from .sparse import SparseTensor
    indices, values = [], []
    for record, steps in enumerate(per_record):
        for step, items in enumerate(steps):
            indices.extend(([record] if batched else []) + [step, i] for i in range(len(items)))
            values.extend(items)
    longest_steps = max((len(s) for s in per_record), default=0)
    longest_values = max((len(items) for s in per_record for items in s), default=0)
    shape = ([len(per_record)] if batched else []) + [longest_steps, longest_values]
    return SparseTensor(np.asarray(indices, np.int64).reshape(-1, len(shape)), _tensor(values, dtype), shape)


def _step_units(lists: dict, key: str, spec, dtype) -> list:
    """Each step's (values, {partition key: its int64 values}) of RaggedFeature `spec` in one record's lists."""
    values = _steps(lists, spec.value_key or key, spec, dtype)
    parts = {p.key: _steps(lists, p.key, spec, dtypes.int64) for p in spec.partitions if hasattr(p, "key")}
    for part_key, steps in parts.items():
        if len(steps) != len(values):
            raise _invalid(f"Feature list '{part_key}' has {len(steps)} steps but '{spec.value_key or key}' has "
                           f"{len(values)}; give a RaggedFeature's partition lists one entry per step.")
    return [(step, {k: parts[k][i] for k in parts}) for i, step in enumerate(values)]


def _sequence_outputs(per_lists: list, sequence_features: dict, batched: bool) -> tuple:
    outputs, lengths = {}, {}
    for key, spec in sequence_features.items():
        dtype = _dtype(key, spec)
        per_record = [_steps(lists, key, spec, dtype) for lists in per_lists]
        if isinstance(spec, FixedLenSequenceFeature):
            dense, lengths[key] = _fixed_steps(per_record, spec, dtype, key)
            outputs[key] = dense if batched else dense[0]
        elif isinstance(spec, VarLenFeature):
            outputs[key] = _var_steps(per_record, dtype, batched)
        else:
            units = [_step_units(lists, key, spec, dtype) for lists in per_lists]
            outputs[key] = _ragged(units if batched else units[0], spec, dtype, 2 if batched else 1)
    return outputs, lengths


def _parse_sequences(records: list, context_features, sequence_features, batched: bool) -> tuple:
    _check_kinds(context_features, sequence_features)
    decoded = [_decode_sequence(r) for r in records]
    contexts = [Example(features=c).SerializeToString() for c, _ in decoded]
    context = {}
    if context_features:
        source = contexts if batched else contexts[0]
        context = parse_example_more(source, dict(context_features), batched) if has_new_kinds(context_features) \
            else dict((parse_example if batched else _single)(source, dict(context_features)))
    outputs, lengths = _sequence_outputs([lists for _, lists in decoded], dict(sequence_features or {}), batched)
    return context, outputs, lengths


def _single(serialized, features):
    from .example_proto import parse_single_example
    return parse_single_example(serialized, features)


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None, example_name=None,
                                  name=None):
    """(context, feature_lists) of one serialized SequenceExample: FixedLenSequenceFeature gives [steps, *shape],
    VarLenFeature a [steps, longest] SparseTensor, RaggedFeature a [steps, (values)] RaggedTensor."""
    _refuse_in_graph("parse_single_sequence_example")
    record = np.asarray(_records(serialized), dtype=object)
    if record.ndim != 0:
        raise ValueError(f"Input serialized must be a scalar; got shape {record.shape}; use parse_sequence_example "
                         "for a batch.")
    context, outputs, _ = _parse_sequences([record.item()], context_features, sequence_features, batched=False)
    return context, outputs


def parse_sequence_example(serialized, context_features=None, sequence_features=None, example_names=None,
                           name=None):
    """(context, feature_lists, feature_list_lengths) of a batch of serialized SequenceExamples:
    FixedLenSequenceFeature gives [batch, longest, *shape] (zero-padded, with its lengths), VarLenFeature a
    [batch, steps, values] SparseTensor."""
    _refuse_in_graph("parse_sequence_example")
    records = np.asarray(_records(serialized), dtype=object)
    if records.ndim != 1:
        raise ValueError(f"Input serialized must be a vector; got shape {records.shape}; use "
                         "parse_single_sequence_example for one record.")
    return _parse_sequences(list(records), context_features, sequence_features, batched=True)
