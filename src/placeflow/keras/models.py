"""Models: functional `Model(inputs, outputs)`, subclassed `Model`, and `Sequential`, with compile/fit/evaluate/predict.

`fit` traces its step once per batch shape with placeflow.function. Under a MirroredStrategy
scope (where the model was built) each step runs `strategy.run` over the replicas: every global
batch is split across devices, each replica computes its loss scaled by the global batch size,
the optimizer all-reduces the gradients and updates every copy of the weights.
"""

from __future__ import annotations

import numpy as np

from ..api import math_ops
from ..distribute import distribution_context
from ..distribute.values import local_results
from ..eager.tape import GradientTape
from ..graph.function import function
from . import losses as losses_module
from . import metrics as metrics_module
from . import optimizers as optimizers_module
from .callbacks import History
from .layers import InputLayer, KerasTensor, Layer
from .progress import EpochProgress
from .training_data import batches_of, distributed, rows_of


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

    # -- structure ------------------------------------------------------------------------------
    def _init_functional(self, inputs, outputs) -> None:
        if not isinstance(inputs, KerasTensor) or not isinstance(outputs, KerasTensor):
            raise ValueError("placeflow's functional Model takes one Input and one output KerasTensor: "
                             "Model(inputs=keras.Input(shape=...), outputs=layer(...)).")
        chain, tensor = [], outputs
        while tensor.inputs is not None:
            chain.append(tensor.layer)
            tensor = tensor.inputs
        if tensor is not inputs:
            raise ValueError(f"Graph disconnected: the output {outputs!r} is not computed from the input {inputs!r}.")
        self._layers = list(reversed(chain))
        self.built = True
        self.input_shape = inputs.shape

    @property
    def layers(self) -> list:
        """The model's layers, in call order."""
        return list(self._layers)

    def _tracked_weights(self) -> list:
        seen, out = set(), []
        for layer in self._layers:
            for w in layer.weights:
                if id(w) not in seen:
                    seen.add(id(w))
                    out.append(w)
        return out + [w for w in self._weights if id(w) not in seen]

    @property
    def weights(self) -> list:
        """Every weight, layer by layer (get_weights/set_weights use this order)."""
        return self._tracked_weights()

    variables = weights

    def call(self, inputs, training=None):
        """Apply the layers in order."""
        x = inputs
        for layer in self._layers:
            x = layer(x)
        return x

    def __call__(self, inputs, *args, **kwargs):
        if isinstance(inputs, KerasTensor):
            return super().__call__(inputs)
        if not self.built and hasattr(inputs, "shape"):
            self.build(tuple(inputs.shape))
        return self.call(inputs, *args, **kwargs)

    def build(self, input_shape) -> None:
        """Create every layer's weights for inputs of `input_shape` (batch dimension first, may be None)."""
        with self._distribute_strategy.scope():
            shape = tuple(input_shape)
            for layer in self._layers:
                layer._maybe_build(shape)
                shape = layer.compute_output_shape(shape)
        self.input_shape = tuple(input_shape)
        self.built = True

    def summary(self, print_fn=print) -> None:
        """Print the layers, their output shapes and parameter counts."""
        print_fn(f'Model: "{self.name}"')
        rows = [("Layer (type)", "Output Shape", "Param #")]
        shape = self.input_shape
        for layer in self._layers:
            shape = layer.compute_output_shape(shape) if shape is not None else None
            rows.append((f"{layer.name} ({type(layer).__name__})", str(shape), str(layer.count_params())))
        widths = [max(len(r[i]) for r in rows) + 2 for i in range(3)]
        for row in rows:
            print_fn("".join(cell.ljust(w) for cell, w in zip(row, widths)))
        print_fn(f"Total params: {self.count_params()}")

    # -- compile --------------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, **kwargs):
        """Choose the optimizer, the loss ('mse', 'sparse_categorical_crossentropy', ...) and metrics."""
        if distribution_context.has_strategy():
            self._distribute_strategy = distribution_context.get_strategy()
        if optimizer == "rmsprop":
            raise ValueError("placeflow implements the 'sgd' and 'adam' optimizers; pass one of them "
                             "(or an instance of placeflow.keras.optimizers.SGD / Adam).")
        self.optimizer = optimizers_module.get(optimizer)
        if loss is None:
            raise ValueError("compile needs a loss, e.g. loss='mse' or loss='sparse_categorical_crossentropy'.")
        self.loss = losses_module.get(loss)
        self._metric_fns = [metrics_module.resolve(m, self.loss) for m in (metrics or [])]
        self._functions = {}

    @property
    def distribute_strategy(self):
        """The strategy the model was created (or compiled) under."""
        return self._distribute_strategy

    @property
    def metrics_names(self) -> list:
        """'loss' and the compiled metrics' names."""
        return ["loss"] + [name for name, _ in self._metric_fns]

    # -- steps (run once per replica inside strategy.run) -----------------------------------------
    def _sums(self, y, predictions, loss_sum):
        return [loss_sum] + [math_ops.reduce_sum(fn(y, predictions)) for _, fn in self._metric_fns]

    def train_step(self, x, y, global_batch):
        """Forward, loss scaled by the global batch, gradients, optimizer update; returns summed loss/metrics."""
        with GradientTape() as tape:
            predictions = self(x, training=True)
            loss_sum = math_ops.reduce_sum(self.loss.per_example(y, predictions))
            scaled = loss_sum * (1.0 / global_batch)
        variables = self.trainable_variables
        grads = tape.gradient(scaled, variables)
        self.optimizer.apply_gradients(zip(grads, variables))
        return self._sums(y, predictions, loss_sum)

    def test_step(self, x, y, global_batch):
        """Forward and loss only; returns summed loss/metrics."""
        predictions = self(x, training=False)
        return self._sums(y, predictions, math_ops.reduce_sum(self.loss.per_example(y, predictions)))

    def predict_step(self, x):
        """Forward only."""
        return self(x, training=False)

    def _function(self, kind: str):
        fn = self._functions.get(kind)
        if fn is None:
            strategy, step = self._distribute_strategy, getattr(self, f"{kind}_step")
            fn = function(lambda *args: strategy.run(step, args=args), name=f"{kind}_function")
            self._functions[kind] = fn
        return fn

    # -- loops ----------------------------------------------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None, validation_data=None,
            shuffle=True, initial_epoch=0, steps_per_epoch=None, seed=None, **kwargs):
        """Train for `epochs` over (x, y) arrays or a Dataset of (x, y) batches; returns a History."""
        self._require_compiled("fit")
        source = batches_of(x, y, batch_size, shuffle, seed)
        history = History(self, epochs, steps_per_epoch or _length(source))
        with self._distribute_strategy.scope():
            self._build_for(source)
            self.optimizer.build(self.trainable_variables)
            train = self._function("train")
            for epoch in range(initial_epoch, epochs):
                progress = EpochProgress(epoch + 1, epochs, steps_per_epoch or _length(source), verbose)
                logs = self._run_epoch(train, source, progress, steps_per_epoch)
                if validation_data is not None:
                    logs.update({f"val_{k}": v for k, v in self._evaluate(validation_data, batch_size).items()})
                progress.close(logs)
                history.on_epoch_end(epoch, logs)
        self.history = history
        return history

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", return_dict=False, **kwargs):
        """The loss (and metrics) over (x, y): a scalar, a list [loss, *metrics], or a dict."""
        self._require_compiled("evaluate")
        data = x if y is None else (x, y)
        with self._distribute_strategy.scope():
            logs = self._evaluate(data, batch_size)
        if return_dict:
            return logs
        values = list(logs.values())
        return values[0] if len(values) == 1 else values

    def predict(self, x, batch_size=None, verbose=0, **kwargs):
        """Model outputs for `x` (arrays or a Dataset of batches), as one NumPy array."""
        source = batches_of(x, None, batch_size, False)
        outputs = []
        with self._distribute_strategy.scope():
            self._build_for(source)
            predict = self._function("predict")
            for batch in distributed(source, self._distribute_strategy):
                inputs = batch[0] if isinstance(batch, tuple) else batch
                outputs.extend(part.numpy() for part in local_results(predict(inputs)))
        return np.concatenate(outputs, axis=0)

    def _evaluate(self, data, batch_size) -> dict:
        if isinstance(data, tuple) and len(data) == 2:
            source = batches_of(data[0], data[1], batch_size, False)
        else:
            source = batches_of(data, None, batch_size, False)
        self._build_for(source)
        return self._run_epoch(self._function("test"), source, None, None)

    def _run_epoch(self, step_function, source, progress, steps) -> dict:
        totals, seen = np.zeros(1 + len(self._metric_fns)), 0
        for index, batch in enumerate(distributed(source, self._distribute_strategy)):
            if steps is not None and index >= steps:
                break
            x, y = batch
            rows = rows_of(x)
            sums = step_function(x, y, float(rows))
            totals += [sum(float(p.numpy()) for p in local_results(s)) for s in sums]
            seen += rows
            if progress is not None:
                progress.update(self._logs(totals, seen))
        return self._logs(totals, seen)

    def _logs(self, totals, seen) -> dict:
        return {name: float(total) / max(seen, 1) for name, total in zip(self.metrics_names, totals)}

    def _build_for(self, source) -> None:
        if self.built:
            return
        first = next(iter(source._make_iterator()))
        x = first[0] if isinstance(first, tuple) else first
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


def _length(source):
    try:
        return len(source)
    except TypeError:
        return None
