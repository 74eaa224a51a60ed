"""tf.experimental.ExtensionType: user classes of typed fields, with TensorFlow's generated constructor, repr,
equality, validation, immutability and nested `Spec` class.

A field's annotation says what it holds and how a value is converted: `tf.Tensor` (anything convertible
becomes a tensor), `tf.TensorShape`, `tf.DType`, `int`/`float`/`str`/`bool`/`bytes`/`None`, a nested
ExtensionType, RaggedTensor/SparseTensor, `typing.Tuple[...]`, `typing.Mapping[K, V]` (held as an immutable
dict), `typing.Union[...]` and `typing.Optional[...]`. The fields holding tensors are the value's components:
`tf.nest.flatten(value, expand_composites=True)` gives them (nested values expanded, dict fields in sorted-key
order), and `placeflow.function` takes and returns extension types through them (retracing for other shapes,
dtypes or Python field values, as TensorFlow retraces for another TypeSpec).

Not done here: `tf.type_spec_from_value` of an extension type (use `value._type_spec`), tf.data datasets of
extension types (placeflow's tf.data does not take them), and `input_signature`s of extension type specs
(placeflow.function refuses them by name)."""

from __future__ import annotations

import inspect
import typing

from ..eager.convert import convert_to_tensor
from ..eager.tensor import EagerTensor
from ..framework import dtypes, tensor_types
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec, TypeSpec
from .type_specs import _Spec

_RESERVED = ("Spec", "_type_spec")
_BUILDING = "_tf_extension_type_building"


class ImmutableDict(dict):
    """A Mapping field's value: a dict that cannot be changed (TensorFlow's ImmutableDict)."""

    def _refuse(self, *args, **kwargs):
        raise TypeError(f"'ImmutableDict' object does not support item assignment: extension type fields are "
                        f"immutable; build a new value instead (got {self!r}).")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse

    def __repr__(self) -> str:
        return f"ImmutableDict({dict(self)!r})"

    __hash__ = None


# -- field annotations: checking them when a class is made, converting values when one is built ---------------

def _origin(annotation):
    return typing.get_origin(annotation)


def _is_tensor_value(value) -> bool:
    """A dense tensor (eager, or symbolic while a function is traced)."""
    return value.__class__ is EagerTensor or getattr(value.__class__, "is_symbolic_tensor", False)


_SIMPLE = (int, float, str, bool, bytes, type(None))


def _check_annotation(name, annotation) -> None:
    """TypeError naming the field for an annotation extension types do not support."""
    origin = _origin(annotation)
    if origin in (typing.Union, tuple) or origin is not None and _is_mapping(origin):
        for arg in typing.get_args(annotation):
            if arg is not Ellipsis:
                _check_annotation(name, arg)
        return
    if annotation is None or annotation in _SIMPLE or annotation in (EagerTensor, TensorShape, dtypes.DType):
        return
    if isinstance(annotation, type) and (issubclass(annotation, ExtensionType) or _is_composite_class(annotation)):
        return
    shown = repr(annotation.__name__) if isinstance(annotation, type) else str(annotation)
    raise TypeError(f"In field {name!r}: Unsupported type annotation {shown}; extension type fields are tensors, "
                    f"TensorShape, DType, int/float/str/bool/bytes/None, extension types, RaggedTensor, "
                    f"SparseTensor, or Tuple/Mapping/Union/Optional of those.")


def _is_mapping(origin) -> bool:
    import collections.abc
    return origin is collections.abc.Mapping


def _is_composite_class(cls) -> bool:
    from .ragged import RaggedTensor
    from .sparse import SparseTensor
    return issubclass(cls, (RaggedTensor, SparseTensor))


def _type_name(annotation) -> str:
    if annotation is None or annotation is type(None):
        return "NoneType"
    if annotation is EagerTensor:
        return "Tensor"
    return getattr(annotation, "__name__", repr(annotation))


