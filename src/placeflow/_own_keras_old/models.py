"""Models: functional `Model(inputs, outputs)`, subclassed `Model`, and `Sequential`, with compile/fit/evaluate/predict.

`fit` traces its step once per batch shape with placeflow.function. Under a MirroredStrategy
scope (where the model was built) each step runs `strategy.run` over the replicas: every global
batch is split across devices, each replica computes its loss scaled by the global batch size,
the optimizer all-reduces the gradients and updates every copy of the weights.
"""

from __future__ import annotations

import numpy as np

from ..api import array_ops, math_ops
from ..distribute import distribution_context
from ..distribute.values import local_results
from ..eager.tape import GradientTape
from ..framework import graph_mode, nest
from ..graph.function import function
from ..eager.convert import convert_to_tensor
from . import losses as losses_module
from . import metrics as metrics_module
from . import optimizers as optimizers_module
from .callbacks import CallbackList, History
from . import functional
from .layers import InputLayer, KerasTensor, Layer, _call_kwargs, _call_takes_training
from .progress import EpochProgress
from .training_data import batches_of, distributed, rows_of, split_for_validation


class Model(Layer):
    """A trainable stack of layers: functional (inputs/outputs), or subclassed with `call`."""

    def __init__(self, inputs=None, outputs=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self._distribute_strategy = distribution_context.get_strategy()
        self._inputs, self._outputs = inputs, outputs
        self._layers: list = []
        if inputs is not None or outputs is not None:
            self._init_functional(inputs, outputs)
        self.optimizer = self.loss = None
        self._metric_fns: list = []
        self._functions: dict = {}
        self.history = None
        self.run_eagerly = self.stop_training = False

    # -- structure ------------------------------------------------------------------------------
    def _init_functional(self, inputs, outputs) -> None:
        for tensor in functional.flat_keras_tensors(inputs) + functional.flat_keras_tensors(outputs):
            if not isinstance(tensor, KerasTensor):
                raise ValueError(f"A functional Model takes KerasTensors (from keras.Input and layers) as inputs and "
                                 f"outputs; got {tensor!r}.")
        self._nodes = functional.topological_nodes(inputs, outputs)
        from .merging import OperatorLayer
        layers = []
        for node in self._nodes:
            if node.layer is not None and not isinstance(node.layer, InputLayer) and node.layer not in layers:
                layers.append(node.layer)
        self._layers = layers
        self._listed = [layer for layer in layers if not isinstance(layer, OperatorLayer)]  # Keras 3 lists no ops
        self._input_layers = [t.layer for t in functional.flat_keras_tensors(inputs)]
        self.built = True
        first = functional.flat_keras_tensors(inputs)
        self.input_shape = first[0].shape if len(first) == 1 else [t.shape for t in first]

    @property
    def layers(self) -> list:
        """The model's layers: a functional model's InputLayers first, then its layers in call order; a
        Sequential's in order; a subclassed model's in assignment order."""
        if self._inputs is not None:
            return [*self._input_layers, *self._listed]
        return self._sublayers()

    def get_layer(self, name=None, index=None):
        """The layer named `name`, or at position `index` of `layers`."""
        if index is not None:
            if name is not None:
                raise ValueError("Provide only a layer name or a layer index. Received: "
                                 f"index={index}, name={name}.")
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[layer.name for layer in self.layers]}.")

    def call(self, inputs, training=None):
        """Apply the layers: through the functional graph, or in order (Sequential)."""
        if self._inputs is not None:
            return functional.run(self._nodes, self._inputs, self._outputs, inputs, training)
        x = inputs
        for layer in self._layers:
            x = layer(x, training=training) if _call_takes_training_arg(layer) else layer(x)
        return x

    def __call__(self, inputs, *args, **kwargs):
        if isinstance(inputs, KerasTensor) or (isinstance(inputs, (list, tuple)) and inputs and
                                                all(isinstance(t, KerasTensor) for t in inputs)):
            return super().__call__(inputs)
        if isinstance(inputs, (list, tuple)):
            inputs = type(inputs)(self._autocast(t) for t in inputs)
        elif not isinstance(inputs, dict):
            inputs = self._autocast(inputs)
        if not self.built and hasattr(inputs, "shape"):
            if self._is_subclassed():  # its layers build on this first call, as in Keras
                self.input_shape, self.built = (None, *tuple(inputs.shape)[1:]), True
            else:
                self.build(tuple(inputs.shape))
        return self.call(inputs, *args, **_call_kwargs(self, kwargs))

    def build(self, input_shape) -> None:
        """Create every layer's weights for inputs of `input_shape` (batch dimension first, may be None).

        A subclassed model runs its `call` once on zeros of that shape (one example), eagerly, under the
        model's strategy scope, so its layers create their weights there (mirrored under MirroredStrategy)."""
        with self._distribute_strategy.scope():
            if self._is_subclassed():
                self._build_by_calling(tuple(input_shape))
            elif self._inputs is None:
                shape = tuple(input_shape)
                for layer in self._layers:
                    layer._maybe_build(shape)
                    shape = layer.compute_output_shape(shape)
        self.input_shape = tuple(input_shape)
        self.built = True

    def _is_subclassed(self) -> bool:
        return type(self).call is not Model.call

    def _build_by_calling(self, input_shape, dtype=None) -> None:
        from ..api.array_ops import zeros
        shape = [1 if d is None else int(d) for d in input_shape]
        with graph_mode.suspended():
            self.call(zeros(shape, dtype or self.dtype))

    def summary(self, print_fn=print) -> None:
        """Print the layers, their output shapes and parameter counts."""
        print_fn(f'Model: "{self.name}"')
        rows = [("Layer (type)", "Output Shape", "Param #")]
        if self._inputs is not None:
            for node in self._nodes:
                rows.append((f"{node.layer.name} ({type(node.layer).__name__})", str(node.shape),
                             str(node.layer.count_params())))
        else:
            shape = self.input_shape
            for layer in self._layers:
                shape = layer.compute_output_shape(shape) if shape is not None else None
                rows.append((f"{layer.name} ({type(layer).__name__})", str(shape), str(layer.count_params())))
        widths = [max(len(r[i]) for r in rows) + 2 for i in range(3)]
        for row in rows:
            print_fn("".join(cell.ljust(w) for cell, w in zip(row, widths)))
        print_fn(f"Total params: {self.count_params()}")

    # -- compile --------------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None, weighted_metrics=None,
                run_eagerly=False, steps_per_execution=1, jit_compile="auto", auto_scale_loss=True):
        """Choose the optimizer, the loss ('mse', 'sparse_categorical_crossentropy', ...) and metrics."""
        _refuse_set(loss_weights=loss_weights, weighted_metrics=weighted_metrics)
        if int(steps_per_execution) != 1:
            raise NotImplementedError(f"placeflow runs one step per call: steps_per_execution={steps_per_execution} "
                                      f"is not implemented; leave it at 1.")
        if jit_compile not in ("auto", False, None):
            raise NotImplementedError("placeflow has no XLA: jit_compile=True is not implemented; leave it 'auto'.")
        if distribution_context.has_strategy():
            self._distribute_strategy = distribution_context.get_strategy()
        self.optimizer = optimizers_module.get(optimizer)
        if loss is None:
            raise ValueError("compile needs a loss, e.g. loss='mse' or loss='sparse_categorical_crossentropy'.")
        self.loss = losses_module.get(loss)
        self._compiled_loss = loss if isinstance(loss, str) else self.loss.name
        if self.loss.reduction != "sum_over_batch_size":
            raise NotImplementedError(f"fit averages the loss over the global batch (reduction "
                                      f"'sum_over_batch_size'); a loss with reduction={self.loss.reduction!r} is not "
                                      f"implemented in training.")
        self._metric_fns = [metrics_module.resolve(m, self.loss) for m in (metrics or [])]
        self._compiled_metrics = list(metrics or [])
        self._state_sizes = [len(m._state_shapes()) for m in self._metric_fns]
        self.run_eagerly = bool(run_eagerly)
        self._functions = {}

    @property
    def distribute_strategy(self):
        """The strategy the model was created (or compiled) under."""
        return self._distribute_strategy

    @property
    def metrics_names(self) -> list:
        """'loss' and the compiled metrics' names."""
        return ["loss"] + [metric.name for metric in self._metric_fns]

    # -- steps (run once per replica inside strategy.run) -----------------------------------------
    def _sums(self, y, predictions, loss_sum):
        """The summed loss, then each compiled metric's batch state (sums that add across replicas and steps)."""
        return [loss_sum] + [part for metric in self._metric_fns for part in metric._batch_state(y, predictions, None)]

    def train_step(self, x, y, sample_weight, global_batch):
        """Forward, loss scaled by the global batch, gradients, optimizer update; returns summed loss/metrics."""
        with GradientTape() as tape:
            predictions = self(x, training=True)
            loss_sum = math_ops.reduce_sum(self.loss.per_example(y, predictions, sample_weight))
            scaled = loss_sum * (1.0 / global_batch)
            penalty = self._penalty()
            if penalty is not None:  # added once per step: each of the replicas adds its share
                scaled = scaled + penalty * (1.0 / distribution_context.get_strategy().num_replicas_in_sync)
        variables = self.trainable_variables
        grads = tape.gradient(scaled, variables)
        self.optimizer.apply_gradients(zip(grads, variables))
        return self._sums(y, predictions, self._with_penalty(loss_sum, penalty, predictions))

    def test_step(self, x, y, sample_weight, global_batch):
        """Forward and loss only; returns summed loss/metrics."""
        predictions = self(x, training=False)
        loss_sum = math_ops.reduce_sum(self.loss.per_example(y, predictions, sample_weight))
        return self._sums(y, predictions, self._with_penalty(loss_sum, self._penalty(), predictions))

    def _penalty(self):
        """The sum of the weight penalties (regularizers), or None without any."""
        losses = self.losses
        return math_ops.add_n([math_ops.cast(loss, "float32") for loss in losses]) if losses else None

    @staticmethod
    def _with_penalty(loss_sum, penalty, predictions):
        """The summed loss as fit reports it: each example's loss plus the penalty (Keras's reported loss)."""
        if penalty is None:
            return loss_sum
        rows = math_ops.cast(array_ops.shape(predictions)[0], loss_sum.dtype)
        return loss_sum + penalty * rows

    def predict_step(self, x):
        """Forward only."""
        return self(x, training=False)

    def _function(self, kind: str):
        fn = self._functions.get(kind)
        if fn is None:
            strategy, step = self._distribute_strategy, getattr(self, f"{kind}_step")
            fn = lambda *args: strategy.run(step, args=args)  # noqa: E731
            if not self.run_eagerly:
                fn = function(fn, name=f"{kind}_function")
            self._functions[kind] = fn
        return fn

    # -- loops ----------------------------------------------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, validation_batch_size=None, validation_freq=1, seed=None):
        """Train for `epochs` over (x, y) arrays or a Dataset of (x, y) batches; returns a History.

        `seed` (placeflow's) seeds the per-epoch shuffling of arrays."""
        self._require_compiled("fit")
        if validation_split:
            if validation_data is not None:
                validation_split = 0.0  # Keras: validation_data wins
            else:
                (x, y, sample_weight), validation_data = split_for_validation(x, y, sample_weight, validation_split)
        source = batches_of(x, y, batch_size, shuffle, seed, sample_weight, class_weight)
        steps = steps_per_epoch or _length(source)
        self.history = History()
        callbacks = CallbackList([*(callbacks or []), self.history], self,
                                 {"epochs": epochs, "steps": steps, "verbose": verbose})
        self.stop_training = False
        with self._distribute_strategy.scope():
            self._build_for(source)
            self.optimizer.build(self.trainable_variables)
            train = self._function("train")
            callbacks.on_train_begin()
            logs = {}
            stream = _Continuing(lambda: iter(distributed(source, self._distribute_strategy)), steps_per_epoch) \
                if steps_per_epoch else None
            for epoch in range(initial_epoch, epochs):
                callbacks.on_epoch_begin(epoch)
                progress = EpochProgress(epoch + 1, epochs, steps, verbose)
                logs = self._run_epoch(train, source, steps_per_epoch, progress, callbacks, "train",
                                       stream.epoch() if stream is not None else None)
                if validation_data is not None and _validates(epoch, validation_freq):
                    val = self._evaluate(validation_data, validation_batch_size or batch_size, validation_steps,
                                         callbacks, verbose=0)
                    logs.update({f"val_{k}": v for k, v in val.items()})
                progress.close(logs)
                callbacks.on_epoch_end(epoch, logs)
                if self.stop_training:
                    break
            callbacks.on_train_end(logs)
        return self.history

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None,
                 callbacks=None, return_dict=False):
        """The loss (and metrics) over (x, y): a scalar, a list [loss, *metrics], or a dict."""
        self._require_compiled("evaluate")
        data = x if y is None and sample_weight is None else (x, y, sample_weight)
        callbacks = CallbackList(callbacks, self, {"steps": steps, "verbose": verbose})
        with self._distribute_strategy.scope():
            logs = self._evaluate(data, batch_size, steps, callbacks, verbose)
        if return_dict:
            return logs
        values = list(logs.values())
        return values[0] if len(values) == 1 else values

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """Model outputs for `x` (arrays or a Dataset of batches), as one NumPy array."""
        source = batches_of(x, None, batch_size, False)
        callbacks = CallbackList(callbacks, self, {"steps": steps, "verbose": verbose})
        progress = EpochProgress(0, None, steps or _length(source), 2 if verbose in (1, "auto") else verbose)
        outputs = []
        with self._distribute_strategy.scope():
            self._build_for(source)
            predict = self._function("predict")
            callbacks.on_predict_begin()
            for index, batch in enumerate(distributed(source, self._distribute_strategy, every_worker_whole=True)):
                if steps is not None and index >= steps:
                    break
                callbacks.on_predict_batch_begin(index)
                inputs = batch[0] if isinstance(batch, tuple) else batch
                parts = [part.numpy() for part in local_results(predict(inputs))]
                outputs.extend(parts)
                progress.update({})
                callbacks.on_predict_batch_end(index, {"outputs": np.concatenate(parts, axis=0)})
            callbacks.on_predict_end()
        progress.close({})
        return np.concatenate(outputs, axis=0)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, return_dict=False):
        """One training step on one batch; its loss and metrics (a scalar, a list, or a dict)."""
        self._require_compiled("train_on_batch")
        return self._on_batch("train", x, y, sample_weight, class_weight, return_dict)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """The loss and metrics of one batch, without training."""
        self._require_compiled("test_on_batch")
        return self._on_batch("test", x, y, sample_weight, None, return_dict)

    def predict_on_batch(self, x):
        """The model's outputs for one batch, as a NumPy array."""
        return self.predict(x, batch_size=len(np.asarray(x)) if not hasattr(x, "_make_iterator") else None,
                            verbose=0)

    def _on_batch(self, kind, x, y, sample_weight, class_weight, return_dict):
        rows = len(np.asarray(nest.flatten(x)[0])) if not hasattr(x, "_make_iterator") else None
        source = batches_of(x, y, rows, False, None, sample_weight, class_weight)
        with self._distribute_strategy.scope():
            self._build_for(source)
            if kind == "train":
                self.optimizer.build(self.trainable_variables)
            logs = self._run_epoch(self._function(kind), source, None, None, CallbackList([], self, {}), kind)
        if return_dict:
            return logs
        values = list(logs.values())
        return values[0] if len(values) == 1 else values

    def save_weights(self, filepath, overwrite=True):
        """Write the weights to a Keras 3 .weights.h5 file (Keras can read it)."""
        from . import saving
        saving.save_weights(self, filepath, overwrite)

    def load_weights(self, filepath, skip_mismatch=False):
        """Read weights from a .weights.h5 file written by placeflow or Keras 3 (layers matched by name)."""
        from . import saving
        saving.load_weights(self, filepath, skip_mismatch)

    def save(self, filepath, overwrite=True, zipped=None, **kwargs):
        """Write a Keras 3 .keras archive (architecture, weights, compile settings) of this model."""
        if zipped not in (None, True) or kwargs:
            raise NotImplementedError(f"model.save({', '.join(['zipped'] * (zipped is not None) + list(kwargs))}"
                                      f"=...) is not implemented in placeflow; it writes zipped .keras files.")
        from . import saving
        saving.save_model(self, filepath, overwrite)

    def get_config(self) -> dict:
        """The architecture as Keras serializes it (Sequential and functional models)."""
        from . import saving
        return saving.model_config(self)["config"]

    @property
    def metrics(self) -> list:
        """The compiled metrics (Metric objects)."""
        return list(self._metric_fns)

    @property
    def output_shape(self):
        """The shape of the model's output (batch dimension None)."""
        if self._inputs is not None:
            outputs = functional.flat_keras_tensors(self._outputs)
            return outputs[0].shape if len(outputs) == 1 else [t.shape for t in outputs]
        if self.input_shape is None:
            raise AttributeError(f"The model {self.name} has not been built yet: it has no output shape.")
        shape = tuple(self.input_shape)
        for layer in self._layers:
            shape = layer.compute_output_shape(shape)
        return shape

    def _evaluate(self, data, batch_size, steps, callbacks, verbose=0) -> dict:
        """The averages over `data`; `verbose` prints them as one line (fit's validation passes 0)."""
        if isinstance(data, tuple) and len(data) in (2, 3):
            source = batches_of(data[0], data[1], batch_size, False, None, *data[2:])
        else:
            source = batches_of(data, None, batch_size, False)
        self._build_for(source)
        callbacks.on_test_begin()
        progress = EpochProgress(0, None, steps or _length(source), 2 if verbose in (1, "auto") else verbose)
        logs = self._run_epoch(self._function("test"), source, steps, progress, callbacks, "test")
        progress.close(logs)
        callbacks.on_test_end(logs)
        return logs

    def _run_epoch(self, step_function, source, steps, progress, callbacks, kind, stream=None) -> dict:
        """One pass: over `source`, or `steps` batches of `stream` (an iterator that continues across epochs,
        as Keras's with steps_per_epoch)."""
        totals, seen = None, 0
        begin, end = getattr(callbacks, f"on_{kind}_batch_begin"), getattr(callbacks, f"on_{kind}_batch_end")
        batches = stream if stream is not None else distributed(source, self._distribute_strategy)
        extended = self._distribute_strategy.extended
        for index, batch in enumerate(batches):
            if steps is not None and index >= steps:
                break
            begin(index)
            x, y, *weights = batch
            rows = int(extended.host_sum_over_workers(np.array([rows_of(x)]))[0])  # the global batch
            sums = step_function(x, y, weights[0] if weights else None, float(rows))
            batch = _summed_over_workers(extended, [sum(np.asarray(p.numpy(), np.float64) for p in local_results(s))
                                                    for s in sums])
            totals = batch if totals is None else [t + b for t, b in zip(totals, batch)]
            seen += rows
            logs = self._logs(totals, seen)
            if progress is not None:
                progress.update(logs)
            end(index, logs)
            if kind == "train" and self.stop_training:
                break
        return self._logs(totals, seen)

    def _logs(self, totals, seen) -> dict:
        if totals is None:
            return {name: 0.0 for name in self.metrics_names}
        logs, position = {"loss": float(totals[0]) / max(seen, 1)}, 1
        for metric, size in zip(self._metric_fns, self._state_sizes):
            state = [convert_to_tensor(np.asarray(t, np.float32)) for t in totals[position:position + size]]
            logs[metric.name] = float(metric._result_from(state).numpy())
            position += size
        return logs

    def _build_for(self, source) -> None:
        if self.built:
            return
        first = next(iter(source._make_iterator()))
        x = first[0] if isinstance(first, tuple) else first
        if self._is_subclassed():  # integer inputs (ids) keep their dtype; floating ones take the model's
            dtype = x.dtype if np.dtype(getattr(x.dtype, "numpy_dtype", x.dtype)).kind in "iub" else self.dtype
            with self._distribute_strategy.scope():
                self._build_by_calling((None, *np.shape(x)[1:]), dtype)
            self.input_shape, self.built = (None, *np.shape(x)[1:]), True
        else:
            self.build((None, *np.shape(x)[1:]))

    def _require_compiled(self, what: str) -> None:
        if self.optimizer is None or self.loss is None:
            raise RuntimeError(f"You must compile your model before training/testing. Use `model.compile(optimizer, "
                               f"loss)` before calling {what}.")


