"""Normalization layers: BatchNormalization (moving statistics), LayerNormalization, Normalization (adapt)."""

from __future__ import annotations

import numpy as np

from ..api import array_ops, math_ops, nn
from ..eager.convert import convert_to_tensor
from . import initializers
from .layers import Layer


def _axes(axis, rank) -> list:
    axes = [axis] if isinstance(axis, int) else list(axis)
    return sorted(a % rank for a in axes)


def _broadcast_shape(rank, kept) -> list:
    return [-1 if i in kept else 1 for i in range(rank)]


class BatchNormalization(Layer):
    """Normalize with the batch's statistics while training (updating moving averages by `momentum`) and
    with the moving averages otherwise; then scale by gamma and shift by beta. Under a strategy each
    replica updates its own copy of the moving averages with its own batch (as Keras 3 on TensorFlow:
    the variables' aggregation is NONE), and reading them gives the first replica's; with
    synchronized=True the statistics are those of the global batch (sums all-reduced over replicas)."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 synchronized=False, **kwargs):
        super().__init__(**kwargs)
        self.synchronized = bool(synchronized)
        self.axis, self.momentum, self.epsilon = axis, float(momentum), float(epsilon)
        self.center, self.scale = bool(center), bool(scale)
        self._initializers = [initializers.get(i) for i in (beta_initializer, gamma_initializer,
                                                             moving_mean_initializer, moving_variance_initializer)]
        self.gamma = self.beta = self.moving_mean = self.moving_variance = None

    def build(self, input_shape) -> None:
        rank = len(input_shape)
        self._kept = _axes(self.axis, rank)
        shape = tuple(int(input_shape[a]) for a in self._kept)
        beta, gamma, mean, variance = self._initializers
        if self.scale:
            self.gamma = self.add_weight("gamma", shape, gamma)
        if self.center:
            self.beta = self.add_weight("beta", shape, beta)
        self.moving_mean = self.add_weight("moving_mean", shape, mean, trainable=False)
        self.moving_variance = self.add_weight("moving_variance", shape, variance, trainable=False)

    def call(self, inputs, training=None):
        rank = len(inputs.shape)
        reduce_axes = [a for a in range(rank) if a not in self._kept]
        shape = _broadcast_shape(rank, self._kept)
        if training and self.trainable:
            mean, variance = self._moments(inputs, reduce_axes)
            keep = 1.0 - self.momentum
            self.moving_mean.assign(self.moving_mean * self.momentum + mean * keep)
            self.moving_variance.assign(self.moving_variance * self.momentum + variance * keep)
        else:
            mean, variance = self.moving_mean.read_value(), self.moving_variance.read_value()
        inverse = math_ops.rsqrt(variance + self.epsilon)
        if self.scale:
            inverse = inverse * self.gamma
        offset = -mean * inverse
        if self.center:
            offset = offset + self.beta
        return inputs * array_ops.reshape(inverse, shape) + array_ops.reshape(offset, shape)


    def _moments(self, inputs, axes):
        from ..distribute import distribution_context
        from ..distribute.reduce_op import ReduceOp
        context = distribution_context.get_replica_context() if self.synchronized else None
        if context is None or context.num_replicas_in_sync == 1:
            return nn.moments(inputs, axes)
        total, squares, count = context.all_reduce(ReduceOp.SUM, [
            math_ops.reduce_sum(inputs, axis=axes), math_ops.reduce_sum(math_ops.square(inputs), axis=axes),
            math_ops.reduce_sum(array_ops.ones_like(inputs), axis=axes)])
        mean = total / count
        return mean, squares / count - math_ops.square(mean)


class LayerNormalization(Layer):
    """Normalize each example over `axis` (its statistics), then scale by gamma and shift by beta."""

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", rms_scaling=False, **kwargs):
        super().__init__(**kwargs)
        if rms_scaling:
            raise NotImplementedError("LayerNormalization(rms_scaling=True) is not implemented in placeflow.")
        self.axis, self.epsilon, self.center, self.scale = axis, float(epsilon), bool(center), bool(scale)
        self._beta_init, self._gamma_init = initializers.get(beta_initializer), initializers.get(gamma_initializer)
        self.gamma = self.beta = None

    def build(self, input_shape) -> None:
        self._axes = _axes(self.axis, len(input_shape))
        shape = tuple(int(input_shape[a]) for a in self._axes)
        if self.scale:
            self.gamma = self.add_weight("gamma", shape, self._gamma_init)
        if self.center:
            self.beta = self.add_weight("beta", shape, self._beta_init)

    def call(self, inputs):
        rank = len(inputs.shape)
        mean, variance = nn.moments(inputs, self._axes, keepdims=True)
        inverse = math_ops.rsqrt(variance + self.epsilon)
        shape = _broadcast_shape(rank, self._axes)
        if self.scale:
            inverse = inverse * array_ops.reshape(self.gamma, shape)
        outputs = (inputs - mean) * inverse
        if self.center:
            outputs = outputs + array_ops.reshape(self.beta, shape)
        return outputs


class Normalization(Layer):
    """(inputs - mean) / sqrt(variance), per feature along `axis`: from `mean`/`variance`, or learned by
    `adapt(data)` (a population mean and variance over everything else)."""

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if invert:
            raise NotImplementedError("Normalization(invert=True) is not implemented in placeflow.")
        if (mean is None) != (variance is None):
            raise ValueError("When setting values directly, both `mean` and `variance` must be set. Received: "
                             f"mean={mean} and variance={variance}")
        self.axis = axis
        self._given = None if mean is None else (np.asarray(mean, np.float32), np.asarray(variance, np.float32))
        self.mean = self.variance = None

    def build(self, input_shape) -> None:
        self._kept = _axes(self.axis, len(input_shape))
        shape = tuple(int(input_shape[a]) for a in self._kept)
        if self._given is not None:  # given statistics are constants, not weights (as Keras 3)
            self.mean = convert_to_tensor(np.broadcast_to(self._given[0], shape).astype(np.float32))
            self.variance = convert_to_tensor(np.broadcast_to(self._given[1], shape).astype(np.float32))
            return
        self.mean = self.add_weight("mean", shape, "zeros", trainable=False)
        self.variance = self.add_weight("variance", shape, "ones", trainable=False)
        self.count = self.add_weight("count", (), "zeros", trainable=False, dtype="int64")  # kept 0, as Keras 3

    def adapt(self, data, batch_size=None, steps=None) -> None:
        """Learn the mean and variance of `data` (an array, a tensor or a dataset of batches)."""
        if steps is not None:
            raise NotImplementedError("Normalization.adapt(steps=...) is not implemented in placeflow.")
        if self._given is not None:
            raise ValueError("This Normalization layer was given its mean and variance; it cannot adapt.")
        if hasattr(data, "_make_iterator"):
            batches = [np.asarray(b[0] if isinstance(b, tuple) else b, np.float64) for b in data.as_numpy_iterator()]
            values = np.concatenate(batches, axis=0)
        else:
            values = np.asarray(data.numpy() if hasattr(data, "numpy") else data, np.float64)
        if not self.built:
            self._maybe_build((None, *values.shape[1:]))
        reduce_axes = tuple(a for a in range(values.ndim) if a not in self._kept)
        self.mean.assign(values.mean(axis=reduce_axes).astype(np.float32))
        self.variance.assign(values.var(axis=reduce_axes).astype(np.float32))

    def call(self, inputs):
        inputs = convert_to_tensor(inputs)
        if inputs.dtype != self.dtype:
            inputs = math_ops.cast(inputs, self.dtype)
        shape = _broadcast_shape(len(inputs.shape), self._kept)
        variance = self.variance.read_value() if hasattr(self.variance, "read_value") else self.variance
        denominator = math_ops.maximum(math_ops.sqrt(variance), 1e-7)
        return (inputs - array_ops.reshape(self.mean, shape)) / array_ops.reshape(denominator, shape)
