"""Keras 3's file formats: `.weights.h5` (save_weights/load_weights) and `.keras` archives (model.save /
keras.models.load_model) of Sequential and functional models, readable by Keras 3 and from it.

Weights: an HDF5 file (h5py, the `keras` extra) with one group per layer, `layers/<key>/vars/<i>` holding
the layer's variables in creation order (recurrent layers under `layers/<key>/cell/vars`), and `vars` for
the model's own. As in Keras, a layer's key is its class in snake case, numbered when the class repeats
(`dense`, `dense_1`, ...), in the order of the model's layers; its name is only an attribute. So loading
matches layers by position within their class, whatever their names. The optimizer's state is neither
written nor read: load_weights restores the model only.
Archives: a zip of metadata.json, config.json (the model's architecture as Keras serializes it) and
model.weights.h5.
"""

from __future__ import annotations

import datetime
import inspect
import json
import os
import tempfile
import zipfile

import numpy as np

from . import activations, initializers, regularizers
from .naming import snake_case
from .recurrent import _Recurrent

KERAS_VERSION = "3.15.1"  # the Keras whose layout these files follow (recorded in the fixtures)


def _h5py():
    try:
        import h5py
    except ImportError:
        raise ImportError("Keras's .weights.h5 and .keras files need h5py: pip install 'placeflow[keras]' (or "
                          "pip install h5py).") from None
    return h5py


# -- weights ---------------------------------------------------------------------------------------------------

def saved_layers(model) -> list:
    """The layers a model's weights file lists: Sequential's and functional's `layers`, else its sublayers."""
    return list(model.layers)


def save_weights(model, filepath, overwrite=True) -> None:
    """Write the model's weights in Keras 3's .weights.h5 layout."""
    filepath = os.fspath(filepath)
    if not filepath.endswith(".weights.h5"):
        raise ValueError(f"The filename must end in `.weights.h5`. Received: filepath={filepath}")
    if os.path.exists(filepath) and not overwrite:
        raise FileExistsError(f"{filepath} exists and overwrite=False.")
    h5py = _h5py()
    with h5py.File(filepath, "w") as store:
        _write_model(store, model)


def layer_keys(layers) -> list:
    """Keras's keys for a list of layers: the class in snake case, numbered from its second use."""
    seen: dict = {}
    keys = []
    for layer in layers:
        base = snake_case(type(layer).__name__)
        count = seen.get(base, 0)
        seen[base] = count + 1
        keys.append(base if count == 0 else f"{base}_{count}")
    return keys


def _write_model(group, model) -> None:
    own = group.create_group("vars")
    own.attrs["name"] = model.name
    layers = group.create_group("layers")
    chosen = saved_layers(model)
    for key, layer in zip(layer_keys(chosen), chosen):
        _write_layer(layers.create_group(key), layer)


def _write_layer(group, layer) -> None:
    from .models import Model
    if isinstance(layer, Model):
        _write_model(group, layer)
        return
    if isinstance(layer, _Recurrent):
        group.create_group("vars").attrs["name"] = layer.name
        group = group.create_group("cell")
        name = f"{type(layer).__name__.lower()}_cell"
    else:
        name = layer.name
    variables = group.create_group("vars")
    variables.attrs["name"] = name
    for index, variable in enumerate(_own_weights(layer)):
        variables.create_dataset(str(index), data=variable.numpy())


def _own_weights(layer) -> list:
    return [variable for variable, _ in layer._weights]


def load_weights(model, filepath, skip_mismatch=False) -> None:
    """Read weights written by save_weights or by Keras 3 (layers matched by name; shapes must agree)."""
    filepath = os.fspath(filepath)
    if not filepath.endswith(".weights.h5"):
        raise ValueError(f"The filename must end in `.weights.h5`. Received: filepath={filepath}")
    h5py = _h5py()
    with h5py.File(filepath, "r") as store:
        _read_model(store, model, skip_mismatch)