class Sequential(Model):
    """A linear stack of layers."""

    def __init__(self, layers=None, name=None):
        super().__init__(name=name)
        for layer in layers or []:
            self.add(layer)

    def add(self, layer) -> None:
        """Append a layer (an InputLayer/Input sets the input shape)."""
        if isinstance(layer, KerasTensor):
            layer = layer.layer
        if isinstance(layer, InputLayer):
            self.build(layer.output.shape)
            return
        if not isinstance(layer, Layer):
            raise TypeError(f"The added layer must be an instance of class Layer. Received: layer={layer!r} of type "
                            f"{type(layer)}.")
        self._layers.append(layer)
        declared = getattr(layer, "_declared_input_shape", None)
        if len(self._layers) == 1 and declared is not None:
            self.build((None, *declared))
        elif self.built:
            self.build(self.input_shape)
        self._functions = {}


def _summed_over_workers(extended, arrays) -> list:
    """Each of `arrays` summed over every worker (one collective for all of them); as given on one worker."""
    if extended.num_workers == 1:
        return arrays
    total = extended.host_sum_over_workers(np.concatenate([np.ravel(a) for a in arrays]))
    bounds = np.cumsum([0] + [np.size(a) for a in arrays])
    return [total[lo:hi].reshape(np.shape(a)) for lo, hi, a in zip(bounds, bounds[1:], arrays)]