def _expected(path, annotation, value) -> TypeError:
    want = repr(annotation) if _origin(annotation) is typing.Union else repr(_type_name(annotation))
    return TypeError(f"{path}: expected {want}, got {type(value).__name__!r}")


def convert_field(value, annotation, path):
    """`value` as the field annotated `annotation` holds it (TypeError naming `path` if it does not fit)."""
    origin = _origin(annotation)
    if origin is typing.Union:
        return _convert_union(value, annotation, path)
    if origin is tuple:
        return _convert_tuple(value, annotation, path)
    if origin is not None and _is_mapping(origin):
        return _convert_mapping(value, annotation, path)
    if annotation is EagerTensor:
        return _convert_tensor(value, path)
    if annotation is TensorShape:
        return value if isinstance(value, TensorShape) else TensorShape(value)
    if annotation is dtypes.DType:
        return dtypes.as_dtype(value)
    if annotation is None:
        annotation = type(None)
    if annotation in _SIMPLE:
        if not isinstance(value, annotation):  # True is an int, 3 is not a float: TensorFlow's rule
            raise _expected(path, annotation, value)
        return value
    if not isinstance(value, annotation):
        raise _expected(path, annotation, value)
    return value


def _convert_tensor(value, path):
    if _is_tensor_value(value):
        return value
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{path}: expected a Tensor, got {type(value).__name__!r} (not convertible: {exc})") from None


def _convert_union(value, annotation, path):
    for option in typing.get_args(annotation):  # in order: 7 becomes a tensor in Union[tf.Tensor, int], as TF
        try:
            return convert_field(value, option, path)
        except (TypeError, ValueError):
            continue
    raise _expected(path, annotation, value)


def _convert_tuple(value, annotation, path):
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{path}: expected 'tuple', got {type(value).__name__!r}")
    args = typing.get_args(annotation)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(convert_field(item, args[0], f"{path}[{i}]") for i, item in enumerate(value))
    if args and len(args) != len(value):
        raise TypeError(f"{path}: expected a tuple of length {len(args)}, got {len(value)} items ({value!r})")
    if not args:
        return tuple(value)
    return tuple(convert_field(item, arg, f"{path}[{i}]") for i, (item, arg) in enumerate(zip(value, args)))


def _convert_mapping(value, annotation, path):
    if not isinstance(value, typing.Mapping):
        raise TypeError(f"{path}: expected mapping, got {type(value).__name__!r}")
    key_type, value_type = typing.get_args(annotation) or (None, None)
    if key_type is None:
        return ImmutableDict(value)
    return ImmutableDict((convert_field(k, key_type, f"{path}.keys()"), convert_field(v, value_type, f"{path}[{k!r}]"))
                         for k, v in value.items())


# -- the fields of a class --------------------------------------------------------------------------------------

class _Field:
    __slots__ = ("name", "annotation", "default")
    NO_DEFAULT = object()

    def __init__(self, name, annotation, default):
        self.name, self.annotation, self.default = name, annotation, default


def _own_fields(cls) -> list:
    fields = []
    for name, annotation in vars(cls).get("__annotations__", {}).items():
        if name.startswith("_tf_extension_type") or name in _RESERVED:
            raise ValueError(f"The field annotations for {cls.__name__} are invalid. Field {name!r} is reserved.")
        if isinstance(annotation, str):
            annotation = _resolved(cls, name, annotation)
        _check_annotation(name, annotation)
        default = vars(cls).get(name, _Field.NO_DEFAULT)
        if default is not _Field.NO_DEFAULT:
            default = _default_value(name, annotation, default)
        fields.append(_Field(name, annotation, default))
    return fields


