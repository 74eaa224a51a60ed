"""Convolution and pooling layers (channels_last, as Keras's default)."""

from __future__ import annotations

from ..api import array_ops, math_ops, nn
from . import activations, initializers, regularizers
from .layers import Layer


def _tuple(value, rank: int, what: str) -> tuple:
    values = (int(value),) * rank if isinstance(value, int) else tuple(int(v) for v in value)
    if len(values) != rank or min(values) < 1:
        raise ValueError(f"The `{what}` argument must be a tuple of {rank} positive integers. Received: {value}")
    return values


def _padding(padding: str) -> str:
    padding = str(padding).lower()
    if padding not in ("valid", "same"):
        raise ValueError(f"The `padding` argument must be one of 'valid', 'same'. Received: {padding}")
    return padding


def _channels_last(data_format) -> None:
    if data_format not in (None, "channels_last"):
        raise NotImplementedError(f"data_format={data_format!r} is not implemented in placeflow's Keras layers; "
                                  f"use channels_last.")


def _out_length(size, window, stride, padding):
    if size is None:
        return None
    return -(-size // stride) if padding == "same" else (size - window) // stride + 1


class _Conv(Layer):
    rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 groups=1, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, **kwargs):
        super().__init__(**kwargs)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        _channels_last(data_format)
        self.filters, self.groups = int(filters), int(groups)
        self.kernel_size = _tuple(kernel_size, self.rank, "kernel_size")
        self.strides = _tuple(strides, self.rank, "strides")
        if _tuple(dilation_rate, self.rank, "dilation_rate") != (1,) * self.rank:
            raise NotImplementedError("dilation_rate other than 1 is not implemented in placeflow's convolutions.")
        self.padding = _padding(padding)
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel = self.bias = None

    def build(self, input_shape) -> None:
        channels = input_shape[-1]
        if channels is None or int(channels) % self.groups:
            raise ValueError(f"The number of input channels must be known and divisible by groups={self.groups}. "
                             f"Received: input_shape={input_shape}")
        shape = (*self.kernel_size, int(channels) // self.groups, self.filters)
        self.kernel = self.add_weight("kernel", shape, self.kernel_initializer, regularizer=self.kernel_regularizer)
        if self.use_bias:
            self.bias = self.add_weight("bias", (self.filters,), self.bias_initializer,
                                        regularizer=self.bias_regularizer)

    def _convolve(self, inputs):
        return nn.conv2d(inputs, self.kernel, list(self.strides), self.padding.upper())

    def call(self, inputs):
        outputs = self._convolve(inputs)
        if self.use_bias:
            outputs = nn.bias_add(outputs, self.bias)
        return self.activation(outputs)

    def compute_output_shape(self, input_shape) -> tuple:
        spatial = [_out_length(size, k, s, self.padding)
                   for size, k, s in zip(input_shape[1:-1], self.kernel_size, self.strides)]
        return (input_shape[0], *spatial, self.filters)


class Conv2D(_Conv):
    """2-D convolution: kernel [kh, kw, in / groups, filters], then bias and activation."""

    rank = 2


class Conv1D(_Conv):
    """1-D convolution: kernel [k, in / groups, filters], then bias and activation."""

    rank = 1

    def _convolve(self, inputs):
        return nn.conv1d(inputs, self.kernel, self.strides[0], self.padding.upper())


class _Pool(Layer):
    rank = 2
    op = "MAX"

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        _channels_last(data_format)
        self.pool_size = _tuple(pool_size, self.rank, "pool_size")
        self.strides = self.pool_size if strides is None else _tuple(strides, self.rank, "strides")
        self.padding = _padding(padding)

    def call(self, inputs):
        x = inputs if self.rank == 2 else array_ops.expand_dims(inputs, 1)
        size = list(self.pool_size) if self.rank == 2 else [1, self.pool_size[0]]
        strides = list(self.strides) if self.rank == 2 else [1, self.strides[0]]
        pool = nn.max_pool2d if self.op == "MAX" else nn.avg_pool2d
        out = pool(x, size, strides, self.padding.upper())
        return out if self.rank == 2 else array_ops.squeeze(out, [1])

    def compute_output_shape(self, input_shape) -> tuple:
        spatial = [_out_length(size, k, s, self.padding)
                   for size, k, s in zip(input_shape[1:-1], self.pool_size, self.strides)]
        return (input_shape[0], *spatial, input_shape[-1])


class MaxPooling2D(_Pool):
    """The maximum of each pool_size window."""


class AveragePooling2D(_Pool):
    """The mean of each pool_size window."""

    op = "AVG"


class MaxPooling1D(_Pool):
    """The maximum of each pool_size window along the steps."""

    rank = 1


class AveragePooling1D(_Pool):
    """The mean of each pool_size window along the steps."""

    rank, op = 1, "AVG"


class _GlobalPool(Layer):
    reduce = staticmethod(math_ops.reduce_mean)

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        _channels_last(data_format)
        self.keepdims = bool(keepdims)

    def call(self, inputs):
        return self.reduce(inputs, axis=list(range(1, len(inputs.shape) - 1)), keepdims=self.keepdims)

    def compute_output_shape(self, input_shape) -> tuple:
        if self.keepdims:
            return (input_shape[0], *([1] * (len(input_shape) - 2)), input_shape[-1])
        return (input_shape[0], input_shape[-1])


class GlobalAveragePooling2D(_GlobalPool):
    """The mean over height and width."""


class GlobalMaxPooling2D(_GlobalPool):
    """The maximum over height and width."""

    reduce = staticmethod(math_ops.reduce_max)


class GlobalAveragePooling1D(_GlobalPool):
    """The mean over the steps."""


class GlobalMaxPooling1D(_GlobalPool):
    """The maximum over the steps."""

    reduce = staticmethod(math_ops.reduce_max)