class _Continuing:
    """Batches for fit with steps_per_epoch: each epoch takes the next `steps` batches of one pass, which
    starts again only when it runs out (Keras 3's epoch iterator)."""

    def __init__(self, start, steps):
        self._start, self._steps, self._iterator = start, int(steps), None

    def epoch(self):
        """The next epoch's batches (fewer than `steps` when the pass ends within it)."""
        if self._iterator is None:
            self._iterator = self._start()
        for _ in range(self._steps):
            batch = next(self._iterator, None)
            if batch is None:
                self._iterator = None
                return
            yield batch


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):  # noqa: A002 - Keras's name
    """A model from a .keras archive written by placeflow or Keras 3."""
    from . import saving
    return saving.load_model(filepath, custom_objects, compile, safe_mode)


def clone_model(model, input_tensors=None, clone_function=None):
    """A new model of the same layers (each made again from its constructor arguments, with fresh weights):
    Sequential and functional models."""
    if input_tensors is not None:
        raise NotImplementedError("clone_model(input_tensors=...) is not implemented in placeflow.")
    clone = clone_function or _fresh_layer
    if isinstance(model, Sequential):
        copy = Sequential(name=None)
        if model.input_shape is not None:
            from .layers import Input
            copy.add(Input(shape=tuple(model.input_shape)[1:]))
        for layer in model._layers:
            copy.add(clone(layer))
        return copy
    if model._inputs is None:
        raise ValueError("clone_model clones Sequential and functional models; a subclassed model's layers are made "
                         "by its own __init__: create a new instance instead.")
    from .layers import Input
    made, fresh = {}, {}
    for tensor in functional.flat_keras_tensors(model._inputs):
        made[id(tensor)] = Input(shape=tensor.shape[1:], dtype=tensor.dtype, name=tensor.name)
    for node in model._nodes:
        if id(node) in made:
            continue
        layer = fresh.get(id(node.layer))
        if layer is None:
            layer = fresh[id(node.layer)] = clone(node.layer)
        arguments = nest.pack_as(node.inputs, [made[id(t)] for t in functional.flat_keras_tensors(node.inputs)])
        made[id(node)] = layer(arguments, **node.kwargs)
    inputs = nest.pack_as(model._inputs, [made[id(t)] for t in functional.flat_keras_tensors(model._inputs)])
    outputs = nest.pack_as(model._outputs, [made[id(t)] for t in functional.flat_keras_tensors(model._outputs)])
    return Model(inputs=inputs, outputs=outputs)


def _fresh_layer(layer):
    from .merging import OperatorLayer
    if isinstance(layer, OperatorLayer):
        return OperatorLayer(layer._fn, layer._operator)
    args, kwargs = getattr(layer, "_init_arguments", ((), {}))
    kwargs = dict(kwargs)
    kwargs.pop("name", None)
    return type(layer)(*args, **kwargs)


def _call_takes_training_arg(layer) -> bool:
    return _call_takes_training(type(layer))


def _refuse_set(**arguments) -> None:
    """Keras arguments placeflow does not implement: refused when given, never ignored."""
    given = sorted(name for name, value in arguments.items() if value is not None)
    if given:
        raise NotImplementedError(f"compile({', '.join(given)}=...) is not implemented in placeflow; leave "
                                  f"{' and '.join(given)} unset.")


def _validates(epoch: int, freq) -> bool:
    """Whether fit validates after `epoch` (0-based): every `freq` epochs, or the epochs listed."""
    if isinstance(freq, int):
        if freq < 1:
            raise ValueError(f"`validation_freq` must be a positive integer or a list of epochs; got {freq}.")
        return (epoch + 1) % freq == 0
    return (epoch + 1) in freq


def _length(source):
    try:
        return len(source)
    except TypeError:
        return None
