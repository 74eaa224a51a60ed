"""TensorFlow's value descriptions besides TensorSpec: RaggedTensorSpec, SparseTensorSpec, IndexedSlicesSpec,
NoneTensorSpec, OptionalSpec, TensorArraySpec, tf.data's DatasetSpec and IteratorSpec, and type_spec_from_value.

Each spec is its fields (TF's `_serialize()` order): equality, hash and repr come from them; shapes are compared
dimension by dimension, nested element specs leaf by leaf, everything else exactly. The tf.data layer sits above
this one: it registers its Dataset and iterator classes here (`register_data_types`) so that `value_type` and
`type_spec_from_value` know them without an upward import."""

from __future__ import annotations

from ..framework import dtypes, nest
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec, TypeSpec

_DATA_TYPES: dict = {}   # "dataset" / "iterator" -> the tf.data classes (registered by placeflow.data)


def register_data_types(dataset, iterator) -> None:
    """Called by placeflow.data: its Dataset and iterator classes, for DatasetSpec and IteratorSpec."""
    _DATA_TYPES.update(dataset=dataset, iterator=iterator)


def _shape(shape) -> TensorShape:
    """`shape` as a TensorShape (TypeError or ValueError, as TF, for what is not one)."""
    if isinstance(shape, TensorShape):
        return shape
    if shape is not None and not isinstance(shape, (list, tuple)):
        raise TypeError(f"Failed to convert {shape!r} to a shape: a shape is None, or a list of dimensions "
                        f"(ints or None), e.g. [None, 3].")
    if shape is not None:
        for dim in shape:
            if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int)):
                raise TypeError(f"Dimension value must be integer or None, got value {dim!r} in shape "
                                f"{list(shape)!r}.")
            if dim is not None and dim < 0:
                raise ValueError(f"Dimension {dim} must be >= 0 (in shape {list(shape)!r}); use None for a "
                                 f"dimension of any size.")
    return TensorShape(None if shape is None else list(shape))


def _key(field):
    """A hashable, comparable form of one field."""
    if isinstance(field, TensorShape):
        return ("shape", None if field.rank is None else tuple(field.as_list()))
    if isinstance(field, (list, tuple)):
        return (type(field).__name__,) + tuple(_key(f) for f in field)
    if isinstance(field, dict):
        return ("dict",) + tuple((k, _key(field[k])) for k in sorted(field, key=str))
    if isinstance(field, TensorSpec):
        return ("TensorSpec", _key(field.shape), field.dtype.name, field.name)
    return field


def _shape_compatible(a: TensorShape, b: TensorShape) -> bool:
    return a.is_compatible_with(b)


def _shape_subtype(a: TensorShape, b: TensorShape) -> bool:
    """Whether every shape `a` admits is one `b` admits."""
    if b.rank is None:
        return True
    if a.rank is None or a.rank != b.rank:
        return False
    return all(want is None or want == got for got, want in zip(a.as_list(), b.as_list()))


def _shape_supertype(a: TensorShape, b: TensorShape) -> TensorShape:
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


_NO = object()   # "no common supertype" (None is a field value: IndexedSlicesSpec's dense_shape_dtype)


def _leaf_relation(kind, a, b):
    """`kind` ('compatible', 'subtype' or 'supertype') of two fields; supertype gives the field or _NO."""
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        return {"compatible": _shape_compatible, "subtype": _shape_subtype, "supertype": _shape_supertype}[kind](a, b)
    if isinstance(a, TensorSpec) and isinstance(b, TensorSpec):
        if a.dtype != b.dtype:
            return _NO if kind == "supertype" else False
        if kind != "supertype":
            return _leaf_relation(kind, a.shape, b.shape)
        shape = _shape_supertype(a.shape, b.shape)
        return TensorSpec(None if shape.rank is None else shape.as_list(), a.dtype, a.name if a.name == b.name
                          else None)
    if isinstance(a, _Spec) and isinstance(b, _Spec):
        if kind == "supertype":
            common = a.most_specific_common_supertype([b])
            return _NO if common is None else common
        return a.is_compatible_with(b) if kind == "compatible" else a.is_subtype_of(b)
    if kind == "supertype":
        return a if _key(a) == _key(b) else _NO
    return _key(a) == _key(b)


def _structure_relation(kind, a, b):
    """`_leaf_relation` of two fields; nested element specs leaf by leaf (their structures must match)."""
    if isinstance(a, TensorShape) or not isinstance(a, (list, tuple, dict)):
        return _leaf_relation(kind, a, b)
    try:
        nest.assert_same_structure(a, b)
    except (TypeError, ValueError):
        return _NO if kind == "supertype" else False
    results = [_leaf_relation(kind, x, y) for x, y in zip(nest.flatten(a), nest.flatten(b))]
    if kind != "supertype":
        return all(results)
    return _NO if any(r is _NO for r in results) else nest.pack_as(a, results)