def _read_model(group, model, skip_mismatch) -> None:
    if not model.built:
        raise ValueError(f"Model {model.name!r} is not built yet: build it (call it once, or give it an Input) "
                         f"before load_weights.")
    stored = group.get("layers")
    keys = sorted(stored.keys()) if stored is not None else []
    chosen = saved_layers(model)
    for key, layer in zip(layer_keys(chosen), chosen):
        if not _own_weights(layer) and not hasattr(layer, "layers"):
            continue
        if key not in keys:
            raise ValueError(f"Layer {layer.name!r} (stored as {key!r}) was not found in the weights file, which "
                             f"holds {keys}. The model must have the saved model's layers, in the same order.")
        _read_layer(stored[key], layer, skip_mismatch)


def _read_layer(group, layer, skip_mismatch) -> None:
    from .models import Model
    if isinstance(layer, Model):
        _read_model(group, layer, skip_mismatch)
        return
    if isinstance(layer, _Recurrent):
        group = group["cell"]
    stored = group["vars"]
    weights = _own_weights(layer)
    values = [np.asarray(stored[str(i)]) for i in range(len(stored))]
    if len(values) != len(weights):
        if skip_mismatch:
            return
        raise ValueError(f"Layer {layer.name!r} expected {len(weights)} variables, but received {len(values)} "
                         f"variables during loading. Expected: {[w.name for w in weights]}")
    for variable, value in zip(weights, values):
        if tuple(value.shape) != tuple(variable.shape):
            if skip_mismatch:
                return
            raise ValueError(f"The shape of the target variable and the shape of the target value in "
                             f"`variable.assign(value)` must match. variable.shape={tuple(variable.shape)}, Received: "
                             f"value.shape={value.shape}. Target variable: {variable.name} (layer {layer.name})")
    for variable, value in zip(weights, values):
        variable.assign(value.astype(variable.dtype.numpy_dtype))


# -- architecture ----------------------------------------------------------------------------------------------

_SKIPPED = {"name", "trainable", "dtype", "kwargs", "self"}


def layer_config(layer) -> dict:
    """A layer as Keras serializes it: module, class_name, config (its constructor arguments), build_config."""
    from .layers import InputLayer
    if isinstance(layer, InputLayer):
        return {"module": "keras.layers", "class_name": "InputLayer", "registered_name": None,
                "config": {"batch_shape": list(layer.output.shape), "dtype": layer.dtype.name, "sparse": False,
                           "ragged": False, "name": layer.name, "optional": False}}
    config = {"name": layer.name, "trainable": layer.trainable, "dtype": layer.dtype.name}
    args, kwargs = getattr(layer, "_init_arguments", ((), {}))
    signature = inspect.signature(type(layer).__init__)
    try:
        bound = signature.bind(layer, *args, **kwargs)
    except TypeError as error:
        raise NotImplementedError(f"Layer {layer.name!r} cannot be serialized: {error}") from None
    for key, value in bound.arguments.items():
        if signature.parameters[key].kind is inspect.Parameter.VAR_KEYWORD:
            config.update({k: _serialize_value(k, v, layer) for k, v in value.items() if k not in _SKIPPED})
        elif key not in _SKIPPED:
            config[key] = _serialize_value(key, value, layer)
    out = {"module": "keras.layers", "class_name": type(layer).__name__, "config": config, "registered_name": None}
    if layer.input_shape is not None:
        shape = layer.input_shape
        out["build_config"] = {"input_shape": [list(s) for s in shape] if isinstance(shape, list) else list(shape)}
    return out


def _serialize_value(key, value, layer):
    if key.endswith("activation") and value is not None and not isinstance(value, str):
        return activations.serialize(activations.get(value))
    if isinstance(value, initializers.Initializer):
        return {"module": "keras.initializers", "class_name": type(value).__name__, "config": value.get_config(),
                "registered_name": None}
    if isinstance(value, regularizers.Regularizer):
        return {"module": "keras.regularizers", "class_name": type(value).__name__, "config": value.get_config(),
                "registered_name": None}
    if callable(value):
        raise NotImplementedError(f"Layer {layer.name!r} has a Python function for {key!r}; placeflow cannot save it "
                                  f"in a .keras file (Keras would need the function's code).")
    if isinstance(value, tuple):
        return list(value)
    return value


