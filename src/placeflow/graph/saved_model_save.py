"""tf.saved_model.save: an object's variables in TensorFlow's checkpoint format (variables/variables.*, readable
by TF's tf.train.load_checkpoint), and its traced functions and signatures in placeflow's graph format
(placeflow_saved_model.json and .npz: saved_model_format.py). TensorFlow cannot load the functions."""

from __future__ import annotations

import json
import os

import numpy as np

from ..checkpoint import object_graph
from ..checkpoint.checkpoint import write_checkpoint
from ..eager.variables import Variable
from .function import ConcreteFunction, Function
from .saved_model_format import Encoder

GRAPH_FILE = "placeflow_saved_model.json"
ARRAYS_FILE = "placeflow_saved_model.npz"
FORMAT_VERSION = 1
SIGNATURE_KEY = "serving_default"


def save(obj, export_dir, signatures=None, options=None) -> None:
    """Write `obj` (a trackable: tf.Module, tf.train.Checkpoint, Keras objects) to `export_dir`."""
    if options is not None and getattr(options, "_given", None):
        raise NotImplementedError(f"tf.saved_model.SaveOptions({', '.join(options._given)}) is not implemented in "
                                  "placeflow's SavedModel; leave those options out.")
    export_dir = os.fspath(export_dir)
    objects, _, paths = object_graph.walk(obj)
    variables = [o for o in objects if isinstance(o, Variable)]
    encoder = Encoder({v: i for i, v in enumerate(variables)})
    functions: list = []
    saved_objects = [_object(o, objects, encoder, functions) for o in objects]
    saved_signatures = {name: _add_function(functions, encoder, concrete, signature=True)
                        for name, concrete in _signatures(obj, signatures).items()}
    os.makedirs(os.path.join(export_dir, "variables"), exist_ok=True)
    write_checkpoint(obj, os.path.join(export_dir, "variables", "variables"))
    index = {id(o): i for i, o in enumerate(objects)}
    document = {"format": "placeflow SavedModel", "version": FORMAT_VERSION, "objects": saved_objects,
                "variables": [index[id(v)] for v in variables], "functions": functions,
                "signatures": saved_signatures}
    np.savez(os.path.join(export_dir, ARRAYS_FILE), **encoder.arrays)
    with open(os.path.join(export_dir, GRAPH_FILE), "w", encoding="utf-8") as f:
        json.dump(document, f)


def _object(obj, objects, encoder, functions) -> dict:
    """One saved object: its children (by index) and, for a variable, its index; its traced tf.functions."""
    index = {id(o): i for i, o in enumerate(objects)}
    children = {name: index[id(child)] for name, child in object_graph.children_of(obj).items()}
    value = object_graph.serialize_values(obj).get("VARIABLE_VALUE")
    saved = {"children": children, "kind": "variable" if value is not None else _kind(obj)}
    if value is not None:  # a tf.Variable, or an object saving one value (a Keras variable)
        saved.update(dtype=value.dtype.name, shape=[int(d) for d in value.shape],
                     trainable=bool(getattr(obj, "trainable", True)),
                     name=str(getattr(obj, "name", "Variable")).split(":")[0])
    methods = {}
    for name, function in _functions_of(obj).items():
        traces = [_add_function(functions, encoder, concrete) for concrete in _traces(function)]
        if traces:
            methods[name] = {"traces": traces, "has_input_signature": function.input_signature is not None}
    saved["functions"] = methods
    return saved


def _kind(obj) -> str:
    if isinstance(obj, list) or type(obj).__name__ == "ListWrapper":
        return "list"
    if isinstance(obj, dict) or type(obj).__name__ == "_DictWrapper":
        return "dict"
    return "object"


def _functions_of(obj) -> dict:
    """{attribute name: Function} of `obj`'s tf.functions, bound methods included (those called so far)."""
    found = {}
    for name in dir(type(obj)):
        if (name == "__call__" or not name.startswith("__")) and isinstance(vars(type(obj)).get(name, None) or
                                                    getattr(type(obj), name, None), Function):
            bound = getattr(type(obj), name)._existing_binding(obj)
            if bound is not None:
                found[name] = bound
    for name, value in (vars(obj).items() if hasattr(obj, "__dict__") else ()):
        if isinstance(value, Function) and not name.startswith("_placeflow_function_"):
            found[name] = value
    return found


def _traces(function) -> list:
    """The distinct ConcreteFunctions a Function traced (each once, in first-seen order)."""
    seen, out = set(), []
    for concrete in list(function._cache.values()):
        if isinstance(concrete, ConcreteFunction) and id(concrete) not in seen:
            seen.add(id(concrete))
            out.append(concrete)
    return out


def _add_function(functions, encoder, concrete, signature=False) -> int:
    data = encoder.function(concrete)
    data["input_specs"] = [[t.dtype.name, None if t.shape is None or getattr(t.shape, "rank", 0) is None else
                            [None if d is None else int(d) for d in t.shape], _arg_name(t)] for t in concrete.inputs]
    if signature:
        _check_signature_outputs(concrete)
    functions.append(data)
    return len(functions) - 1


def _arg_name(placeholder) -> str:
    return placeholder.op.name.split("/")[-1]


def _signatures(obj, signatures) -> dict:
    """{key: ConcreteFunction} from the `signatures` argument (a function with an input_signature, a concrete
    function, or a dict of them); TF's default: none unless given."""
    if signatures is None:
        return {}
    if not isinstance(signatures, dict):
        signatures = {SIGNATURE_KEY: signatures}
    out = {}
    for key, value in signatures.items():
        if isinstance(value, Function):
            if value.input_signature is None:
                raise ValueError(f"Expected a TensorFlow function for which to generate a signature for key {key!r}: "
                                 "a tf.function needs an input_signature to be a signature (or pass "
                                 "f.get_concrete_function(...)).")
            value = value.get_concrete_function()
        if not isinstance(value, ConcreteFunction):
            raise ValueError(f"Expected a TensorFlow function for which to generate a signature, got {value!r} for "
                             f"key {key!r}.")
        out[key] = value
    return out


def _check_signature_outputs(concrete) -> None:
    leaves = concrete._leaves
    if any(not (hasattr(leaf, "op") and hasattr(leaf, "value_index")) for leaf in leaves):
        raise ValueError(f"Got a non-Tensor value among the outputs of signature function {concrete.name!r}: "
                         "signatures must return tensors (or a dict of them).")
