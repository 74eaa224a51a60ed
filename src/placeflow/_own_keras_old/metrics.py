"""Metrics: stateful objects (update_state, result, reset_state), usable in custom loops and in fit.

A metric's state is a few sums (a total and a count, true and false positives, confusion counts at
thresholds); `_batch_state` gives one batch's sums and `_result_from` the result of any sums. So `fit`
adds the sums of every replica and step and computes the result once, and a metric used by several
replicas (their sums add) reduces across them as Keras's does. 'accuracy' follows the loss, as in
Keras: sparse categorical accuracy with sparse cross-entropy, categorical accuracy with categorical
cross-entropy, binary accuracy (threshold 0.5) otherwise.
"""

from __future__ import annotations

import functools

import numpy as np

from ..api import array_ops, math_ops
from ..api.device import device as device_scope
from ..distribute import distribution_context
from ..distribute.values import local_results
from ..eager.convert import convert_to_tensor
from ..eager.variables import Variable
from ..framework import dtypes, graph_mode
from . import losses as losses_module
from .naming import snake_case, unique_name

EPSILON = 1e-7


def _as_float(mask, dtype):
    """1.0 where `mask`, else 0.0 (SelectV2: no Cast, which has no GPU kernel)."""
    return math_ops.where(mask, array_ops.ones_like(mask, dtype), array_ops.zeros_like(mask, dtype))


def _divide_no_nan(a, b):
    safe = math_ops.where(math_ops.equal(b, 0.0), array_ops.ones_like(b), b)
    return math_ops.where(math_ops.equal(b, 0.0), array_ops.zeros_like(a), a / safe)


# -- per-example functions -----------------------------------------------------------------------------------

def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where argmax(y_pred) equals the integer label."""
    y_true, y_pred = losses_module.sparse_labels(y_true, y_pred)
    hits = math_ops.equal(math_ops.argmax(y_pred, axis=-1, output_type=y_true.dtype), y_true)
    return _as_float(hits, y_pred.dtype)


def categorical_accuracy(y_true, y_pred):
    """1.0 where argmax(y_pred) equals argmax(y_true)."""
    y_pred = convert_to_tensor(y_pred)
    hits = math_ops.equal(math_ops.argmax(y_pred, axis=-1), math_ops.argmax(convert_to_tensor(y_true), axis=-1))
    return _as_float(hits, y_pred.dtype)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """Mean over the last axis of 1.0 where (y_pred > threshold) equals y_true."""
    y_pred = convert_to_tensor(y_pred)
    y_true = losses_module._match_rank(math_ops.cast(convert_to_tensor(y_true), y_pred.dtype), y_pred)
    predicted = _as_float(math_ops.greater(y_pred, threshold), y_pred.dtype)
    return math_ops.reduce_mean(_as_float(math_ops.equal(predicted, y_true), y_pred.dtype), axis=-1)


def accuracy(y_true, y_pred):
    """1.0 where y_pred equals y_true exactly."""
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    return _as_float(math_ops.equal(y_true, y_pred), dtypes.float32)


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the label (argmax of one-hot y_true) is among the k largest predictions."""
    return _in_top_k(math_ops.argmax(convert_to_tensor(y_true), axis=-1), y_pred, k)


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the integer label is among the k largest predictions."""
    y_true, y_pred = losses_module.sparse_labels(y_true, y_pred)
    return _in_top_k(y_true, y_pred, k)


def _in_top_k(labels, y_pred, k):
    y_pred = convert_to_tensor(y_pred)
    return _as_float(math_ops.in_top_k(math_ops.cast(labels, dtypes.int32), y_pred, k), dtypes.float32)


def mean_absolute_error(y_true, y_pred):
    """mean(|y_pred - y_true|) over the last axis."""
    return losses_module.mean_absolute_error(y_true, y_pred)


# -- stateful metrics ------------------------------------------------------------------------------------------

class Metric:
    """Base: subclasses give their state's shapes, one batch's sums, and the result of any sums.

    The state variables are made when the metric is (so under `strategy.scope()` they are mirrored): inside
    `strategy.run` each replica adds to its own copy and `result()` adds the copies up (TensorFlow's
    sync-on-read SUM variables); outside it, updates go to the first copy only."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "__init__" in cls.__dict__:
            cls.__init__ = _builds_state(cls.__dict__["__init__"])

    def __init__(self, name=None, dtype=None):
        self.name = name or unique_name(snake_case(type(self).__name__))
        self.dtype = dtypes.as_dtype(dtype or dtypes.float32)
        self._state = None

    def _state_shapes(self) -> list:
        raise NotImplementedError

    def _batch_state(self, y_true, y_pred, sample_weight) -> list:
        raise NotImplementedError

    def _result_from(self, state):
        raise NotImplementedError

    @property
    def variables(self) -> list:
        """The state variables (created on the first update)."""
        if self._state is None:
            with graph_mode.suspended():
                self._state = [Variable(np.zeros(shape, np.float32), trainable=False, name=f"{self.name}/s{i}")
                               for i, shape in enumerate(self._state_shapes())]
        return self._state

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Add one batch to the state."""
        per_replica = _inside_replicas()
        for variable, value in zip(self.variables, self._batch_state(y_true, y_pred, sample_weight)):
            target = variable if per_replica else local_results(variable)[0]
            target.assign_add(math_ops.cast(value, dtypes.float32))

    def result(self):
        """The metric over everything added since the last reset (every replica's part, added up)."""
        return self._result_from([_total(v) for v in self.variables])

    def reset_state(self):
        """Forget everything added."""
        for variable in self.variables:
            variable.assign(np.zeros(tuple(variable.shape), np.float32))

    def __call__(self, y_true, y_pred, sample_weight=None):
        self.update_state(y_true, y_pred, sample_weight)
        return self.result()

    def get_config(self) -> dict:
        """The metric's name and dtype."""
        return {"name": self.name, "dtype": self.dtype.name}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}>"


