"""The TensorFlow 1 names at the root of tf.compat.v1 that TF2's root lacks (tf1_root_names.json, recorded from
TensorFlow 2.21 by tests/api/record_tf_compat_v1.py): each resolves to placeflow's function of its TF2 spelling
(tf.compat.v1.matrix_band_part is tf.linalg.band_part, as in TF), to a small TF1 adapter here, or to a refusal
that raises NotImplementedError naming it and its TF2 replacement (never AttributeError)."""

from __future__ import annotations

import functools
import importlib
import json
import pathlib
import types

_LISTING = json.loads(pathlib.Path(__file__).with_name("tf1_root_names.json").read_text(encoding="utf-8"))["names"]

_CASTS = {"to_float": "float32", "to_double": "float64", "to_int32": "int32", "to_int64": "int64",
          "to_bfloat16": "bfloat16", "to_complex64": "complex64", "to_complex128": "complex128"}
_CAST_NAMES = {"to_float": "ToFloat", "to_double": "ToDouble", "to_int32": "ToInt32", "to_int64": "ToInt64",
               "to_bfloat16": "ToBFloat16", "to_complex64": "ToComplex64", "to_complex128": "ToComplex128"}

_HINTS = {  # TF1 names with no TF2 object of their own: what TF 2 code writes instead
    "Print": "tf.print", "arg_max": "tf.math.argmax", "arg_min": "tf.math.argmin", "div": "tf.math.divide or //",
    "assign": "Variable.assign", "assign_add": "Variable.assign_add", "assign_sub": "Variable.assign_sub",
    "count_up_to": "Variable.assign_add with a check", "batch_gather": "tf.gather(..., batch_dims=...)",
    "bincount": "tf.math.bincount", "confusion_matrix": "tf.math.confusion_matrix",
    "decode_csv": "tf.io.decode_csv", "decode_raw": "tf.io.decode_raw", "parse_example": "tf.io.parse_example",
    "parse_single_example": "tf.io.parse_single_example", "string_split": "tf.strings.split",
    "string_to_number": "tf.strings.to_number", "string_to_hash_bucket": "tf.strings.to_hash_bucket",
    "substr": "tf.strings.substr", "reduce_join": "tf.strings.reduce_join", "multinomial": "tf.random.categorical",
    "random_poisson": "tf.random.poisson", "verify_tensor_all_finite": "tf.debugging.check_numerics",
    "clip_by_average_norm": "tf.clip_by_norm", "py_func": "tf.numpy_function", "wrap_function": "tf.function",
    "sparse_add": "tf.sparse.add", "sparse_concat": "tf.sparse.concat", "sparse_split": "tf.sparse.split",
    "sparse_to_dense": "tf.sparse.to_dense", "sparse_reduce_sum": "tf.sparse.reduce_sum",
    "sparse_reduce_max": "tf.sparse.reduce_max", "sparse_merge": "tf.sparse.SparseTensor",
    "serialize_sparse": "tf.io.serialize_sparse", "serialize_many_sparse": "tf.io.serialize_many_sparse",
    "get_seed": "tf.random.set_seed (the global seed)", "dimension_value": "TensorShape entries (ints or None)",
    "dimension_at_index": "TensorShape entries (ints or None)", "Dimension": "TensorShape entries (ints or None)",
    "Session": "tf.function (eager execution)", "make_template": "a tf.Module holding its variables",
    "get_variable": "tf.Variable", "get_local_variable": "tf.Variable", "variable_scope": "tf.name_scope",
}


def _tf2_spelling_hint(name: str) -> str:
    """TF 2's replacement for TF1-only `name` (from its TF2 spelling, a hint above, or a family rule)."""
    entry = _LISTING[name]
    if entry["tf2"]:
        return entry["tf2"][0]
    if name in _HINTS:
        return _HINTS[name]
    if name.startswith("assert_"):
        return f"tf.debugging.{name}"
    if name.startswith(("scatter_", "batch_scatter_")):
        return f"the Variable method {name.replace('batch_', '')} or tf.tensor_scatter_nd_update"
    if name.endswith("Reader") or name == "ReaderBase":
        return "tf.data (TFRecordDataset, TextLineDataset, FixedLengthRecordDataset)"
    if "initializer" in name or name.endswith("_variables") or name == "report_uninitialized_variables":
        return "tf.Variable, created initialized (eager), or tf.keras.initializers"
    return "none in TF2's tf namespace (a TensorFlow 1 API; see TensorFlow's TF1 -> TF2 migration guide)"


