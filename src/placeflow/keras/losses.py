"""Losses: per-example values, so a training step can divide their sum by the global batch size.

`loss(y_true, y_pred)` returns the mean over the batch (Keras's SUM_OVER_BATCH_SIZE);
`per_example(y_true, y_pred)` returns one value per example (what distributed steps use).
"""

from __future__ import annotations

from ..api import array_ops, math_ops, nn
from ..eager.convert import convert_to_tensor

EPSILON = 1e-7


def _match_rank(y_true, y_pred):
    if len(y_true.shape) == len(y_pred.shape) - 1:
        return array_ops.expand_dims(y_true, -1)
    return y_true


class Loss:
    """Base: `per_example(y_true, y_pred)` is the loss of each example; calling gives their mean."""

    name = "loss"

    def __call__(self, y_true, y_pred, sample_weight=None):
        values = self.per_example(y_true, y_pred)
        return math_ops.reduce_mean(values)

    def per_example(self, y_true, y_pred):
        """One loss value per example."""
        raise NotImplementedError


class MeanSquaredError(Loss):
    """mean((y_pred - y_true) ** 2) over the last axis."""

    name = "mean_squared_error"

    def per_example(self, y_true, y_pred):
        y_pred = convert_to_tensor(y_pred)
        y_true = _match_rank(convert_to_tensor(y_true, dtype=y_pred.dtype), y_pred)
        return math_ops.reduce_mean(math_ops.square(y_pred - y_true), axis=-1)


class SparseCategoricalCrossentropy(Loss):
    """Cross-entropy between integer labels and probabilities (or logits with from_logits=True)."""

    name = "sparse_categorical_crossentropy"

    def __init__(self, from_logits=False, name=None):
        self.from_logits = from_logits
        if name:
            self.name = name

    def per_example(self, y_true, y_pred):
        y_pred = convert_to_tensor(y_pred)
        y_true = convert_to_tensor(y_true)
        if len(y_true.shape) == len(y_pred.shape):
            y_true = array_ops.reshape(y_true, [-1])
        logits = y_pred if self.from_logits else math_ops.log(math_ops.clip_by_value(y_pred, EPSILON, 1 - EPSILON))
        return nn.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=logits)


class CategoricalCrossentropy(Loss):
    """Cross-entropy between one-hot labels and probabilities (or logits with from_logits=True)."""

    name = "categorical_crossentropy"

    def __init__(self, from_logits=False, name=None):
        self.from_logits = from_logits

    def per_example(self, y_true, y_pred):
        y_pred = convert_to_tensor(y_pred)
        logits = y_pred if self.from_logits else math_ops.log(math_ops.clip_by_value(y_pred, EPSILON, 1 - EPSILON))
        return nn.softmax_cross_entropy_with_logits(convert_to_tensor(y_true, dtype=y_pred.dtype), logits)


def mean_squared_error(y_true, y_pred):
    """Per-example mean squared error."""
    return MeanSquaredError().per_example(y_true, y_pred)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False):
    """Per-example sparse categorical cross-entropy."""
    return SparseCategoricalCrossentropy(from_logits).per_example(y_true, y_pred)


_BY_NAME = {"mse": MeanSquaredError, "mean_squared_error": MeanSquaredError,
            "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
            "categorical_crossentropy": CategoricalCrossentropy}

mse = MSE = mean_squared_error


def get(identifier) -> Loss:
    """A Loss from a name ('mse', 'sparse_categorical_crossentropy', ...) or an instance."""
    if isinstance(identifier, Loss):
        return identifier
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown loss function: '{identifier}'. Known: {', '.join(sorted(_BY_NAME))}.")
        return _BY_NAME[identifier]()
    if callable(identifier):
        return _FunctionLoss(identifier)
    raise ValueError(f"Could not interpret loss identifier: {identifier!r}")


class _FunctionLoss(Loss):
    def __init__(self, fn):
        self.fn, self.name = fn, getattr(fn, "__name__", "loss")

    def per_example(self, y_true, y_pred):
        values = self.fn(y_true, y_pred)
        return values if len(values.shape) else array_ops.reshape(values, [1])