def _builds_state(init):
    @functools.wraps(init)
    def wrapper(self, *args, **kwargs):
        outermost = "_building" not in self.__dict__
        self.__dict__.setdefault("_building", True)
        init(self, *args, **kwargs)
        if outermost:
            del self.__dict__["_building"]
            self.variables  # noqa: B018 - made now, in the caller's (cross-replica) context
    return wrapper


Metric.__init__ = _builds_state(Metric.__init__)


def _inside_replicas() -> bool:
    """Whether this runs in one of several replicas (strategy.run): each then updates its own copy."""
    replica = distribution_context.get_replica_context()
    return replica is not None and replica.num_replicas_in_sync > 1


def _total(variable):
    """A state variable's value: the sum of its replicas' copies (read in cross-replica context), over every
    worker of a multi-worker strategy."""
    parts = local_results(variable)
    if _inside_replicas():
        return variable.read_value()
    with device_scope(parts[0].device):
        local = math_ops.add_n([math_ops.identity(p.read_value()) for p in parts]) if len(parts) > 1 else \
            variable.read_value()
        strategy = getattr(variable, "_strategy", None)
        return strategy.extended.sum_over_workers(local) if strategy is not None else local


def _weights(sample_weight, values):
    if sample_weight is None:
        return array_ops.ones_like(values)
    weights = math_ops.cast(convert_to_tensor(sample_weight), values.dtype)
    while len(weights.shape) < len(values.shape):
        weights = array_ops.expand_dims(weights, -1)
    return weights * array_ops.ones_like(values)


def _weighted_sums(values, sample_weight) -> list:
    """[sum of values * weights, sum of weights] (weights 1 without sample_weight)."""
    values = math_ops.cast(convert_to_tensor(values), dtypes.float32)
    weights = _weights(sample_weight, values)
    return [math_ops.reduce_sum(values * weights), math_ops.reduce_sum(weights)]