def model_config(model) -> dict:
    """The model's architecture as Keras 3's config.json holds it (Sequential or functional)."""
    from . import functional
    from .layers import InputLayer
    from .models import Sequential
    if isinstance(model, Sequential):
        layers = []
        if model.input_shape is not None:
            layers.append(layer_config(InputLayer(tuple(model.input_shape)[1:], name=f"{model.name}_input")))
        layers += [layer_config(layer) for layer in model._layers]
        return {"module": "keras", "class_name": "Sequential", "registered_name": None,
                "config": {"name": model.name, "trainable": model.trainable, "dtype": model.dtype.name,
                           "layers": layers},
                "build_config": {"input_shape": list(model.input_shape) if model.input_shape else None}}
    if model._inputs is None:
        raise NotImplementedError("model.save writes Sequential and functional models; save a subclassed model's "
                                  "weights with save_weights and rebuild it from its class.")
    history = {}
    for node in model._nodes:
        history[id(node)] = [node.layer.name, 0, 0]
    layers, seen = [], set()
    for node in model._nodes:
        layer = node.layer
        if id(layer) in seen:
            raise NotImplementedError(f"Layer {layer.name!r} is called more than once; placeflow does not save "
                                      f"shared layers in .keras files yet.")
        seen.add(id(layer))
        entry = layer_config(layer)
        entry["name"] = layer.name
        entry["inbound_nodes"] = [] if node.inputs is None else [
            {"args": [_tensor_refs(node.inputs, history)], "kwargs": dict(node.kwargs)}]
        layers.append(entry)
    refs = lambda tensors: [history[id(t)] for t in functional.flat_keras_tensors(tensors)]  # noqa: E731
    inputs, outputs = refs(model._inputs), refs(model._outputs)
    return {"module": "keras.src.models.functional", "class_name": "Functional", "registered_name": "Functional",
            "build_config": {"input_shape": None},
            "config": {"name": model.name, "trainable": model.trainable, "layers": layers,
                       "input_layers": inputs[0] if len(inputs) == 1 else inputs,
                       "output_layers": outputs[0] if len(outputs) == 1 else outputs}}


def _tensor_refs(inputs, history):
    if isinstance(inputs, (list, tuple)):
        return [_tensor_refs(t, history) for t in inputs]
    return {"class_name": "__keras_tensor__", "config": {"shape": list(inputs.shape), "dtype": inputs.dtype.name,
                                                         "keras_history": history[id(inputs)]}}


def save_model(model, filepath, overwrite=True) -> None:
    """Write a .keras archive: metadata.json, config.json and model.weights.h5."""
    filepath = os.fspath(filepath)
    if not filepath.endswith(".keras"):
        raise ValueError(f"Invalid filepath extension for saving. Please add the `.keras` extension. Received: "
                         f"filepath={filepath}")
    if os.path.exists(filepath) and not overwrite:
        raise FileExistsError(f"{filepath} exists and overwrite=False.")
    config = model_config(model)
    config["compile_config"] = _compile_config(model)
    metadata = {"keras_version": KERAS_VERSION, "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")}
    with tempfile.TemporaryDirectory() as scratch:
        weights = os.path.join(scratch, "model.weights.h5")
        save_weights(model, weights)
        with zipfile.ZipFile(filepath, "w") as archive:
            archive.writestr("metadata.json", json.dumps(metadata))
            archive.writestr("config.json", json.dumps(config))
            archive.write(weights, "model.weights.h5")


def _compile_config(model):
    if model.optimizer is None or model.loss is None:
        return None
    return {"optimizer": {"module": "keras.optimizers", "class_name": type(model.optimizer).__name__,
                          "config": _optimizer_config(model.optimizer), "registered_name": None},
            "loss": getattr(model, "_compiled_loss", model.loss.name),
            "metrics": [_metric_entry(m) for m in getattr(model, "_compiled_metrics", [])] or None,
            "loss_weights": None, "weighted_metrics": None, "run_eagerly": False, "steps_per_execution": 1,
            "jit_compile": False}


