"""Losses: per-example values, so a training step can divide their sum by the global batch size.

A loss's `call(y_true, y_pred)` gives its values (Keras's API for custom losses); `per_example`
turns them into one value per example: the mean over any further axes, and a scalar (a loss that
already averaged its batch) counts once per example. Calling a loss reduces as Keras does:
'sum_over_batch_size' (the mean over every value, sample weights applied), 'sum', or None.
"""

from __future__ import annotations

from ..api import array_ops, math_ops, nn
from ..eager.convert import convert_to_tensor

EPSILON = 1e-7
REDUCTIONS = ("sum_over_batch_size", "sum", "none", None)


def _match_rank(y_true, y_pred):
    if len(y_true.shape) == len(y_pred.shape) - 1:
        return array_ops.expand_dims(y_true, -1)
    return y_true


class Loss:
    """Base: subclasses implement `call(y_true, y_pred)`; calling the loss applies weights and reduction."""

    name = "loss"

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        if reduction not in REDUCTIONS:
            raise ValueError(f"Invalid value for argument `reduction`. Expected one of {REDUCTIONS}. Received: "
                             f"reduction={reduction!r}")
        self.reduction = reduction
        if name:
            self.name = name

    def __call__(self, y_true, y_pred, sample_weight=None):
        values = self.per_example(y_true, y_pred, sample_weight)
        if self.reduction in ("none", None):
            return values
        if self.reduction == "sum":
            return math_ops.reduce_sum(values)
        return math_ops.reduce_mean(values)

    def per_example(self, y_true, y_pred, sample_weight=None):
        """One loss value per example (weighted by `sample_weight`, one weight per example)."""
        y_pred = convert_to_tensor(y_pred)
        values = per_example_values(self.call(y_true, y_pred), int(y_pred.shape[0]))
        if sample_weight is not None:
            values = values * math_ops.cast(array_ops.reshape(sample_weight, [-1]), values.dtype)
        return values

    def call(self, y_true, y_pred):
        """The loss values (any shape whose first axis is the batch, or a scalar)."""
        raise NotImplementedError(f"{type(self).__name__} must implement call(y_true, y_pred).")

    def get_config(self) -> dict:
        """The loss's name and reduction."""
        return {"name": self.name, "reduction": self.reduction}


def per_example_values(values, rows: int):
    """`values` as one value per example: a scalar is that value for each of `rows` examples, and further
    axes are averaged (Keras averages over every element)."""
    values = convert_to_tensor(values)
    rank = len(values.shape)
    if rank == 0:
        return array_ops.ones([rows], values.dtype) * values
    if rank > 1:
        return math_ops.reduce_mean(values, axis=list(range(1, rank)))
    return values


class MeanSquaredError(Loss):
    """mean((y_pred - y_true) ** 2) over the last axis."""

    name = "mean_squared_error"

    def call(self, y_true, y_pred):
        y_pred = convert_to_tensor(y_pred)
        y_true = _match_rank(convert_to_tensor(y_true, dtype=y_pred.dtype), y_pred)
        return math_ops.reduce_mean(math_ops.square(y_pred - y_true), axis=-1)


class SparseCategoricalCrossentropy(Loss):
    """Cross-entropy between integer labels and probabilities (or logits with from_logits=True)."""

    name = "sparse_categorical_crossentropy"

    def __init__(self, from_logits=False, name=None, reduction="sum_over_batch_size", **kwargs):
        _refuse_unknown(self, kwargs)
        super().__init__(name, reduction)
        self.from_logits = from_logits

    def call(self, y_true, y_pred):
        y_pred = convert_to_tensor(y_pred)
        y_true = convert_to_tensor(y_true)
        if len(y_true.shape) == len(y_pred.shape):
            y_true = array_ops.reshape(y_true, [-1])
        logits = y_pred if self.from_logits else math_ops.log(math_ops.clip_by_value(y_pred, EPSILON, 1 - EPSILON))
        return nn.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=logits)


class CategoricalCrossentropy(Loss):
    """Cross-entropy between one-hot labels and probabilities (or logits with from_logits=True)."""

    name = "categorical_crossentropy"

    def __init__(self, from_logits=False, name=None, reduction="sum_over_batch_size", **kwargs):
        _refuse_unknown(self, kwargs)
        super().__init__(name, reduction)
        self.from_logits = from_logits

    def call(self, y_true, y_pred):
        y_pred = convert_to_tensor(y_pred)
        logits = y_pred if self.from_logits else math_ops.log(math_ops.clip_by_value(y_pred, EPSILON, 1 - EPSILON))
        return nn.softmax_cross_entropy_with_logits(convert_to_tensor(y_true, dtype=y_pred.dtype), logits)


def _refuse_unknown(loss, kwargs) -> None:
    if kwargs:
        raise TypeError(f"{type(loss).__name__}.__init__() got unexpected keyword arguments {sorted(kwargs)}; "
                        f"placeflow supports from_logits, name and reduction.")


def mean_squared_error(y_true, y_pred):
    """Per-example mean squared error."""
    return MeanSquaredError().call(y_true, y_pred)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False):
    """Per-example sparse categorical cross-entropy."""
    return SparseCategoricalCrossentropy(from_logits).call(y_true, y_pred)


_BY_NAME = {"mse": MeanSquaredError, "mean_squared_error": MeanSquaredError,
            "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
            "categorical_crossentropy": CategoricalCrossentropy}

mse = MSE = mean_squared_error


def get(identifier) -> Loss:
    """A Loss from a name ('mse', 'sparse_categorical_crossentropy', ...), an instance, or a function."""
    if isinstance(identifier, Loss):
        return identifier
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown loss function: '{identifier}'. Known: {', '.join(sorted(_BY_NAME))}.")
        return _BY_NAME[identifier]()
    if callable(identifier):
        return LossFunctionWrapper(identifier)
    raise ValueError(f"Could not interpret loss identifier: {identifier!r}")


class LossFunctionWrapper(Loss):
    """A function fn(y_true, y_pred) as a Loss (what compile does with a plain function)."""

    def __init__(self, fn, name=None, reduction="sum_over_batch_size"):
        super().__init__(name or getattr(fn, "__name__", "loss"), reduction)
        self.fn = fn

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred)
