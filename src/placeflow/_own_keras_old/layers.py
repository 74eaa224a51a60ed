"""Layers: the Layer base, Input (symbolic KerasTensors for the functional API), Dense, Activation, Flatten.

A layer creates its weights the first time it sees an input shape (`build`), under whatever
strategy scope is current, so weights made inside `MirroredStrategy.scope()` are mirrored.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from ..api import array_ops, math_ops, nn
from ..api.module import tracked_leaves
from ..eager.variables import Variable
from ..framework import dtypes, graph_mode
from . import activations, initializers, regularizers
from .arguments import refuse_keywords
from .naming import snake_case, unique_name

def _records_arguments(init):
    @functools.wraps(init)
    def wrapper(self, *args, **kwargs):
        if "_init_arguments" not in self.__dict__:
            self.__dict__["_init_arguments"] = (args, dict(kwargs))
        init(self, *args, **kwargs)
    return wrapper


def _marks_built(build):
    @functools.wraps(build)
    def wrapper(self, input_shape):
        result = build(self, input_shape)
        self.built = True
        if self.input_shape is None:
            self.input_shape = tuple(input_shape) if not _is_shape_list(input_shape) else list(input_shape)
        return result
    wrapper._marks_built = True
    return wrapper


class KerasTensor:
    """A symbolic model input or layer output: a shape (None = batch), a dtype, and how it was made (the
    layer, the KerasTensor(s) it was called on, and the call's keyword arguments)."""

    def __init__(self, shape, dtype=dtypes.float32, layer=None, inputs=None, name=None, kwargs=None):
        self.shape = tuple(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.layer, self.inputs, self.name = layer, inputs, name
        self.kwargs = dict(kwargs or {})

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return len(self.shape)

    def __repr__(self) -> str:
        return f"<KerasTensor shape={self.shape}, dtype={self.dtype.name}, name={self.name}>"

    def _operator(self, fn, name, other=None, reverse=False):
        from .merging import OperatorLayer
        if other is None:
            return OperatorLayer(fn, name)(self)
        if not isinstance(other, KerasTensor):
            constant = other
            return OperatorLayer((lambda x: fn(constant, x)) if reverse else (lambda x: fn(x, constant)), name)(self)
        return OperatorLayer(fn, name)([other, self] if reverse else [self, other])

    def __add__(self, other):
        return self._operator(math_ops.add, "add", other)

    def __radd__(self, other):
        return self._operator(math_ops.add, "add", other, True)

    def __sub__(self, other):
        return self._operator(math_ops.subtract, "subtract", other)

    def __rsub__(self, other):
        return self._operator(math_ops.subtract, "subtract", other, True)

    def __mul__(self, other):
        return self._operator(math_ops.multiply, "multiply", other)

    def __rmul__(self, other):
        return self._operator(math_ops.multiply, "multiply", other, True)

    def __truediv__(self, other):
        return self._operator(math_ops.divide, "divide", other)

    def __neg__(self):
        return self._operator(math_ops.negative, "negative")

    def __matmul__(self, other):
        return self._operator(math_ops.matmul, "matmul", other)


class Layer:
    """Base layer: weights, build on first call, call on tensors or KerasTensors.

    A layer tracks what is assigned to its attributes, as Keras does: other layers (its sublayers) and
    variables, also inside lists, tuples and dicts, found when asked (so a list filled later counts).
    """

    def __init__(self, trainable=True, name=None, dtype=None, input_shape=None, input_dim=None, **kwargs):
        _refuse_arguments(type(self).__name__, kwargs)
        self.name = name or unique_name(snake_case(type(self).__name__))
        self._trainable = bool(trainable)
        self.dtype = dtypes.as_dtype(dtype or dtypes.float32)
        self.built = False
        self._weights: list = []
        self._regularized: list = []  # (variable, regularizer): the penalties in `losses`
        self.input_shape = None
        if input_dim is not None:
            input_shape = (input_dim,)
        self._declared_input_shape = tuple(input_shape) if input_shape is not None else None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "build" in cls.__dict__:  # calling build(shape) yourself marks the layer built, as in Keras
            cls.build = _marks_built(cls.__dict__["build"])
        if "__init__" in cls.__dict__:  # the constructor's arguments, so clone_model can make a fresh copy
            cls.__init__ = _records_arguments(cls.__dict__["__init__"])

    # -- weights --------------------------------------------------------------------------------
    def add_weight(self, name=None, shape=(), initializer="glorot_uniform", trainable=True, dtype=None,
                   aggregation=None, regularizer=None):
        """Create a weight variable (created eagerly even while a step is traced); `aggregation` says how
        replicas' writes combine under a strategy ('mean' for BatchNormalization's moving statistics)."""
        init = initializers.get(initializer)
        dtype = dtypes.as_dtype(dtype or self.dtype)
        name = name or f"variable_{len(self._weights)}"
        if isinstance(aggregation, str):
            from ..distribute.reduce_op import VariableAggregation
            aggregation = {"mean": VariableAggregation.MEAN, "sum": VariableAggregation.SUM,
                           "none": VariableAggregation.NONE,
                           "only_first_replica": VariableAggregation.ONLY_FIRST_REPLICA}[aggregation]
        with graph_mode.suspended():
            variable = Variable(lambda: init(tuple(shape), dtype), trainable=trainable and self._trainable,
                                name=f"{self.name}/{name}", dtype=dtype, aggregation=aggregation)
        self._weights.append((variable, bool(trainable)))
        if regularizer is not None:
            self._regularized.append((variable, regularizers.get(regularizer)))
        return variable

    @property
    def losses(self) -> list:
        """The weight penalties of this layer and its sublayers (regularizers), computed from the weights now."""
        out = [regularizer(variable) for variable, regularizer in self._regularized]
        for layer in self._sublayers():
            out.extend(layer.losses)
        return out

    @property
    def trainable(self) -> bool:
        """Whether the optimizer may update this layer's weights (setting it freezes or unfreezes them all)."""
        return self._trainable

    @trainable.setter
    def trainable(self, value) -> None:
        self._trainable = bool(value)
        for variable, created_trainable in self._weights:
            if created_trainable:
                variable._set_trainable(self._trainable)
        for layer in self._sublayers():
            layer.trainable = self._trainable

    @property
    def weights(self) -> list:
        """Every weight: this layer's own (creation order), then each sublayer's, each once."""
        out, seen = [], set()
        self._collect_weights(out, seen, {id(self)}, trainable_only=False)
        return out

    def _collect_weights(self, out, seen, visiting, trainable_only) -> None:
        if trainable_only and not self._trainable:  # a frozen layer trains none of its (or its sublayers') weights
            return
        own = [variable for variable, _ in self._weights] + tracked_leaves(self, _is_variable, sort=False)
        for variable in own:
            if id(variable) not in seen and (variable.trainable or not trainable_only):
                seen.add(id(variable))
                out.append(variable)
        for layer in self._sublayers():
            if id(layer) not in visiting:
                visiting.add(id(layer))
                layer._collect_weights(out, seen, visiting, trainable_only)

    def _sublayers(self) -> list:
        """The layers assigned to this layer's attributes (directly or in containers), in assignment order."""
        return tracked_leaves(self, _is_layer, sort=False)

    @property
    def trainable_weights(self) -> list:
        """Weights optimizers update: trainable ones of layers that are not frozen (none while this one is)."""
        out: list = []
        self._collect_weights(out, set(), {id(self)}, trainable_only=True)
        return out

    @property
    def non_trainable_weights(self) -> list:
        """Weights optimizers leave alone (all of them while the layer is frozen)."""
        trainable = {id(w) for w in self.trainable_weights}
        return [w for w in self.weights if id(w) not in trainable]

    @property
    def variables(self) -> list:
        """The same as `weights`."""
        return self.weights

    @property
    def trainable_variables(self) -> list:
        """The same as `trainable_weights`."""
        return self.trainable_weights

    @property
    def non_trainable_variables(self) -> list:
        """The same as `non_trainable_weights`."""
        return self.non_trainable_weights

    def get_weights(self) -> list:
        """Weights as NumPy arrays."""
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights) -> None:
        """Assign NumPy arrays to the weights (same order and shapes as get_weights)."""
        _assign_all(self.weights, weights, self.name)

    # -- calling --------------------------------------------------------------------------------
    def build(self, input_shape) -> None:
        """Create weights for inputs of `input_shape`."""
        self.built = True

    def _maybe_build(self, shape) -> None:
        if not self.built:
            self.input_shape = tuple(shape) if not _is_shape_list(shape) else [tuple(s) for s in shape]
            self.build(self.input_shape)
            self.built = True

    def __call__(self, inputs, *args, **kwargs):
        symbolic = _keras_tensors(inputs)
        if symbolic:
            if args:
                raise NotImplementedError(f"Calling {self.name} on KerasTensors with positional arguments beyond the "
                                          f"inputs is not implemented in placeflow; pass them as keywords.")
            shapes = _shapes_of(inputs)
            self._maybe_build(shapes)
            return self._symbolic_output(inputs, self.compute_output_shape(shapes), kwargs)
        if isinstance(inputs, (list, tuple)):
            inputs = type(inputs)(self._autocast(x) for x in inputs)
            self._maybe_build([tuple(x.shape) for x in inputs])
        else:
            inputs = self._autocast(inputs)
            self._maybe_build(tuple(inputs.shape))
        return self.call(inputs, *args, **_call_kwargs(self, kwargs))

    def _autocast(self, inputs):
        """Floating inputs in the layer's floating dtype (Keras 3 casts float64 NumPy data to float32)."""
        from ..eager.convert import convert_to_tensor
        if not hasattr(inputs, "shape"):
            array = np.asarray(inputs)
            if array.dtype.kind == "f" and self.dtype.is_floating:
                array = array.astype(self.dtype.numpy_dtype)
            return convert_to_tensor(array)
        if isinstance(inputs, np.ndarray):
            inputs = convert_to_tensor(inputs)
        if self.dtype.is_floating and inputs.dtype.is_floating and inputs.dtype != self.dtype:
            return math_ops.cast(inputs, self.dtype)
        return inputs

    def _symbolic_output(self, inputs, shape, kwargs):
        """The KerasTensor this layer makes from KerasTensor `inputs` (output `shape`)."""
        return KerasTensor(shape, self._output_dtype(inputs), self, inputs, name=self.name, kwargs=kwargs)

    def _output_dtype(self, inputs):
        """The dtype of the layer's output (its compute dtype)."""
        return self.dtype

    def _call_on_values(self, arguments, kwargs, training):
        """Run the layer on real tensors inside a functional model (training reaches call when it takes it)."""
        options = dict(kwargs)
        if training is not None and "training" not in options:
            options["training"] = training
        return self(arguments, **options)

    def call(self, inputs, training=None):
        """The layer's computation on real tensors."""
        return inputs

    def compute_output_shape(self, input_shape) -> tuple:
        """The output shape for `input_shape`."""
        return tuple(input_shape)

    def count_params(self) -> int:
        """How many scalars the weights hold."""
        total = 0
        for w in self.weights:
            size = 1
            for d in w.shape:
                size *= int(d)
            total += size
        return total

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


class InputLayer(Layer):
    """The source of a functional model: holds its KerasTensor."""

    def __init__(self, shape, dtype=None, name=None):
        super().__init__(name=name or unique_name("input"), dtype=dtype)
        self.output = KerasTensor((None, *shape), self.dtype, self, None, name=self.name)
        self.built = True


def Input(shape=None, batch_size=None, name=None, dtype=None, **kwargs):  # noqa: N802 - Keras's name
    """A symbolic input of `shape` (without the batch dimension) for the functional API."""
    if shape is None:
        raise ValueError("Please provide to Input a `shape` argument (the shape of one example, e.g. shape=(784,)).")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    layer = InputLayer(shape, dtype, name)
    if batch_size is not None:
        layer.output.shape = (batch_size, *shape)
    return layer.output


class Dense(Layer):
    """activation(inputs @ kernel + bias)."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        if int(units) <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. Received: "
                             f"units={units}")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel = self.bias = None

    def build(self, input_shape) -> None:
        """Kernel [last input dim, units] and bias [units]."""
        last = input_shape[-1]
        if last is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be defined. Found None. "
                             f"Full input shape received: {input_shape}")
        self.kernel = self.add_weight("kernel", (int(last), self.units), self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        if self.use_bias:
            self.bias = self.add_weight("bias", (self.units,), self.bias_initializer, regularizer=self.bias_regularizer)

    def call(self, inputs, training=None):
        """activation(inputs @ kernel + bias)."""
        if len(inputs.shape) > 2:
            outputs = math_ops.matmul(array_ops.reshape(inputs, [-1, int(inputs.shape[-1])]), self.kernel)
            outputs = array_ops.reshape(outputs, [-1 if d is None else int(d) for d in inputs.shape[:-1]] +
                                        [self.units])
        else:
            outputs = math_ops.matmul(inputs, self.kernel)
        if self.use_bias:
            outputs = nn.bias_add(outputs, self.bias)
        return self.activation(outputs)

    def compute_output_shape(self, input_shape) -> tuple:
        return (*tuple(input_shape)[:-1], self.units)


class Activation(Layer):
    """An activation function as a layer."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs, training=None):
        return self.activation(inputs)


class Flatten(Layer):
    """Reshape [batch, d1, d2, ...] to [batch, d1 * d2 * ...]."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last"):
            raise NotImplementedError(f"Flatten(data_format={data_format!r}) is not implemented in placeflow; use "
                                      f"channels_last.")

    def call(self, inputs, training=None):
        size = 1
        for d in inputs.shape[1:]:
            size *= int(d)
        return array_ops.reshape(inputs, [-1, size])

    def compute_output_shape(self, input_shape) -> tuple:
        size = 1
        for d in input_shape[1:]:
            size = None if d is None or size is None else size * int(d)
        return (input_shape[0], size)


_NOT_IMPLEMENTED = frozenset({"activity_regularizer", "kernel_constraint",
                              "bias_constraint", "lora_rank", "lora_alpha", "batch_input_shape", "batch_size",
                              "weights", "input_length"})


def _refuse_arguments(layer: str, kwargs: dict) -> None:
    """Keras arguments placeflow lacks raise NotImplementedError (when set); unknown ones ValueError, as Keras."""
    refuse_keywords(kwargs, _NOT_IMPLEMENTED, layer, f"Unrecognized keyword arguments passed to {layer}: ")


def _call_kwargs(layer, kwargs) -> dict:
    """`training` reaches `call` only when its signature takes it (as in Keras)."""
    if "training" in kwargs and not _call_takes_training(type(layer)):
        kwargs = {k: v for k, v in kwargs.items() if k != "training"}
    return kwargs


@functools.lru_cache(maxsize=None)
def _call_takes_training(cls) -> bool:
    parameters = inspect.signature(cls.call).parameters
    return "training" in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())


def _keras_tensors(inputs) -> list:
    """The KerasTensors among `inputs` (a KerasTensor, or a list/tuple/dict holding them)."""
    if isinstance(inputs, KerasTensor):
        return [inputs]
    if isinstance(inputs, (list, tuple)):
        return [x for x in inputs if isinstance(x, KerasTensor)]
    if isinstance(inputs, dict):
        return [x for x in inputs.values() if isinstance(x, KerasTensor)]
    return []


def _shapes_of(inputs):
    if isinstance(inputs, KerasTensor):
        return inputs.shape
    if isinstance(inputs, dict):
        return {k: v.shape for k, v in inputs.items()}
    return [x.shape for x in inputs]


def _is_shape_list(shape) -> bool:
    return isinstance(shape, list) and bool(shape) and isinstance(shape[0], (tuple, list))


def _is_variable(value) -> bool:
    return isinstance(value, Variable)


def _is_layer(value) -> bool:
    return isinstance(value, Layer)


def _assign_all(variables, values, owner) -> None:
    values = list(values)
    if len(values) != len(variables):
        raise ValueError(f"You called `set_weights(weights)` on {owner} with a weight list of length "
                         f"{len(values)}, but it expects {len(variables)} weights.")
    import numpy as np
    for variable, value in zip(variables, values):
        array = np.asarray(value)
        if tuple(array.shape) != tuple(variable.shape):
            raise ValueError(f"Layer {owner} weight shape {tuple(variable.shape)} is not compatible with provided "
                             f"weight shape {array.shape}.")
    for variable, value in zip(variables, values):
        variable.assign(np.asarray(value, dtype=variable.dtype.numpy_dtype))


# The other layers live in their own modules; keras.layers shows them all (imported last: they subclass Layer).
from .convolution import (  # noqa: E402,F401
    AveragePooling1D, AveragePooling2D, Conv1D, Conv2D, GlobalAveragePooling1D, GlobalAveragePooling2D,
    GlobalMaxPooling1D, GlobalMaxPooling2D, MaxPooling1D, MaxPooling2D,
)
from .core_layers import Dropout, Embedding, Lambda, Rescaling, Reshape  # noqa: E402,F401
from .merging import Add, Average, Concatenate, Maximum, Minimum, Multiply, Subtract  # noqa: E402,F401
from .normalization import BatchNormalization, LayerNormalization, Normalization  # noqa: E402,F401
from .recurrent import GRU, LSTM  # noqa: E402,F401
