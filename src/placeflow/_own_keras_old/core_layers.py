"""Core layers beyond Dense: Dropout, Lambda, Rescaling, Reshape, Embedding."""

from __future__ import annotations

import numpy as np

from ..api import array_ops, indexing, math_ops, nn
from ..eager.convert import convert_to_tensor
from ..framework import dtypes
from . import initializers, regularizers
from .layers import Layer


class Dropout(Layer):
    """While training, zero each input with probability `rate` and scale the rest by 1 / (1 - rate)."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0.0 <= float(rate) <= 1.0:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value between 0 and 1. "
                             f"Received: rate={rate}")
        self.rate, self.noise_shape, self.seed = float(rate), noise_shape, seed

    def call(self, inputs, training=False):
        if not training or self.rate == 0.0:
            return inputs
        noise = None if self.noise_shape is None else [
            int(inputs.shape[i]) if d is None else int(d) for i, d in enumerate(self.noise_shape)]
        return nn.dropout(inputs, self.rate, noise_shape=noise, seed=self.seed)


class Lambda(Layer):
    """An arbitrary function of the inputs as a layer."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        if mask is not None:
            raise NotImplementedError("Lambda(mask=...) is not implemented in placeflow (no masking).")
        self.function, self.output_shape, self.arguments = function, output_shape, dict(arguments or {})

    def call(self, inputs):
        return self.function(inputs, **self.arguments)

    def compute_output_shape(self, input_shape) -> tuple:
        if self.output_shape is not None:
            shape = self.output_shape(input_shape) if callable(self.output_shape) else self.output_shape
            return (input_shape[0] if not isinstance(input_shape, list) else input_shape[0][0], *tuple(shape))
        return _traced_shape(self.function, input_shape, self.arguments)


def _traced_shape(function, input_shape, arguments) -> tuple:
    """The output shape of `function` found by running it on zeros of the input shape (batch of 2)."""
    from ..framework import graph_mode
    shapes = input_shape if isinstance(input_shape, list) else [input_shape]
    with graph_mode.suspended():
        values = [array_ops.zeros([2 if d is None else int(d) for d in s]) for s in shapes]
        out = function(values if isinstance(input_shape, list) else values[0], **arguments)
    return (None, *tuple(out.shape)[1:])


class Rescaling(Layer):
    """inputs * scale + offset."""

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        inputs = math_ops.cast(inputs, self.dtype) if inputs.dtype != self.dtype else inputs
        return inputs * convert_to_tensor(np.asarray(self.scale, self.dtype.numpy_dtype)) + \
            convert_to_tensor(np.asarray(self.offset, self.dtype.numpy_dtype))


class Reshape(Layer):
    """Reshape each example to `target_shape` (one entry may be -1)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)

    def call(self, inputs):
        return array_ops.reshape(inputs, [-1, *self.target_shape])

    def compute_output_shape(self, input_shape) -> tuple:
        shape = list(self.target_shape)
        if -1 in shape:
            known = 1
            for d in input_shape[1:]:
                known = None if d is None or known is None else known * int(d)
            rest = int(np.prod([d for d in shape if d != -1]))
            shape[shape.index(-1)] = None if known is None else known // rest
        return (input_shape[0], *shape)


class Embedding(Layer):
    """Rows of a trainable [input_dim, output_dim] table, looked up by integer ids."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform", embeddings_regularizer=None,
                 mask_zero=False, **kwargs):
        super().__init__(**kwargs)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        if mask_zero:
            raise NotImplementedError("Embedding(mask_zero=True) is not implemented in placeflow (no masking).")
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings = None

    def build(self, input_shape) -> None:
        self.embeddings = self.add_weight("embeddings", (self.input_dim, self.output_dim),
                                          self.embeddings_initializer, regularizer=self.embeddings_regularizer)

    def __call__(self, inputs, *args, **kwargs):
        if not hasattr(inputs, "shape"):
            inputs = convert_to_tensor(np.asarray(inputs, np.int32))
        return super().__call__(inputs, *args, **kwargs)

    def call(self, inputs):
        ids = inputs if inputs.dtype in (dtypes.int32, dtypes.int64) else math_ops.cast(inputs, dtypes.int32)
        return indexing.gather(self.embeddings, ids)

    def compute_output_shape(self, input_shape) -> tuple:
        return (*tuple(input_shape), self.output_dim)

    def _output_dtype(self, inputs):
        return self.dtype
