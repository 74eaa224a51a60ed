"""tf.saved_model.load of a placeflow SavedModel: the saved object tree with its variables restored from the
TF-format checkpoint, its tf.functions callable on tensors matching a saved trace, and `.signatures`."""

from __future__ import annotations

import json
import os

import numpy as np

from ..checkpoint.checkpoint import read_checkpoint
from ..eager.convert import convert_to_tensor
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable
from ..framework import dtypes, nest
from ..framework.tensor_spec import TensorSpec
from ..framework.tracking import AutoTrackable
from .saved_model_format import Decoder
from .saved_model_save import ARRAYS_FILE, FORMAT_VERSION, GRAPH_FILE


class _UserObject(AutoTrackable):
    """A restored object: the saved children as attributes, the saved tf.functions as methods."""


class _CallableUserObject(_UserObject):
    """A restored object whose saved `__call__` was a tf.function."""

    def __call__(self, *args, **kwargs):
        return self.__dict__["__call__"](*args, **kwargs)


class RestoredFunction:
    """A saved tf.function: calls run the saved trace whose argument specs the call's tensors match."""

    def __init__(self, name, traces, has_input_signature):
        self.__name__ = name
        self._traces = traces  # [(ConcreteFunction, [TensorSpec])]
        self._has_input_signature = has_input_signature

    def __call__(self, *args, **kwargs):
        tensors = [convert_to_tensor(leaf) if not isinstance(leaf, EagerTensor) else leaf
                   for leaf in nest.flatten((args, kwargs), True)
                   if isinstance(leaf, (EagerTensor, np.ndarray, float, int)) and not isinstance(leaf, bool)]
        matches = [c for c, specs in self._traces if len(specs) == len(tensors)
                   and all(s.is_compatible_with(t) for s, t in zip(specs, tensors))]
        if not matches:
            offered = "\n".join(f"  {specs}" for _, specs in self._traces)
            raise ValueError(f"Could not find matching concrete function to call loaded from the SavedModel. Got "
                             f"{[TensorSpec(tuple(t.shape), t.dtype) for t in tensors]}; the saved traces take:\n"
                             f"{offered}")
        return matches[0].call_flat(tensors)

    @property
    def concrete_functions(self) -> list:
        """The saved traces."""
        return [c for c, _ in self._traces]

    def get_concrete_function(self, *args, **kwargs):
        """The saved trace matching these arguments (tensors or TensorSpecs)."""
        if not args and not kwargs and len(self._traces) == 1:
            return self._traces[0][0]
        specs = [a if isinstance(a, TensorSpec) else TensorSpec(tuple(convert_to_tensor(a).shape),
                                                                 convert_to_tensor(a).dtype)
                 for a in nest.flatten((args, kwargs), True)]
        for concrete, saved in self._traces:
            if len(saved) == len(specs) and all(s.is_compatible_with(x) for s, x in zip(saved, specs)):
                return concrete
        raise ValueError(f"No saved trace of {self.__name__} matches {specs}.")


class SignatureFunction:
    """A signature: called with keyword tensors named as its inputs; returns a dict of output tensors."""

    def __init__(self, concrete, names):
        self._concrete, self._names = concrete, names
        self.structured_input_signature = ((), {n: TensorSpec(t.shape, t.dtype, n)
                                                for n, t in zip(names, concrete.inputs)})

    def __call__(self, *args, **kwargs):
        if args:
            raise TypeError(f"Signature functions take keyword arguments only ({', '.join(self._names)}); got "
                            f"{len(args)} positional.")
        missing = [n for n in self._names if n not in kwargs]
        extra = sorted(set(kwargs) - set(self._names))
        if missing or extra:
            raise TypeError(f"Signature arguments are {self._names}; missing {missing}, unexpected {extra}.")
        tensors = [convert_to_tensor(kwargs[n], dtype=t.dtype) for n, t in zip(self._names, self._concrete.inputs)]
        return _as_output_dict(self._concrete.call_flat(tensors))

    @property
    def structured_outputs(self):
        """The outputs as the dict the signature returns (specs)."""
        return _as_output_dict(self._concrete.structured_outputs)


def _as_output_dict(outputs) -> dict:
    if isinstance(outputs, dict):
        return dict(outputs)
    leaves = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    return {f"output_{i}": leaf for i, leaf in enumerate(leaves)}


def contains_saved_model(export_dir) -> bool:
    """Whether `export_dir` holds a SavedModel (placeflow's, or TensorFlow's saved_model.pb/.pbtxt)."""
    export_dir = os.fspath(export_dir)
    return any(os.path.exists(os.path.join(export_dir, name))
               for name in (GRAPH_FILE, "saved_model.pb", "saved_model.pbtxt"))


def load(export_dir, tags=None, options=None):
    """The object saved at `export_dir` by placeflow's tf.saved_model.save."""
    export_dir = os.fspath(export_dir)
    path = os.path.join(export_dir, GRAPH_FILE)
    if not os.path.exists(path):
        if os.path.exists(os.path.join(export_dir, "saved_model.pb")):
            raise NotImplementedError(
                f"{export_dir} is a SavedModel written by TensorFlow: loading its graphs (saved_model.pb) is not "
                "implemented in placeflow. Its variables are a TF checkpoint: read them with "
                f"tf.train.load_checkpoint({os.path.join(export_dir, 'variables', 'variables')!r}).")
        raise OSError(f"SavedModel file does not exist at: {export_dir}{os.sep}{{saved_model.pbtxt|saved_model.pb}}")
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    if document.get("version") != FORMAT_VERSION:
        raise ValueError(f"{path} has placeflow SavedModel format version {document.get('version')!r}; this "
                         f"placeflow reads version {FORMAT_VERSION}.")
    with np.load(os.path.join(export_dir, ARRAYS_FILE), allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    objects = _objects(document)
    variables = [objects[i] for i in document["variables"]]
    read_checkpoint(objects[0], os.path.join(export_dir, "variables", "variables")).assert_existing_objects_matched()
    decoder = Decoder(arrays, variables)
    functions = [(decoder.function(data), data) for data in document["functions"]]
    for obj, saved in zip(objects, document["objects"]):
        for name, method in saved["functions"].items():
            traces = [(functions[i][0], _specs(functions[i][1])) for i in method["traces"]]
            object.__setattr__(obj, name, RestoredFunction(name, traces, method["has_input_signature"]))
            if name == "__call__":
                obj.__class__ = _CallableUserObject
    signatures = {key: SignatureFunction(functions[i][0], [n for _, _, n in functions[i][1]["input_specs"]])
                  for key, i in document["signatures"].items()}
    object.__setattr__(objects[0], "signatures", signatures)
    return objects[0]


def _objects(document) -> list:
    """The restored object tree (variables made with their saved dtype and shape; values come next)."""
    objects = []
    for node in document["objects"]:
        if node["kind"] == "variable":
            value = np.zeros(node["shape"], dtypes.as_dtype(node["dtype"]).numpy_dtype)
            objects.append(Variable(value, trainable=node["trainable"], name=node["name"]))
        else:
            objects.append(_UserObject())
    for obj, node in zip(objects, document["objects"]):
        for name, child in node["children"].items():
            if isinstance(obj, Variable):
                raise ValueError(f"A variable of this SavedModel has children ({name!r}): the file is damaged or was "
                                 "not written by placeflow.")
            setattr(obj, name, objects[child])
    return objects


def _specs(data) -> list:
    return [TensorSpec(None if shape is None else tuple(shape), dtypes.as_dtype(dtype))
            for dtype, shape, _ in data["input_specs"]]