def _fields_relation(kind, a: tuple, b: tuple):
    """`_structure_relation` field by field: all true, or the supertype's fields (None if a field has none)."""
    if len(a) != len(b):
        return None if kind == "supertype" else False
    results = [_structure_relation(kind, x, y) for x, y in zip(a, b)]
    if kind != "supertype":
        return all(results)
    return None if any(r is _NO for r in results) else tuple(results)


class _Spec(TypeSpec):
    """What the specs share: fields, equality, hash, repr, compatibility and common supertypes."""

    __slots__ = ()
    _FIELDS: tuple = ()

    def _fields(self) -> tuple:
        return tuple(getattr(self, "_" + name) for name in self._FIELDS)

    @classmethod
    def _from_fields(cls, fields):
        return cls(*fields)

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and _key(self._fields()) == _key(other._fields())

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self).__name__, _key(self._fields())))

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self._fields()!r}"

    def _relation(self, kind, other):
        if type(other) is not type(self):
            return None if kind == "supertype" else False
        return _fields_relation(kind, self._fields(), other._fields())

    def is_compatible_with(self, spec_or_value) -> bool:
        """Whether `spec_or_value` (a spec, or a value) could be described by this spec."""
        other = spec_or_value
        if not isinstance(other, TypeSpec):
            try:
                other = type_spec_from_value(other)
            except (TypeError, NotImplementedError):
                return False
        return bool(self._relation("compatible", other))

    def is_subtype_of(self, other) -> bool:
        """Whether every value this spec describes is one `other` describes."""
        return bool(self._relation("subtype", other))

    def most_specific_common_supertype(self, others):
        """The narrowest spec describing the values of this spec and of each of `others` (None if none does)."""
        fields = list(self._fields())
        for other in others:
            fields = _Spec._relation(type(self)._from_fields(fields), "supertype", other)
            if fields is None:
                return None
        return type(self)._from_fields(fields)


class RaggedTensorSpec(_Spec):
    """Describes a RaggedTensor: `RaggedTensorSpec(shape, dtype, ragged_rank, row_splits_dtype, flat_values_spec)`."""

    __slots__ = ("_shape", "_dtype", "_ragged_rank", "_row_splits_dtype", "_flat_values_spec")
    _FIELDS = ("shape", "dtype", "ragged_rank", "row_splits_dtype")

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None, row_splits_dtype=dtypes.int64,
                 flat_values_spec=None):
        self._shape = _shape(shape)
        self._flat_values_spec = flat_values_spec
        if flat_values_spec is not None:
            if not isinstance(flat_values_spec, TensorSpec):
                raise TypeError(f"flat_values_spec must be a TensorSpec, got {flat_values_spec!r}.")
            if dtype is not None and dtypes.as_dtype(dtype) != flat_values_spec.dtype:
                raise ValueError(f"dtype must be the same as flat_values_spec.dtype: got dtype={dtype!r} and "
                                 f"{flat_values_spec!r}; pass dtype=None or the same dtype.")
            dtype = flat_values_spec.dtype
        self._dtype = dtypes.as_dtype(dtype)
        self._ragged_rank = self._checked_ragged_rank(ragged_rank)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if self._row_splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"row_splits_dtype must be int32 or int64, got {self._row_splits_dtype!r}.")

    def _checked_ragged_rank(self, ragged_rank):
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            return rank - 1
        if isinstance(ragged_rank, bool) or not isinstance(ragged_rank, int):
            raise TypeError(f"ragged_rank must be an int, got {ragged_rank!r}.")
        if ragged_rank < 0:
            raise ValueError(f"Argument `ragged_rank` ({ragged_rank}) must be >= 0.")
        if rank is not None and ragged_rank >= rank:
            raise ValueError(f"Argument `ragged_rank` ({ragged_rank}) must be less than rank ({rank}).")
        return ragged_rank

    def _fields(self) -> tuple:
        base = (self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype)
        return base if self._flat_values_spec is None else base + (self._flat_values_spec,)

    @classmethod
    def _from_fields(cls, fields):
        return cls(fields[0], None if len(fields) > 4 else fields[1], *fields[2:])

    shape = property(lambda self: self._shape, doc="The static shape (None entries for ragged dimensions).")
    dtype = property(lambda self: self._dtype, doc="The dtype of the values.")
    ragged_rank = property(lambda self: self._ragged_rank, doc="The number of ragged dimensions.")
    row_splits_dtype = property(lambda self: self._row_splits_dtype, doc="The dtype of the row partitions.")
    flat_values_spec = property(lambda self: self._flat_values_spec, doc="The flat values' TensorSpec, or None.")

    @property
    def value_type(self):
        """RaggedTensor (a plain Tensor where ragged_rank is 0)."""
        from .ragged import RaggedTensor
        if self._ragged_rank == 0:
            from ..eager.tensor import EagerTensor
            return EagerTensor
        return RaggedTensor

    @classmethod
    def from_value(cls, value):
        """The spec of a RaggedTensor."""
        from .ragged import RaggedTensor
        if not isinstance(value, RaggedTensor):
            raise TypeError(f"RaggedTensorSpec.from_value expects a RaggedTensor, got {value!r}; use "
                            f"type_spec_from_value for other values.")
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits.dtype)


