"""Losses: per-example values, so a training step can divide their sum by the global batch size.

A loss's `call(y_true, y_pred)` gives its values (Keras's API for custom losses); `per_example`
turns them into one value per example: the mean over any further axes, and a scalar (a loss that
already averaged its batch) counts once per example. Calling a loss reduces as Keras does:
'sum_over_batch_size' (the mean over every value, sample weights applied), 'sum', or None.
"""

from __future__ import annotations

from ..api import array_ops, math_ops, nn
from ..eager.convert import convert_to_tensor
from ..framework import dtypes
from . import activations

EPSILON = 1e-7
REDUCTIONS = ("sum_over_batch_size", "sum", "none", None, "mean", "mean_with_sample_weight")


class Reduction:
    """The legacy reduction names (tf.keras.losses.Reduction)."""

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls) -> tuple:
        """Every legacy name."""
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)


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
        if self.reduction == "mean_with_sample_weight" and sample_weight is not None:
            weights = math_ops.cast(convert_to_tensor(sample_weight), values.dtype)
            return math_ops.reduce_sum(values) / math_ops.reduce_sum(weights)
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
        y_true, y_pred = _pair(y_true, y_pred)
        return math_ops.reduce_mean(math_ops.square(y_pred - y_true), axis=-1)


class _Probabilistic(Loss):
    """A cross-entropy: from_logits, label_smoothing and axis (as Keras 3)."""

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, name=None, reduction="sum_over_batch_size",
                 **kwargs):
        _refuse_unknown(self, kwargs)
        super().__init__(name, reduction)
        self.from_logits, self.label_smoothing, self.axis = bool(from_logits), float(label_smoothing), int(axis)

    def get_config(self) -> dict:
        return dict(super().get_config(), from_logits=self.from_logits, label_smoothing=self.label_smoothing,
                    axis=self.axis)


class BinaryCrossentropy(_Probabilistic):
    """Cross-entropy between 0/1 labels and probabilities (or logits), averaged over the last axis."""

    name = "binary_crossentropy"

    def call(self, y_true, y_pred):
        return binary_crossentropy(y_true, y_pred, self.from_logits, self.label_smoothing, self.axis)


class CategoricalCrossentropy(_Probabilistic):
    """Cross-entropy between one-hot labels and probabilities (or logits)."""

    name = "categorical_crossentropy"

    def call(self, y_true, y_pred):
        return categorical_crossentropy(y_true, y_pred, self.from_logits, self.label_smoothing, self.axis)


class SparseCategoricalCrossentropy(Loss):
    """Cross-entropy between integer labels and probabilities (or logits with from_logits=True)."""

    name = "sparse_categorical_crossentropy"

    def __init__(self, from_logits=False, ignore_class=None, name=None, reduction="sum_over_batch_size", **kwargs):
        _refuse_unknown(self, kwargs)
        if ignore_class is not None:
            raise NotImplementedError("SparseCategoricalCrossentropy(ignore_class=...) is not implemented in "
                                      "placeflow; mask those examples with sample_weight instead.")
        super().__init__(name, reduction)
        self.from_logits = from_logits

    def call(self, y_true, y_pred):
        return sparse_categorical_crossentropy(y_true, y_pred, self.from_logits)

    def get_config(self) -> dict:
        return dict(super().get_config(), from_logits=self.from_logits)


class MeanAbsoluteError(Loss):
    """mean(|y_pred - y_true|) over the last axis."""

    name = "mean_absolute_error"

    def call(self, y_true, y_pred):
        return mean_absolute_error(y_true, y_pred)


class Huber(Loss):
    """0.5 * error**2 where |error| <= delta, else delta * |error| - 0.5 * delta**2; mean over the last axis."""

    name = "huber_loss"

    def __init__(self, delta=1.0, name=None, reduction="sum_over_batch_size", **kwargs):
        _refuse_unknown(self, kwargs)
        super().__init__(name, reduction)
        self.delta = float(delta)

    def call(self, y_true, y_pred):
        return huber(y_true, y_pred, self.delta)

    def get_config(self) -> dict:
        return dict(super().get_config(), delta=self.delta)


def _refuse_unknown(loss, kwargs) -> None:
    if kwargs:
        raise TypeError(f"{type(loss).__name__}.__init__() got unexpected keyword arguments {sorted(kwargs)}; "
                        f"see its signature for the arguments placeflow supports.")