def _resolved(cls, name, annotation):
    """A string annotation (`from __future__ import annotations`) evaluated in the class's module."""
    import sys
    namespace = dict(vars(sys.modules.get(cls.__module__, typing)))
    try:
        return eval(annotation, namespace, dict(vars(cls)))  # noqa: S307 - what typing.get_type_hints does
    except Exception as exc:  # noqa: BLE001 - any failure is the same unresolvable annotation
        raise TypeError(f"In field {name!r}: the string annotation {annotation!r} could not be resolved in module "
                        f"{cls.__module__} ({type(exc).__name__}: {exc}); use names defined at module level, or "
                        f"write the annotation without `from __future__ import annotations`.") from None


def _default_value(name, annotation, default):
    try:
        return convert_field(default, annotation, name)
    except TypeError as exc:
        raise TypeError(f"default value for {exc}") from None


def _collect_fields(cls) -> tuple:
    """The base classes' fields (in order), then the class's own (which may redeclare one)."""
    fields: dict = {}
    for base in cls.__bases__:
        for field in getattr(base, "_tf_extension_type_field_list", ()):
            fields.setdefault(field.name, field)
    for field in _own_fields(cls):
        fields[field.name] = field
    return tuple(fields.values())


# -- the generated methods --------------------------------------------------------------------------------------

def _signature(fields) -> inspect.Signature:
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params += [inspect.Parameter(f.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                 default=inspect.Parameter.empty if f.default is _Field.NO_DEFAULT else f.default)
               for f in fields]
    return inspect.Signature(params)