def _metric_entry(metric):
    """A compiled metric as Keras's compile_config holds it: its name string, or its class and config."""
    if isinstance(metric, str):
        return metric
    if callable(metric) and not hasattr(metric, "_batch_state"):
        raise NotImplementedError(f"model.save cannot write the metric function {metric!r} (Keras would need its "
                                  f"code); compile with a metric name or a keras.metrics object.")
    return {"module": "keras.metrics", "class_name": type(metric).__name__, "config": metric.get_config(),
            "registered_name": None}


def _metric_from(entry):
    if not isinstance(entry, dict):
        return entry
    from . import metrics
    cls = getattr(metrics, entry.get("class_name", ""), None)
    if cls is None:
        raise NotImplementedError(f"placeflow has no Keras metric {entry.get('class_name')!r}; load with "
                                  f"compile=False and compile the model yourself.")
    accepted = inspect.signature(cls.__init__).parameters
    return cls(**{k: v for k, v in entry.get("config", {}).items() if k in accepted})


def _optimizer_config(optimizer) -> dict:
    config = optimizer.get_config()
    return {k: v for k, v in config.items() if v is not None or k in ("clipnorm", "clipvalue", "global_clipnorm")}


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):  # noqa: A002 - Keras's name
    """A model from a .keras archive written by placeflow or Keras 3 (Sequential or functional)."""
    filepath = os.fspath(filepath)
    if not filepath.endswith(".keras"):
        raise ValueError(f"File format not supported: filepath={filepath}. placeflow loads Keras 3 .keras files.")
    with zipfile.ZipFile(filepath) as archive:
        config = json.loads(archive.read("config.json"))
        with tempfile.TemporaryDirectory() as scratch:
            archive.extract("model.weights.h5", scratch)
            model = model_from_config(config, custom_objects)
            load_weights(model, os.path.join(scratch, "model.weights.h5"))
    if compile and config.get("compile_config"):
        _compile_from(model, config["compile_config"])
    return model


def model_from_config(config, custom_objects=None):
    """Build a Sequential or functional model (unbuilt weights) from Keras's serialized config."""
    from .layers import Input
    from .models import Model, Sequential
    kind, body = config.get("class_name"), config.get("config", {})
    if kind == "Sequential":
        model = Sequential(name=body.get("name"))
        for entry in body.get("layers", []):
            if entry["class_name"] == "InputLayer":
                shape = entry["config"].get("batch_shape") or entry["config"].get("batch_input_shape")
                model.add(Input(shape=tuple(shape[1:]), dtype=entry["config"].get("dtype")))
            else:
                model.add(layer_from_config(entry, custom_objects))
        return model
    if kind in ("Functional", "Model"):
        made = {}
        for entry in body["layers"]:
            name = entry["config"]["name"]
            if entry["class_name"] == "InputLayer":
                shape = entry["config"].get("batch_shape") or entry["config"].get("batch_input_shape")
                made[name] = Input(shape=tuple(shape[1:]), dtype=entry["config"].get("dtype"), name=name)
                continue
            layer = layer_from_config(entry, custom_objects)
            nodes = entry.get("inbound_nodes") or []
            if len(nodes) != 1:
                raise NotImplementedError(f"Layer {name!r} is called {len(nodes)} times in this model; placeflow "
                                          f"loads layers called once.")
            node = nodes[0]
            arguments = node["args"][0] if len(node["args"]) == 1 else node["args"]
            made[name] = layer(_resolve(arguments, made), **node.get("kwargs", {}))

        def pick(refs):
            if refs and isinstance(refs[0], str):
                return made[refs[0]]
            return [made[r[0]] for r in refs]
        return Model(inputs=pick(body["input_layers"]), outputs=pick(body["output_layers"]), name=body.get("name"))
    raise NotImplementedError(f"placeflow loads Sequential and functional models; this file holds a {kind!r}.")