class SparseTensorSpec(_Spec):
    """Describes a SparseTensor: `SparseTensorSpec(shape=None, dtype=tf.float32)`."""

    __slots__ = ("_shape", "_dtype")
    _FIELDS = ("shape", "dtype")

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape, self._dtype = _shape(shape), dtypes.as_dtype(dtype)

    shape = property(lambda self: self._shape, doc="The dense shape (None entries where unknown).")
    dtype = property(lambda self: self._dtype, doc="The dtype of the values.")

    @property
    def value_type(self):
        """SparseTensor."""
        from .sparse import SparseTensor
        return SparseTensor

    @classmethod
    def from_value(cls, value):
        """The spec of a SparseTensor."""
        from .sparse import SparseTensor
        if not isinstance(value, SparseTensor):
            raise TypeError(f"Expected SparseTensor, got {value!r} of type {type(value).__name__}; use "
                            f"type_spec_from_value for other values.")
        return cls(_static_shape(value.shape), value.dtype)


def _static_shape(shape) -> TensorShape:
    return shape if isinstance(shape, TensorShape) else TensorShape(None if shape is None else list(shape))


class IndexedSlicesSpec(_Spec):
    """Describes IndexedSlices: `IndexedSlicesSpec(shape, dtype, indices_dtype, dense_shape_dtype, indices_shape)`."""

    __slots__ = ("_shape", "_values_dtype", "_indices_dtype", "_dense_shape_dtype", "_indices_shape")
    _FIELDS = ("shape", "values_dtype", "indices_dtype", "dense_shape_dtype", "indices_shape")

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64, dense_shape_dtype=None,
                 indices_shape=None):
        self._shape, self._values_dtype = _shape(shape), dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else dtypes.as_dtype(dense_shape_dtype)
        self._indices_shape = _shape([None] if indices_shape is None else indices_shape)

    @property
    def value_type(self):
        """IndexedSlices."""
        from .indexed_slices import IndexedSlices
        return IndexedSlices

    @classmethod
    def from_value(cls, value):
        """The spec of IndexedSlices (its dense shape's static part, or the values' rows unknown)."""
        values, indices, dense = value.values, value.indices, value.dense_shape
        shape = [None] + list(values.shape)[1:] if dense is None else _dense_shape_of(dense, values)
        return cls(shape, values.dtype, indices.dtype, None if dense is None else dense.dtype, list(indices.shape))


def _dense_shape_of(dense, values):
    try:
        return [int(d) for d in dense.numpy()]
    except AttributeError:  # a symbolic dense shape: its rank only
        return [None] + list(values.shape)[1:]


class NoneTensorSpec(_Spec):
    """Describes None as a value of a structure (TF's NoneTensorSpec())."""

    __slots__ = ()

    @property
    def value_type(self):
        """NoneType: the value is None."""
        return type(None)


def _checked_element_spec(element_spec, owner):
    """`element_spec`: a structure whose leaves are TypeSpecs or None (TypeError naming `owner` if not)."""
    leaves = nest.flatten(element_spec)
    bad = [leaf for leaf in leaves if leaf is not None and not isinstance(leaf, TypeSpec)]
    if bad:
        raise TypeError(f"{owner}'s element_spec must be a structure of TypeSpecs (TensorSpec, RaggedTensorSpec, "
                        f"...), got {bad[0]!r} in {element_spec!r}.")
    return element_spec


class OptionalSpec(_Spec):
    """Describes an Optional (tf.experimental.Optional) whose value has `element_spec`."""

    __slots__ = ("_element_spec",)
    _FIELDS = ("element_spec",)

    def __init__(self, element_spec):
        self._element_spec = _checked_element_spec(element_spec, "OptionalSpec")

    element_spec = property(lambda self: self._element_spec, doc="The spec structure of the value.")

    @property
    def value_type(self):
        """Optional."""
        from .optional import Optional
        return Optional

    @classmethod
    def from_value(cls, value):
        """The spec of an Optional."""
        return cls(value.element_spec)