def _generated_init(cls):
    signature = _signature(cls._tf_extension_type_fields())

    def __init__(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        for name, value in list(bound.arguments.items())[1:]:
            object.__setattr__(self, name, value)
    __init__.__signature__ = signature
    __init__._tf_generated = True
    return __init__


def _constructor(cls):
    """The class's own __init__, else the nearest base's custom one, else a generated one for its fields."""
    own = vars(cls).get("__init__")
    if own is not None:
        return own
    for base in cls.__mro__[1:]:
        inherited = getattr(vars(base).get("__init__"), "__wrapped__", None)
        if inherited is not None:
            return _generated_init(cls) if getattr(inherited, "_tf_generated", False) else inherited
    return _generated_init(cls)


def _wrapped_init(init):
    def __init__(self, *args, **kwargs):
        object.__setattr__(self, _BUILDING, True)
        try:
            init(self, *args, **kwargs)
        finally:
            object.__delattr__(self, _BUILDING)
        _finish(self)
    __init__.__wrapped__ = init
    return __init__


def _finish(self) -> None:
    """Convert and check the fields set by the constructor, then call the class's __validate__."""
    for field in type(self)._tf_extension_type_fields():
        if field.name not in self.__dict__:
            if field.default is _Field.NO_DEFAULT:
                raise ValueError(f"Field {field.name} was not set by the constructor of {type(self).__name__}; "
                                 f"every field must be given a value.")
            object.__setattr__(self, field.name, field.default)
        object.__setattr__(self, field.name, convert_field(self.__dict__[field.name], field.annotation, field.name))
    self.__validate__()


def _is_static(value) -> bool:
    """Whether a field value holds no tensors (it is part of the type, not of the components)."""
    if isinstance(value, TensorShape):
        return True
    if isinstance(value, (list, tuple)):
        return all(_is_static(v) for v in value)
    if isinstance(value, dict):
        return all(_is_static(v) for v in value.values())
    return not (_is_tensor_value(value) or isinstance(value, (ExtensionType, tensor_types.CompositeTensor))
                or _is_composite_instance(value))


def _is_composite_instance(value) -> bool:
    from .ragged import RaggedTensor
    from .sparse import SparseTensor
    return isinstance(value, (RaggedTensor, SparseTensor))


def _spec_of(value):
    """A field value's description: tensors by TensorSpec, extension types by their Spec, Python values as is."""
    if _is_tensor_value(value):
        return TensorSpec(tuple(value.shape), value.dtype)
    if isinstance(value, ExtensionType):
        return value._type_spec
    if _is_composite_instance(value):
        from .type_specs import type_spec_from_value
        return type_spec_from_value(value)
    if isinstance(value, tuple) and not isinstance(value, TensorShape):
        return tuple(_spec_of(v) for v in value)
    if isinstance(value, dict):
        return {k: _spec_of(v) for k, v in value.items()}
    return value


def _dense_parts(leaf) -> tuple:
    """The dense tensors of a component: a ragged tensor's values and row splits, a sparse tensor's indices,
    values and dense shape, a tensor itself."""
    from .ragged import RaggedTensor
    from .sparse import SparseTensor
    if isinstance(leaf, RaggedTensor):
        return (leaf.values, leaf.row_splits)
    if isinstance(leaf, SparseTensor):
        return (leaf.indices, leaf.values, leaf.dense_shape)
    return (leaf,)


class ExtensionType:
    """Base of user classes of typed fields (tf.experimental.ExtensionType); see the module docstring."""

    _tf_extension_type_field_list: tuple = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._tf_extension_type_field_list = _collect_fields(cls)
        for field in cls._tf_extension_type_field_list:
            if field.name in vars(cls):
                delattr(cls, field.name)  # a default lives in the field; the attribute is the instance's
        cls.__init__ = _wrapped_init(_constructor(cls))
        cls.Spec = _spec_class(cls)

    @classmethod
    def _tf_extension_type_fields(cls) -> tuple:
        return cls._tf_extension_type_field_list

    def __validate__(self) -> None:
        """Checks a built value (override to add checks; the default checks nothing)."""

    def __setattr__(self, name, value):
        if self.__dict__.get(_BUILDING):
            object.__setattr__(self, name, value)
            return
        raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom constructor of ExtensionType.")

    def __delattr__(self, name):
        if self.__dict__.get(_BUILDING):
            object.__delattr__(self, name)
            return
        raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom constructor of ExtensionType.")

    def __repr__(self) -> str:
        fields = ", ".join(f"{f.name}={self.__dict__[f.name]!r}" for f in self._tf_extension_type_fields())
        return f"{type(self).__qualname__}({fields})"

    __hash__ = None

    def __eq__(self, other):
        """A boolean scalar tensor: same type, same spec and equal tensors (Python False when the types or specs
        differ)."""
        if type(other) is not type(self) or self._type_spec != other._type_spec:
            return False
        from . import math_ops
        from ..framework import nest
        ours = [t for leaf in nest.flatten(self, True) for t in _dense_parts(leaf)]
        theirs = [t for leaf in nest.flatten(other, True) for t in _dense_parts(leaf)]
        result = convert_to_tensor(True)
        for a, b in zip(ours, theirs):
            result = math_ops.logical_and(result, math_ops.reduce_all(math_ops.equal(a, b)))
        return result

    def __ne__(self, other):
        from . import math_ops
        same = self == other
        return not same if isinstance(same, bool) else math_ops.logical_not(same)

    @property
    def _type_spec(self):
        return type(self).Spec(**{f.name: _spec_of(self.__dict__[f.name]) for f in self._tf_extension_type_fields()})

    # -- nest: the fields holding tensors are the components ----------------------------------------------------
    def _nest_components(self) -> tuple:
        fields = self._tf_extension_type_fields()
        static = tuple((f.name, repr(self.__dict__[f.name])) for f in fields if _is_static(self.__dict__[f.name]))
        # the Python-valued fields, as the key of a dict of no leaves: flatten gives tensors only (as TF), while
        # placeflow.function's trace key (which reads the nesting) still changes with them (TF retraces)
        marker = {repr(static): ()} if static else {}
        return (marker,) + tuple(self.__dict__[f.name] for f in fields if not _is_static(self.__dict__[f.name]))

    def _nest_rebuild(self, parts):
        result = object.__new__(type(self))
        dynamic = iter(parts[1:])
        for field in self._tf_extension_type_fields():
            value = self.__dict__[field.name]
            object.__setattr__(result, field.name, value if _is_static(value) else next(dynamic))
        return result


# -- specs --------------------------------------------------------------------------------------------------------

class ExtensionTypeSpec(_Spec):
    """Describes an ExtensionType value: its Python-valued fields as they are, tensors by TensorSpec, nested
    extension types by their Spec. Each extension type has its own subclass, `MyType.Spec`."""

    value_type = None   # set on each class's Spec

    def __init__(self, *args, **kwargs):
        if type(self).value_type is None:
            raise TypeError("ExtensionTypeSpec is abstract: use the Spec of an ExtensionType class, MyType.Spec.")
        fields = type(self).value_type._tf_extension_type_fields()
        bound = _spec_signature(fields).bind(*args, **kwargs)
        bound.apply_defaults()
        for field in fields:
            object.__setattr__(self, field.name, _spec_field(bound.arguments[field.name], field, field.name))

    def __setattr__(self, name, value):
        raise AttributeError(f"Cannot mutate attribute `{name}` of a TypeSpec; build a new spec instead.")

    def _fields(self) -> tuple:
        return tuple(self.__dict__[f.name] for f in type(self).value_type._tf_extension_type_fields())

    @classmethod
    def _from_fields(cls, fields):
        return cls(*fields)

    def __repr__(self) -> str:
        names = [f.name for f in type(self).value_type._tf_extension_type_fields()]
        inner = ", ".join(f"{name}={value!r}" for name, value in zip(names, self._fields()))
        return f"{type(self).__qualname__}({inner})"

    @classmethod
    def from_value(cls, value):
        """The spec of `value`."""
        return value._type_spec

    def is_compatible_with(self, spec_or_value) -> bool:
        """Whether `spec_or_value` (a spec or an extension type value) could be described by this spec."""
        other = spec_or_value._type_spec if isinstance(spec_or_value, ExtensionType) else spec_or_value
        return bool(self._relation("compatible", other))


def _spec_signature(fields) -> inspect.Signature:
    return inspect.Signature([inspect.Parameter(f.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=(
        inspect.Parameter.empty if f.default is _Field.NO_DEFAULT else _spec_of(f.default))) for f in fields])


def _spec_field(value, field, path):
    """A spec's field: TensorSpec for tensor annotations, Spec for extension types, checked Python values."""
    annotation = field.annotation
    if annotation is EagerTensor:
        if not isinstance(value, TensorSpec):
            raise TypeError(f"{path}: expected a TensorSpec, got {type(value).__name__!r}")
        return value
    if isinstance(annotation, type) and issubclass(annotation, ExtensionType):
        if not isinstance(value, annotation.Spec):
            raise TypeError(f"{path}: expected a {annotation.__name__}.Spec, got {type(value).__name__!r}")
        return value
    if isinstance(value, (TypeSpec, tuple, dict)) or _origin(annotation) is not None:
        return value
    return convert_field(value, annotation, path)


def _spec_class(cls):
    """`cls.Spec`: the class's own `Spec` (made a subclass of ExtensionTypeSpec) or a new one."""
    own = vars(cls).get("Spec")
    bases = (own,) if own is not None and issubclass(own, ExtensionTypeSpec) else \
        ((own, ExtensionTypeSpec) if own is not None else (ExtensionTypeSpec,))
    spec = type(f"{cls.__name__}.Spec", bases, {"value_type": cls, "__qualname__": f"{cls.__qualname__}.Spec",
                                "__module__": cls.__module__,
                                "__doc__": f"Describes a {cls.__name__} value (its TypeSpec)."})
    return spec


class ExtensionTypeBatchEncoder:
    """How a BatchableExtensionType's specs batch and unbatch (each tensor field gains or loses a leading
    dimension) and how its values encode as their tensors and decode back."""

    def batch(self, spec, batch_size):
        """`spec` with each tensor field's shape prefixed by `batch_size` (None: any size)."""
        size = None if batch_size is None else int(batch_size)
        return _map_tensor_specs(spec, lambda t: TensorSpec([size] + list(t.shape), t.dtype))

    def unbatch(self, spec):
        """`spec` with each tensor field's leading dimension removed."""
        return _map_tensor_specs(spec, _unbatched)

    def encode(self, spec, value, minimum_rank=0):
        """The tensors of `value` (its components, in field order)."""
        from ..framework import nest
        return tuple(nest.flatten(value, True))

    def decode(self, spec, encoded_value):
        """The value of `spec` holding the tensors `encoded_value` (as `encode` gives them)."""
        tensors = iter(encoded_value)
        return _value_from(spec, tensors)

    def encoding_specs(self, spec):
        """The TensorSpecs of what `encode` gives for values of `spec`."""
        return tuple(_tensor_specs(spec))


def _unbatched(tensor_spec):
    if not tensor_spec.shape:
        raise ValueError(f"Cannot unbatch {tensor_spec!r}: it is a scalar (a batched spec has a leading "
                         f"dimension).")
    return TensorSpec(list(tensor_spec.shape)[1:], tensor_spec.dtype)


def _map_tensor_specs(field, fn):
    """`field` (a spec or a spec's field) with `fn` applied to each TensorSpec in it."""
    if isinstance(field, TensorSpec):
        return fn(field)
    if isinstance(field, ExtensionTypeSpec):
        return type(field)(*[_map_tensor_specs(f, fn) for f in field._fields()])
    if isinstance(field, tuple) and not isinstance(field, TensorShape):
        return tuple(_map_tensor_specs(f, fn) for f in field)
    if isinstance(field, dict):
        return {k: _map_tensor_specs(v, fn) for k, v in field.items()}
    if isinstance(field, TypeSpec):
        raise NotImplementedError(f"Batching an extension type field described by {field!r} is not implemented in "
                                  f"placeflow: ExtensionTypeBatchEncoder batches tensor and extension type fields.")
    return field


def _tensor_specs(field):
    """The TensorSpecs in `field`, in the order nest.flatten gives a value's tensors (dict keys sorted)."""
    if isinstance(field, TensorSpec):
        return [field]
    if isinstance(field, ExtensionTypeSpec):
        return [t for f in field._fields() for t in _tensor_specs(f)]
    if isinstance(field, tuple) and not isinstance(field, TensorShape):
        return [t for f in field for t in _tensor_specs(f)]
    if isinstance(field, dict):
        return [t for k in sorted(field, key=str) for t in _tensor_specs(field[k])]
    return []


def _value_from(field, tensors):
    """The value described by `field`, its tensors taken from the iterator `tensors`."""
    if isinstance(field, TensorSpec):
        return next(tensors)
    if isinstance(field, ExtensionTypeSpec):
        value = object.__new__(field.value_type)
        for f, sub in zip(field.value_type._tf_extension_type_fields(), field._fields()):
            object.__setattr__(value, f.name, _value_from(sub, tensors))
        return value
    if isinstance(field, tuple) and not isinstance(field, TensorShape):
        return tuple(_value_from(f, tensors) for f in field)
    if isinstance(field, dict):
        parts = {k: _value_from(field[k], tensors) for k in sorted(field, key=str)}
        return ImmutableDict((k, parts[k]) for k in field)
    return field


class BatchableExtensionType(ExtensionType):
    """An ExtensionType whose values batch by stacking their tensor fields (see ExtensionTypeBatchEncoder);
    tf.data pipelines of extension types are not supported by placeflow's tf.data."""


def as_dict(value) -> dict:
    """The fields of an extension type value, as a dict of name to value."""
    if not isinstance(value, ExtensionType):
        raise AttributeError(f"{type(value).__name__!r} object has no attribute '_tf_extension_type_fields' "
                             f"(as_dict takes an ExtensionType value, got {value!r}).")
    return {f.name: value.__dict__[f.name] for f in value._tf_extension_type_fields()}