class Mean(Metric):
    """The (weighted) mean of the values given."""

    def _state_shapes(self):
        return [(), ()]

    def _batch_state(self, values, unused=None, sample_weight=None):
        return _weighted_sums(values, sample_weight)

    def update_state(self, values, sample_weight=None):
        """Add values (weighted by sample_weight)."""
        return super().update_state(values, None, sample_weight)

    def __call__(self, values, sample_weight=None):
        self.update_state(values, sample_weight)
        return self.result()

    def _result_from(self, state):
        return _divide_no_nan(state[0], state[1])


class Sum(Mean):
    """The (weighted) sum of the values given."""

    def _state_shapes(self):
        return [()]

    def _batch_state(self, values, unused=None, sample_weight=None):
        return _weighted_sums(values, sample_weight)[:1]

    def _result_from(self, state):
        return state[0]


_UP = ("accuracy",)  # per-example functions whose mean should grow (Keras's metric direction)


class MeanMetricWrapper(Metric):
    """The mean of fn(y_true, y_pred) per example (weighted by sample_weight)."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name or getattr(fn, "__name__", "mean_metric"), dtype)
        self._fn, self._fn_kwargs = fn, kwargs
        self._direction = "up" if any(w in getattr(fn, "__name__", "") for w in _UP) else "down"

    def _state_shapes(self):
        return [(), ()]

    def _batch_state(self, y_true, y_pred, sample_weight):
        return _weighted_sums(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight)

    def _result_from(self, state):
        return _divide_no_nan(state[0], state[1])


def _wrapper(fn, default_name, **defaults):
    class Wrapped(MeanMetricWrapper):
        def __init__(self, name=default_name, dtype=None, **kwargs):
            options = dict(defaults, **kwargs)
            unknown = set(options) - set(defaults)
            if unknown:
                raise TypeError(f"{type(self).__name__}.__init__() got unexpected keyword arguments {sorted(unknown)}.")
            super().__init__(fn, name, dtype, **options)
    return Wrapped


class Accuracy(_wrapper(accuracy, "accuracy")):
    """How often y_pred equals y_true."""

    _direction = "up"


class BinaryAccuracy(_wrapper(binary_accuracy, "binary_accuracy", threshold=0.5)):
    """How often (y_pred > threshold) equals the 0/1 label."""


class CategoricalAccuracy(_wrapper(categorical_accuracy, "categorical_accuracy")):
    """How often argmax(y_pred) equals argmax(one-hot y_true)."""


class SparseCategoricalAccuracy(_wrapper(sparse_categorical_accuracy, "sparse_categorical_accuracy")):
    """How often argmax(y_pred) equals the integer label."""


class TopKCategoricalAccuracy(_wrapper(top_k_categorical_accuracy, "top_k_categorical_accuracy", k=5)):
    """How often the one-hot label is among the k largest predictions."""


class SparseTopKCategoricalAccuracy(_wrapper(sparse_top_k_categorical_accuracy, "sparse_top_k_categorical_accuracy",
                                             k=5)):
    """How often the integer label is among the k largest predictions."""


class MeanSquaredError(_wrapper(losses_module.mean_squared_error, "mean_squared_error")):
    """The mean of the per-example mean squared errors."""


class MeanAbsoluteError(_wrapper(mean_absolute_error, "mean_absolute_error")):
    """The mean of the per-example mean absolute errors."""


class BinaryCrossentropy(_wrapper(losses_module.binary_crossentropy, "binary_crossentropy", from_logits=False,
                                  label_smoothing=0.0)):
    """The mean binary cross-entropy."""


class CategoricalCrossentropy(_wrapper(losses_module.categorical_crossentropy, "categorical_crossentropy",
                                       from_logits=False, label_smoothing=0.0)):
    """The mean categorical cross-entropy."""


class SparseCategoricalCrossentropy(_wrapper(losses_module.sparse_categorical_crossentropy,
                                             "sparse_categorical_crossentropy", from_logits=False)):
    """The mean sparse categorical cross-entropy."""


# -- confusion-matrix metrics ----------------------------------------------------------------------------------

class _Confusion(Metric):
    """Counts of predictions above each threshold against 0/1 labels (every element counts)."""

    def __init__(self, thresholds, name=None, dtype=None):
        super().__init__(name, dtype)
        self.thresholds = [float(t) for t in thresholds]

    def _counts(self, y_true, y_pred, sample_weight, kinds):
        y_pred = math_ops.cast(convert_to_tensor(y_pred), dtypes.float32)
        y_true = losses_module._match_rank(math_ops.cast(convert_to_tensor(y_true), dtypes.float32), y_pred)
        y_true = array_ops.reshape(y_true * array_ops.ones_like(y_pred), [1, -1])
        weights = array_ops.reshape(_weights(sample_weight, y_pred), [1, -1])
        predictions = array_ops.reshape(y_pred, [1, -1])
        above = _as_float(math_ops.greater(predictions, array_ops.reshape(
            convert_to_tensor(np.array(self.thresholds, np.float32)), [-1, 1])), dtypes.float32)
        positive, negative = y_true, 1.0 - y_true
        table = {"tp": above * positive, "fp": above * negative, "tn": (1.0 - above) * negative,
                 "fn": (1.0 - above) * positive}
        return [math_ops.reduce_sum(table[k] * weights, axis=1) for k in kinds]


class Precision(_Confusion):
    """true positives / predicted positives, at `thresholds` (0.5)."""

    _direction = "up"

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        if top_k is not None or class_id is not None:
            raise NotImplementedError("Precision(top_k=..., class_id=...) is not implemented in placeflow.")
        self._single = thresholds is None or np.ndim(thresholds) == 0
        super().__init__([0.5 if thresholds is None else thresholds] if self._single else thresholds, name, dtype)

    def _state_shapes(self):
        return [(len(self.thresholds),)] * 2

    def _batch_state(self, y_true, y_pred, sample_weight):
        return self._counts(y_true, y_pred, sample_weight, ("tp", "fp"))

    def _result_from(self, state):
        value = _divide_no_nan(state[0], state[0] + state[1])
        return value[0] if self._single else value


class Recall(Precision):
    """true positives / actual positives, at `thresholds` (0.5)."""

    def _batch_state(self, y_true, y_pred, sample_weight):
        return self._counts(y_true, y_pred, sample_weight, ("tp", "fn"))


class AUC(_Confusion):
    """The area under the ROC (or precision-recall) curve, from confusion counts at num_thresholds
    thresholds, summed as Keras 3 does ('interpolation', 'minoring', 'majoring')."""

    _direction = "up"

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None, dtype=None,
                 thresholds=None, multi_label=False, num_labels=None, label_weights=None, from_logits=False):
        if multi_label or num_labels is not None or label_weights is not None:
            raise NotImplementedError("AUC(multi_label=True, num_labels, label_weights) is not implemented in "
                                      "placeflow.")
        self.curve, self.summation_method, self.from_logits = curve.upper(), summation_method.lower(), from_logits
        if self.curve not in ("ROC", "PR") or self.summation_method not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f"AUC: curve must be 'ROC' or 'PR' and summation_method 'interpolation', 'minoring' or "
                             f"'majoring'; got {curve!r} and {summation_method!r}.")
        if thresholds is not None:
            inner = sorted(float(t) for t in thresholds)
        else:
            if int(num_thresholds) <= 1:
                raise ValueError(f"Argument `num_thresholds` must be an integer > 1. Received: "
                                 f"num_thresholds={num_thresholds}")
            inner = [(i + 1) / (int(num_thresholds) - 1) for i in range(int(num_thresholds) - 2)]
        super().__init__([0.0 - EPSILON] + inner + [1.0 + EPSILON], name, dtype)
        self.num_thresholds = len(self.thresholds)

    def _state_shapes(self):
        return [(self.num_thresholds,)] * 4

    def _batch_state(self, y_true, y_pred, sample_weight):
        y_pred = math_ops.sigmoid(convert_to_tensor(y_pred)) if self.from_logits else y_pred
        return self._counts(y_true, y_pred, sample_weight, ("tp", "fp", "tn", "fn"))

    def _result_from(self, state):
        tp, fp, tn, fn = state
        if self.curve == "PR" and self.summation_method == "interpolation":
            return _interpolated_pr_auc(tp, fp, fn, self.num_thresholds)
        recall = _divide_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = _divide_no_nan(fp, fp + tn), recall
        else:
            x, y = recall, _divide_no_nan(tp, tp + fp)
        n = self.num_thresholds
        first, rest = y[:n - 1], y[1:]
        if self.summation_method == "interpolation":
            heights = (first + rest) / 2.0
        elif self.summation_method == "minoring":
            heights = math_ops.minimum(first, rest)
        else:
            heights = math_ops.maximum(first, rest)
        return math_ops.reduce_sum((x[:n - 1] - x[1:]) * heights)


def _interpolated_pr_auc(tp, fp, fn, n):
    """Keras 3's closed-form interpolation of the precision-recall curve between thresholds."""
    dtp = tp[:n - 1] - tp[1:]
    p = tp + fp
    dp = p[:n - 1] - p[1:]
    slope = _divide_no_nan(dtp, math_ops.maximum(dp, 0.0))
    intercept = tp[1:] - slope * p[1:]
    both = math_ops.logical_and(p[:n - 1] > 0, p[1:] > 0)
    ratio = math_ops.where(both, _divide_no_nan(p[:n - 1], math_ops.maximum(p[1:], 0.0)), array_ops.ones_like(p[1:]))
    increments = _divide_no_nan(slope * (dtp + intercept * math_ops.log(ratio)),
                                math_ops.maximum(tp[1:] + fn[1:], 0.0))
    return math_ops.reduce_sum(increments)