def _resolve(arguments, made):
    if isinstance(arguments, list):
        return [_resolve(a, made) for a in arguments]
    if isinstance(arguments, dict) and arguments.get("class_name") == "__keras_tensor__":
        return made[arguments["config"]["keras_history"][0]]
    raise NotImplementedError(f"Unsupported layer argument in a .keras config: {arguments!r}")


_DROPPED = {"dtype", "trainable", "quantization_config", "seed_generator", "lora_rank", "lora_alpha",
            "renorm", "renorm_clipping", "renorm_momentum"}
_MUST_BE_EMPTY = ("constraint", "activity_regularizer")


def layer_from_config(entry, custom_objects=None):
    """A layer from Keras's serialized entry (class_name and config)."""
    from . import layers as layers_module
    name = entry["class_name"]
    cls = (custom_objects or {}).get(name) or getattr(layers_module, name, None)
    if cls is None:
        raise NotImplementedError(f"placeflow has no Keras layer {name!r}; pass it in custom_objects.")
    config = dict(entry["config"])
    for key in list(config):
        if any(key.endswith(suffix) for suffix in _MUST_BE_EMPTY) and config[key] is not None:
            raise NotImplementedError(f"Layer {config.get('name')!r} has {key}={config[key]!r}; placeflow does not "
                                      f"implement regularizers and constraints.")
        if key in _DROPPED or any(key.endswith(suffix) for suffix in _MUST_BE_EMPTY):
            if key in ("renorm",) and config[key]:
                raise NotImplementedError("BatchNormalization(renorm=True) is not implemented in placeflow.")
            config.pop(key)
        elif isinstance(config[key], dict) and config[key].get("module") == "keras.initializers":
            config[key] = _initializer(config[key])
        elif isinstance(config[key], dict) and config[key].get("module") == "keras.regularizers":
            config[key] = _regularizer(config[key])
    trainable = entry["config"].get("trainable", True)
    accepted = inspect.signature(cls.__init__).parameters
    unknown = [k for k in config if k not in accepted and k != "name"]
    for key in unknown:
        if config[key] in (None, False, 0, 0.0, [], {}):
            config.pop(key)
    layer = cls(**config)
    layer.trainable = trainable
    build = entry.get("build_config")
    if build and build.get("input_shape") is not None and not layer.built:
        shape = build["input_shape"]
        layer._maybe_build([tuple(s) for s in shape] if shape and isinstance(shape[0], list) else tuple(shape))
    return layer


def _regularizer(entry):
    cls = getattr(regularizers, entry["class_name"], None)
    if cls is None or not isinstance(cls, type):
        raise NotImplementedError(f"placeflow has no Keras regularizer {entry['class_name']!r}.")
    return cls(**entry.get("config", {}))


def _initializer(entry):
    name = entry["class_name"]
    cls = getattr(initializers, name, None)
    if cls is None:
        raise NotImplementedError(f"placeflow has no Keras initializer {name!r}.")
    config = {k: v for k, v in entry.get("config", {}).items() if v is not None or k == "seed"}
    for key in ("input_axes", "output_axes"):
        config.pop(key, None)
    return cls(**config)


def _compile_from(model, config) -> None:
    from . import optimizers
    optimizer = config.get("optimizer")
    if isinstance(optimizer, dict):
        cls = getattr(optimizers, optimizer["class_name"], None)
        if cls is None:
            raise NotImplementedError(f"placeflow has no Keras optimizer {optimizer['class_name']!r}; load with "
                                      f"compile=False and compile the model yourself.")
        settings = {k: v for k, v in optimizer["config"].items() if k in inspect.signature(cls.__init__).parameters}
        if isinstance(settings.get("learning_rate"), dict):
            raise NotImplementedError("Loading a learning-rate schedule from a .keras file is not implemented; load "
                                      "with compile=False and compile the model yourself.")
        optimizer = cls(**settings)
    loss = config.get("loss")
    if isinstance(loss, dict):
        raise NotImplementedError("Loading a serialized loss object is not implemented; load with compile=False and "
                                  "compile the model yourself.")
    metrics = config.get("metrics")
    model.compile(optimizer=optimizer, loss=loss, metrics=None if metrics is None else
                  [_metric_from(m) for m in metrics])