def _pair(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if y_true.dtype != y_pred.dtype:
        y_true = math_ops.cast(y_true, y_pred.dtype)
    return _match_rank(y_true, y_pred), y_pred


def mean_squared_error(y_true, y_pred):
    """Per-example mean squared error."""
    return MeanSquaredError().call(y_true, y_pred)


def mean_absolute_error(y_true, y_pred):
    """Per-example mean absolute error."""
    y_true, y_pred = _pair(y_true, y_pred)
    return math_ops.reduce_mean(math_ops.abs(y_pred - y_true), axis=-1)


def huber(y_true, y_pred, delta=1.0):
    """Per-example Huber loss."""
    y_true, y_pred = _pair(y_true, y_pred)
    error = y_pred - y_true
    absolute = math_ops.abs(error)
    quadratic = math_ops.square(error) * 0.5
    linear = absolute * delta - 0.5 * delta * delta
    return math_ops.reduce_mean(math_ops.where(absolute <= delta, quadratic, linear), axis=-1)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Per-example binary cross-entropy (mean over `axis`)."""
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if len(y_true.shape) != len(y_pred.shape):
        raise ValueError(f"Arguments `target` and `output` must have the same rank (ndim). Received: "
                         f"target.shape={tuple(y_true.shape)}, output.shape={tuple(y_pred.shape)}")
    logits = activations.logits_of(y_pred, "sigmoid")
    if from_logits or logits is not None:
        values = nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred if from_logits else logits)
    else:
        p = math_ops.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
        values = -(y_true * math_ops.log(p) + (1.0 - y_true) * math_ops.log(1.0 - p))
    return math_ops.reduce_mean(values, axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Per-example categorical cross-entropy."""
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    if label_smoothing:
        classes = float(y_true.shape[-1])
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    logits = activations.logits_of(y_pred, "softmax")
    if from_logits or logits is not None:
        return nn.softmax_cross_entropy_with_logits(y_true, y_pred if from_logits else logits, axis=axis)
    p = y_pred / math_ops.reduce_sum(y_pred, axis=axis, keepdims=True)
    p = math_ops.clip_by_value(p, EPSILON, 1.0 - EPSILON)
    return -math_ops.reduce_sum(y_true * math_ops.log(p), axis=axis)


def sparse_labels(y_true, y_pred):
    """(integer labels, one per example, and y_pred as a tensor): a trailing label axis of 1 is dropped."""
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if len(y_true.shape) == len(y_pred.shape):
        y_true = array_ops.reshape(y_true, [-1])
    if y_true.dtype not in (dtypes.int32, dtypes.int64):
        y_true = math_ops.cast(y_true, dtypes.int64)
    return y_true, y_pred


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False):
    """Per-example sparse categorical cross-entropy."""
    y_true, y_pred = sparse_labels(y_true, y_pred)
    logits = activations.logits_of(y_pred, "softmax")
    if not from_logits and logits is None:
        p = y_pred / math_ops.reduce_sum(y_pred, axis=-1, keepdims=True)
        logits = math_ops.log(math_ops.clip_by_value(p, EPSILON, 1 - EPSILON))
    return nn.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred if from_logits else logits)


