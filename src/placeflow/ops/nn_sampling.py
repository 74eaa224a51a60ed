"""Candidate samplers (tf.random.*_candidate_sampler): sampled classes and the expected counts of the true and
sampled classes. The expected counts follow TensorFlow's formulas exactly: p * num_sampled when sampling with
replacement, 1 - (1 - p) ** tries when `unique` (tries: every draw it took to find num_sampled distinct classes).
The draws come from a NumPy generator seeded as tf.random's ops are, not from TensorFlow's Philox stream, so a
seed gives repeatable samples that are not TensorFlow's."""

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .registry import NOT_DIFFERENTIABLE, define


def _shape(shapes, attrs):
    true = shapes[0]
    batch = None if true is None else true[0]
    return [(attrs["num_sampled"],), (batch, attrs["num_true"]), (attrs["num_sampled"],)]


def _dtype(dtype, attrs):
    return [d.int64, d.float32, d.float32]


class LearnedCounts:
    """The class weights of a learned unigram sampler: all 1 at first, each true class seen adds 1 (TF's kernel
    keeps them across its runs)."""

    def __init__(self, range_max: int):
        self.weights = np.ones(range_max, np.float64)

    def update(self, true_classes) -> None:
        """Count the true classes of one run."""
        np.add.at(self.weights, np.asarray(true_classes).reshape(-1), 1.0)


def _probabilities(kind, range_max, unigrams, state):
    if kind == "uniform":
        return np.full(range_max, 1.0 / range_max)
    if kind == "log_uniform":
        k = np.arange(range_max, dtype=np.float64)
        return np.log((k + 2.0) / (k + 1.0)) / np.log(range_max + 1.0)
    weights = state.weights if kind == "learned" else np.asarray(unigrams, np.float64)
    return weights / weights.sum()


def _expected(p, num_sampled, tries):
    p = np.asarray(p, np.float32).astype(np.float64)
    if tries == num_sampled:
        return (p * num_sampled).astype(np.float32)
    return (-np.expm1(tries * np.log1p(-p))).astype(np.float32)


def _sample(true_classes, num_true=1, num_sampled=1, unique=True, range_max=1, kind="uniform", unigrams=(),
            generator=None, state=None):
    true_classes = np.asarray(true_classes)
    if true_classes.ndim != 2:
        raise InvalidArgumentError(None, None, f"true_classes must be a matrix; got shape {list(true_classes.shape)}")
    if true_classes.shape[1] != num_true:
        raise InvalidArgumentError(None, None, f"true_classes must have num_true columns, expected: {num_true} was: "
                                               f"{true_classes.shape[1]}")
    if true_classes.size and (true_classes.min() < 0 or true_classes.max() >= range_max):
        bad = int(true_classes.reshape(-1)[np.argmax((true_classes < 0) | (true_classes >= range_max))])
        raise InvalidArgumentError(None, None, f"`true_candidate` out of range [0, {range_max}), received {bad}")
    if kind == "all":
        sampled = np.arange(num_sampled, dtype=np.int64)
        return sampled, np.ones(true_classes.shape, np.float32), np.ones(num_sampled, np.float32)
    if unique and num_sampled > range_max:
        raise InvalidArgumentError(None, None, "Sampler's range is too small.")
    p = _probabilities(kind, range_max, unigrams, state)
    cumulative = np.cumsum(p)
    cumulative /= cumulative[-1]

    def draw(count):
        return np.minimum(np.searchsorted(cumulative, generator.random(count), side="right"), range_max - 1)
    if not unique:
        sampled, tries = draw(num_sampled), num_sampled
    else:
        seen, order, tries = set(), [], 0
        while len(order) < num_sampled:
            for value in draw(max(num_sampled - len(order), 1)).tolist():
                tries += 1
                if value not in seen:
                    seen.add(value)
                    order.append(value)
                    if len(order) == num_sampled:
                        break
        sampled = np.array(order, np.int64)
    true_expected = _expected(p[true_classes], num_sampled, tries)
    sampled_expected = _expected(p[sampled], num_sampled, tries)
    if kind == "learned":
        state.update(true_classes)
    return sampled.astype(np.int64), true_expected, sampled_expected


def _kernel(xp, true_classes, **attrs):
    return tuple(xp.asarray(a) for a in _sample(true_classes, **attrs))


for _op in ("UniformCandidateSampler", "LogUniformCandidateSampler", "LearnedUnigramCandidateSampler",
            "FixedUnigramCandidateSampler", "AllCandidateSampler"):
    define(_op, {d.int64}, gpu=(), shape=_shape, dtype=_dtype, grad=NOT_DIFFERENTIABLE)(_kernel)