def _refusal(name: str, kind: str, replacement_missing: bool = False):
    """A stand-in for tf.compat.v1.`name` raising NotImplementedError that names it and its TF2 replacement."""
    replacement = _tf2_spelling_hint(name)
    either = " (not implemented in placeflow either)" if replacement_missing else ""
    message = (f"tf.compat.v1.{name} is not implemented in placeflow (a TensorFlow 1 name TensorFlow 2.21 still "
               f"has); its TF2 replacement: {replacement}{either}.")
    if kind == "module":
        return _RefusedModule(f"placeflow.compat.v1.{name}", message)
    if kind == "class":
        def __init__(self, *args, **kwargs):
            raise NotImplementedError(message)
        return type(name, (), {"__init__": __init__, "__doc__": message, "_placeflow_refusal": True})

    def refuse(*args, **kwargs):
        raise NotImplementedError(message)
    refuse.__name__ = refuse.__qualname__ = name
    refuse.__doc__ = message
    refuse._placeflow_refusal = True
    return refuse


class _RefusedModule(types.ModuleType):
    """A TF1 module placeflow lacks: each public attribute is a refusal naming it."""

    def __init__(self, name: str, message: str):
        super().__init__(name, message)
        self._message = message
        self._placeflow_refusal = True

    def __getattr__(self, attribute):
        if attribute.startswith("_"):
            raise AttributeError(attribute)
        message = self._message

        def refuse(*args, **kwargs):
            raise NotImplementedError(f"{self.__name__}.{attribute}: {message}")
        refuse.__name__ = attribute
        refuse._placeflow_refusal = True
        return refuse


def _cast_adapter(name: str):
    """TF1's to_<type>(x, name=...): tf.cast to that type."""
    target, op_name = _CASTS[name], _CAST_NAMES[name]

    def convert(x, name=op_name):
        from ..api.math_ops import cast
        from ..framework import dtypes
        return cast(x, getattr(dtypes, target), name=name)
    convert.__name__ = convert.__qualname__ = name
    convert.__doc__ = f"tf.cast(x, tf.{target}) under TF1's name (deprecated there)."
    return convert


def _arg_extreme(which: str):
    def arg_extreme(input, dimension=None, output_type=None, name=None):  # noqa: A002 - TF's names
        from ..api import math_ops
        from ..framework import dtypes
        return getattr(math_ops, which)(input, axis=dimension, output_type=output_type or dtypes.int64, name=name)
    arg_extreme.__name__ = arg_extreme.__qualname__ = f"arg_{which[3:]}"
    arg_extreme.__doc__ = f"TF1's arg_{which[3:]}(input, dimension): tf.math.{which} along `dimension`."
    return arg_extreme


def all_variables():
    """TF1's deprecated name of global_variables()."""
    from ..graph.variables import global_variables
    return global_variables()


def initialize_variables(var_list, name="init"):
    """TF1's deprecated name of variables_initializer(var_list)."""
    from ..graph.variables import variables_initializer
    return variables_initializer(var_list, name=name)


def add_to_collection(name, value):
    """Add `value` to the default graph's collection `name`."""
    from ..graph.graph import get_default_graph
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names, value):
    """Add `value` to each of the default graph's collections `names` (a name or a list of names)."""
    for key in ([names] if isinstance(names, str) else names):
        add_to_collection(key, value)


def get_collection(key, scope=None):
    """The default graph's collection `key` (its items whose names start with `scope`, if given)."""
    from ..graph.graph import get_default_graph
    return get_default_graph().get_collection(key, scope)


_ADAPTERS = {"all_variables": all_variables, "initialize_variables": initialize_variables,
             "add_to_collection": add_to_collection, "add_to_collections": add_to_collections,
             "get_collection": get_collection}


def _implemented(path: str):
    """placeflow's value at TF2 path `path` ('tf.linalg.band_part'), or None when it lacks it or refuses it."""
    from ..framework.tf_api import is_refusal
    value = importlib.import_module("placeflow")
    try:
        for part in path.split(".")[1:]:
            value = getattr(value, part)
    except (AttributeError, NotImplementedError):
        return None
    return None if is_refusal(value) else value


@functools.lru_cache(maxsize=None)
def resolve(name: str):
    """tf.compat.v1.`name` for a TF1-only root name: an implementation or a by-name refusal; None when TF 2.21's
    tf.compat.v1 root has no such TF1-only name."""
    if name not in _LISTING:
        return None
    if name in _ADAPTERS:
        return _ADAPTERS[name]
    if name == "multinomial":   # the same function as tf.compat.v1.random.multinomial, as in TF
        return importlib.import_module("placeflow.api.tf1_random").multinomial
    if name in _CASTS:
        return _cast_adapter(name)
    if name in ("arg_max", "arg_min"):
        return _arg_extreme(name.replace("arg_", "arg"))
    if _LISTING[name]["kind"] == "constant" and hasattr(importlib.import_module("placeflow.version"), name):
        return getattr(importlib.import_module("placeflow.version"), name)   # VERSION, GIT_VERSION, ...: tf.version's
    spellings = _LISTING[name]["tf2"]
    for path in spellings:
        value = _implemented(path)
        if value is not None:
            return value
    return _refusal(name, _LISTING[name]["kind"], replacement_missing=bool(spellings))


def names() -> list:
    """The TF1-only names of tf.compat.v1's root (for dir())."""
    return sorted(_LISTING)