def kl_divergence(y_true, y_pred):
    """Per-example sum of y_true * log(y_true / y_pred), both clipped to [EPSILON, 1]."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = math_ops.clip_by_value(y_true, EPSILON, 1.0)
    y_pred = math_ops.clip_by_value(y_pred, EPSILON, 1.0)
    return math_ops.reduce_sum(y_true * math_ops.log(y_true / y_pred), axis=-1)


def poisson(y_true, y_pred):
    """Per-example mean of y_pred - y_true * log(y_pred + EPSILON)."""
    y_true, y_pred = _pair(y_true, y_pred)
    return math_ops.reduce_mean(y_pred - y_true * math_ops.log(y_pred + EPSILON), axis=-1)


def log_cosh(y_true, y_pred):
    """Per-example mean of log(cosh(y_pred - y_true)), computed as x + softplus(-2x) - log 2."""
    y_true, y_pred = _pair(y_true, y_pred)
    error = y_pred - y_true
    return math_ops.reduce_mean(error + nn.softplus(-2.0 * error) - 0.6931471805599453, axis=-1)


def cosine_similarity(y_true, y_pred, axis=-1):
    """Per-example negative cosine similarity along `axis` (-1 for equal directions)."""
    y_true, y_pred = _pair(y_true, y_pred)
    return -math_ops.reduce_sum(nn.l2_normalize(y_true, axis=axis) * nn.l2_normalize(y_pred, axis=axis), axis=axis)


def _hinge_labels(y_true):
    """Labels of 0 and 1 become -1 and 1, as Keras converts them; -1/1 labels stay."""
    is_binary = math_ops.reduce_all(math_ops.logical_or(math_ops.equal(y_true, 0.0), math_ops.equal(y_true, 1.0)))
    return math_ops.where(is_binary, 2.0 * y_true - 1.0, y_true)


def hinge(y_true, y_pred):
    """Per-example mean of max(1 - y_true * y_pred, 0)."""
    y_true, y_pred = _pair(y_true, y_pred)
    return math_ops.reduce_mean(math_ops.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0), axis=-1)


def squared_hinge(y_true, y_pred):
    """Per-example mean of max(1 - y_true * y_pred, 0) squared."""
    y_true, y_pred = _pair(y_true, y_pred)
    return math_ops.reduce_mean(math_ops.square(math_ops.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0)),
                                axis=-1)


def categorical_hinge(y_true, y_pred):
    """Per-example max(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0)."""
    y_true, y_pred = _pair(y_true, y_pred)
    positive = math_ops.reduce_sum(y_true * y_pred, axis=-1)
    negative = math_ops.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return math_ops.maximum(negative - positive + 1.0, 0.0)


def mean_absolute_percentage_error(y_true, y_pred):
    """Per-example 100 * mean(|(y_true - y_pred) / y_true|), |y_true| at least EPSILON."""
    y_true, y_pred = _pair(y_true, y_pred)
    scale = math_ops.maximum(math_ops.abs(y_true), EPSILON)
    return 100.0 * math_ops.reduce_mean(math_ops.abs((y_true - y_pred) / scale), axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    """Per-example mean of (log(y_pred + 1) - log(y_true + 1))**2, both at least EPSILON first."""
    y_true, y_pred = _pair(y_true, y_pred)
    first = math_ops.log(math_ops.maximum(y_pred, EPSILON) + 1.0)
    second = math_ops.log(math_ops.maximum(y_true, EPSILON) + 1.0)
    return math_ops.reduce_mean(math_ops.square(first - second), axis=-1)


def _function_loss(class_name, loss_name, fn):
    """A Loss class applying the per-example function `fn` (no options besides name and reduction)."""
    def call(self, y_true, y_pred):
        return fn(y_true, y_pred)
    return type(class_name, (Loss,), {"name": loss_name, "call": call, "__doc__": fn.__doc__,
                                      "__module__": __name__})


KLDivergence = _function_loss("KLDivergence", "kl_divergence", kl_divergence)
Poisson = _function_loss("Poisson", "poisson", poisson)
LogCosh = _function_loss("LogCosh", "log_cosh", log_cosh)
Hinge = _function_loss("Hinge", "hinge", hinge)
SquaredHinge = _function_loss("SquaredHinge", "squared_hinge", squared_hinge)
CategoricalHinge = _function_loss("CategoricalHinge", "categorical_hinge", categorical_hinge)
MeanAbsolutePercentageError = _function_loss("MeanAbsolutePercentageError", "mean_absolute_percentage_error",
                                             mean_absolute_percentage_error)
MeanSquaredLogarithmicError = _function_loss("MeanSquaredLogarithmicError", "mean_squared_logarithmic_error",
                                             mean_squared_logarithmic_error)


class CosineSimilarity(Loss):
    """Negative cosine similarity along `axis` (-1 for equal directions)."""

    name = "cosine_similarity"

    def __init__(self, axis=-1, name=None, reduction="sum_over_batch_size", **kwargs):
        _refuse_unknown(self, kwargs)
        super().__init__(name, reduction)
        self.axis = int(axis)

    def call(self, y_true, y_pred):
        return cosine_similarity(y_true, y_pred, self.axis)


_BY_NAME = {"mse": MeanSquaredError, "mean_squared_error": MeanSquaredError, "mae": MeanAbsoluteError,
            "mean_absolute_error": MeanAbsoluteError, "huber": Huber, "huber_loss": Huber,
            "binary_crossentropy": BinaryCrossentropy, "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
            "categorical_crossentropy": CategoricalCrossentropy, "kl_divergence": KLDivergence, "kld": KLDivergence,
            "poisson": Poisson, "log_cosh": LogCosh, "logcosh": LogCosh, "cosine_similarity": CosineSimilarity,
            "hinge": Hinge, "squared_hinge": SquaredHinge, "categorical_hinge": CategoricalHinge,
            "mean_absolute_percentage_error": MeanAbsolutePercentageError, "mape": MeanAbsolutePercentageError,
            "mean_squared_logarithmic_error": MeanSquaredLogarithmicError, "msle": MeanSquaredLogarithmicError}

mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error


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