# -- names ------------------------------------------------------------------------------------------------------

_BY_NAME = {"sparse_categorical_accuracy": SparseCategoricalAccuracy, "categorical_accuracy": CategoricalAccuracy,
            "binary_accuracy": BinaryAccuracy, "mse": MeanSquaredError, "mean_squared_error": MeanSquaredError,
            "mae": MeanAbsoluteError, "mean_absolute_error": MeanAbsoluteError, "precision": Precision,
            "recall": Recall, "auc": AUC, "top_k_categorical_accuracy": TopKCategoricalAccuracy,
            "sparse_top_k_categorical_accuracy": SparseTopKCategoricalAccuracy,
            "binary_crossentropy": BinaryCrossentropy, "categorical_crossentropy": CategoricalCrossentropy,
            "sparse_categorical_crossentropy": SparseCategoricalCrossentropy}


def get(identifier, loss=None) -> Metric:
    """A Metric from a name ('accuracy' follows `loss`), an instance, or a function fn(y_true, y_pred)."""
    if isinstance(identifier, Metric):
        return identifier
    if callable(identifier) and not isinstance(identifier, str):
        return MeanMetricWrapper(identifier, getattr(identifier, "__name__", "metric"))
    if identifier in ("accuracy", "acc"):
        if isinstance(loss, losses_module.SparseCategoricalCrossentropy):
            return MeanMetricWrapper(sparse_categorical_accuracy, identifier)
        if isinstance(loss, losses_module.CategoricalCrossentropy):
            return MeanMetricWrapper(categorical_accuracy, identifier)
        return MeanMetricWrapper(binary_accuracy, identifier)
    if identifier not in _BY_NAME:
        raise ValueError(f"Unknown metric function: '{identifier}'. Known: accuracy, {', '.join(sorted(_BY_NAME))}.")
    return _BY_NAME[identifier](name=identifier)


def resolve(identifier, loss) -> Metric:
    """The metric `compile(metrics=[...])` builds for an identifier (a fresh one for names)."""
    return get(identifier, loss)
