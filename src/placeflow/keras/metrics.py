"""Metrics as per-example values summed inside the step and averaged over the epoch on the host.

'accuracy' follows the loss, as in Keras: sparse categorical accuracy with sparse cross-entropy,
categorical accuracy with categorical cross-entropy, binary accuracy (threshold 0.5) otherwise.
"""

from __future__ import annotations

from ..api import array_ops, math_ops
from ..eager.convert import convert_to_tensor
from . import losses as losses_module


def _as_float(mask, dtype):
    """1.0 where `mask`, else 0.0 (SelectV2: no Cast, which has no GPU kernel)."""
    return math_ops.where(mask, array_ops.ones_like(mask, dtype), array_ops.zeros_like(mask, dtype))


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where argmax(y_pred) equals the integer label."""
    y_true = convert_to_tensor(y_true)
    if len(y_true.shape) == len(y_pred.shape):
        y_true = array_ops.reshape(y_true, [-1])
    hits = math_ops.equal(math_ops.argmax(y_pred, axis=-1, output_type=y_true.dtype), y_true)
    return _as_float(hits, y_pred.dtype)


def categorical_accuracy(y_true, y_pred):
    """1.0 where argmax(y_pred) equals argmax(y_true)."""
    hits = math_ops.equal(math_ops.argmax(y_pred, axis=-1), math_ops.argmax(convert_to_tensor(y_true), axis=-1))
    return _as_float(hits, y_pred.dtype)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """Mean over the last axis of 1.0 where (y_pred > threshold) equals y_true."""
    y_true = losses_module._match_rank(convert_to_tensor(y_true, dtype=y_pred.dtype), y_pred)
    predicted = _as_float(math_ops.greater(y_pred, threshold), y_pred.dtype)
    return math_ops.reduce_mean(_as_float(math_ops.equal(predicted, y_true), y_pred.dtype), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """mean(|y_pred - y_true|) over the last axis."""
    y_true = losses_module._match_rank(convert_to_tensor(y_true, dtype=y_pred.dtype), y_pred)
    return math_ops.reduce_mean(math_ops.abs(y_pred - y_true), axis=-1)


_BY_NAME = {"sparse_categorical_accuracy": sparse_categorical_accuracy, "categorical_accuracy": categorical_accuracy,
            "binary_accuracy": binary_accuracy, "mse": losses_module.mean_squared_error,
            "mean_squared_error": losses_module.mean_squared_error, "mae": mean_absolute_error,
            "mean_absolute_error": mean_absolute_error}


def resolve(identifier, loss) -> tuple:
    """(display name, per-example function) for a metric name or function, given the compiled loss."""
    if callable(identifier) and not isinstance(identifier, str):
        return getattr(identifier, "__name__", "metric"), identifier
    if identifier in ("accuracy", "acc"):
        if isinstance(loss, losses_module.SparseCategoricalCrossentropy):
            return identifier, sparse_categorical_accuracy
        if isinstance(loss, losses_module.CategoricalCrossentropy):
            return identifier, categorical_accuracy
        return identifier, binary_accuracy
    if identifier not in _BY_NAME:
        raise ValueError(f"Unknown metric function: '{identifier}'. Known: accuracy, {', '.join(sorted(_BY_NAME))}.")
    return identifier, _BY_NAME[identifier]