class TensorArraySpec(_Spec):
    """Describes a TensorArray: `TensorArraySpec(element_shape, dtype, dynamic_size, infer_shape)`."""

    __slots__ = ("_element_shape", "_dtype", "_dynamic_size", "_infer_shape")
    _FIELDS = ("element_shape", "dtype", "dynamic_size", "infer_shape")

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False, infer_shape=True):
        self._element_shape, self._dtype = _shape(element_shape), dtypes.as_dtype(dtype)
        self._dynamic_size, self._infer_shape = bool(dynamic_size), bool(infer_shape)

    @property
    def value_type(self):
        """TensorArray."""
        from .tensor_array import TensorArray
        return TensorArray

    @classmethod
    def from_value(cls, value):
        """The spec of a TensorArray."""
        return cls(_static_shape(value.element_shape), value.dtype, value.dynamic_size, value._infer_shape)


class DatasetSpec(_Spec):
    """Describes a tf.data Dataset: `DatasetSpec(element_spec, dataset_shape=())`."""

    __slots__ = ("_element_spec", "_dataset_shape")
    _FIELDS = ("element_spec", "dataset_shape")

    def __init__(self, element_spec, dataset_shape=()):
        self._element_spec = _checked_element_spec(element_spec, "DatasetSpec")
        self._dataset_shape = _shape(dataset_shape)

    element_spec = property(lambda self: self._element_spec, doc="The spec structure of one element.")

    @property
    def value_type(self):
        """tf.data.Dataset."""
        return _data_type("dataset")

    @classmethod
    def from_value(cls, value):
        """The spec of a Dataset."""
        return cls(value.element_spec)


class IteratorSpec(_Spec):
    """Describes an iterator over a tf.data Dataset: `IteratorSpec(element_spec)`."""

    __slots__ = ("_element_spec",)
    _FIELDS = ("element_spec",)

    def __init__(self, element_spec):
        self._element_spec = _checked_element_spec(element_spec, "IteratorSpec")

    @property
    def value_type(self):
        """The iterator class `iter(dataset)` gives."""
        return _data_type("iterator")

    @classmethod
    def from_value(cls, value):
        """The spec of a Dataset iterator."""
        return cls(value.element_spec)


def _data_type(kind):
    if kind not in _DATA_TYPES:
        raise NotImplementedError(f"the tf.data {kind} class is registered by importing placeflow.data; "
                                  f"import placeflow first.")
    return _DATA_TYPES[kind]


def _spec_maker(value):
    """The from_value of the spec class for `value`'s kind, or None for tensors and other values."""
    from .indexed_slices import IndexedSlices
    from .optional import Optional
    from .ragged import RaggedTensor
    from .sparse import SparseTensor
    from .tensor_array import TensorArray
    kinds = [(RaggedTensor, RaggedTensorSpec), (SparseTensor, SparseTensorSpec), (IndexedSlices, IndexedSlicesSpec),
             (Optional, OptionalSpec), (TensorArray, TensorArraySpec)]
    kinds += [(_DATA_TYPES[k], spec) for k, spec in (("dataset", DatasetSpec), ("iterator", IteratorSpec))
              if k in _DATA_TYPES]
    return next((spec.from_value for cls, spec in kinds if isinstance(value, cls)), None)


def type_spec_from_value(value) -> TypeSpec:
    """The TypeSpec describing `value`: a tensor (or what converts to one), ragged, sparse, a dataset, None, ..."""
    if value is None:
        return NoneTensorSpec()
    if hasattr(value, "_as_tensor") and hasattr(value, "trainable"):
        raise NotImplementedError(f"type_spec_from_value of a Variable ({value!r}) is not implemented in placeflow "
                                  f"(TensorFlow gives a VariableSpec); pass its value, variable.read_value().")
    maker = _spec_maker(value)
    if maker is not None:
        return maker(value)
    from .extension_type import ExtensionType
    if isinstance(value, ExtensionType):
        return value._type_spec
    from .operators import is_tensor
    if not is_tensor(value):
        from ..eager.convert import convert_to_tensor
        try:
            value = convert_to_tensor(value)
        except (TypeError, ValueError):
            raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type {type(value)}: "
                            f"expected a tensor, a value convertible to one, or a composite value.") from None
    shape = _static_shape(value.shape)
    return TensorSpec(None if shape.rank is None else shape.as_list(), value.dtype)
