"""Random ops: values drawn on the host from a seeded generator, so every device agrees."""

import numpy as np

from ..framework import dtypes as d
from . import shape_rules as rules
from .registry import ALL, FLOATS, NOT_DIFFERENTIABLE, define, no_gradient_yet, presize_from_attrs


@define("RandomUniform", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE, presize=presize_from_attrs)
def _uniform(xp, shape, minval, maxval, dtype, generator):
    values = generator.uniform(minval, maxval, size=shape).astype(dtype.numpy_dtype)
    return xp.asarray(values)


@define("RandomStandardNormal", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE,
        presize=presize_from_attrs)
def _normal(xp, shape, mean, stddev, dtype, generator):
    values = (generator.standard_normal(size=shape) * stddev + mean).astype(dtype.numpy_dtype)
    return xp.asarray(values)


@define("RandomUniformInt", {d.int32, d.int64}, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE,
        presize=presize_from_attrs)
def _uniform_int(xp, shape, minval, maxval, dtype, generator):
    return xp.asarray(generator.integers(minval, maxval, size=shape, dtype=dtype.numpy_dtype))


@define("TruncatedNormal", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE, presize=presize_from_attrs)
def _truncated_normal(xp, shape, mean, stddev, dtype, generator):
    """Normal values more than two standard deviations from the mean are drawn again (TF's rule)."""
    values = generator.standard_normal(size=shape)
    outside = np.abs(values) > 2.0
    while outside.any():
        values[outside] = generator.standard_normal(size=int(outside.sum()))
        outside = np.abs(values) > 2.0
    return xp.asarray((values * stddev + mean).astype(dtype.numpy_dtype))


def _categorical_shape(shapes, attrs):
    logits = shapes[0]
    return None if logits is None else (logits[0], attrs["num_samples"])


@define("Multinomial", FLOATS, shape=_categorical_shape, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: attrs.get("output_dtype", d.int64))
def _categorical(xp, logits, num_samples=1, output_dtype=d.int64, generator=None):
    """`num_samples` class indices per row, drawn with probabilities softmax(logits) (tf.random.categorical)."""
    host = logits.get() if hasattr(logits, "get") else np.asarray(logits)
    shifted = np.exp(host.astype(np.float64) - host.max(axis=1, keepdims=True))
    probabilities = shifted / shifted.sum(axis=1, keepdims=True)
    cumulative = np.cumsum(probabilities, axis=1)
    draws = generator.random((host.shape[0], num_samples))
    picks = (draws[:, :, None] >= cumulative[:, None, :-1]).sum(axis=2)
    return xp.asarray(picks.astype(output_dtype.numpy_dtype))


@define("RandomShuffle", ALL, shape=lambda shapes, attrs: shapes[0], grad=NOT_DIFFERENTIABLE)
def _shuffle(xp, value, generator=None):
    """`value` with its first dimension permuted."""
    if value.ndim == 0:
        return value.copy()
    order = generator.permutation(value.shape[0])
    return value[xp.asarray(order)]


# -- stateless: the values depend on the seed input alone (a tensor, so it may be known only when a graph runs) --

def _seeded(seed) -> np.random.Generator:
    host = seed.get() if hasattr(seed, "get") else np.asarray(seed)
    pair = [int(v) & 0xFFFFFFFFFFFFFFFF for v in host.reshape(-1)]
    return np.random.default_rng(pair)


@define("StatelessRandomUniformV2", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE,
        presize=presize_from_attrs)
def _stateless_uniform(xp, seed, shape, minval, maxval, dtype):
    return _uniform(xp, shape, minval, maxval, dtype, _seeded(seed))


@define("StatelessRandomNormalV2", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE,
        presize=presize_from_attrs)
def _stateless_normal(xp, seed, shape, mean, stddev, dtype):
    return _normal(xp, shape, mean, stddev, dtype, _seeded(seed))


@define("StatelessTruncatedNormalV2", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE,
        presize=presize_from_attrs)
def _stateless_truncated_normal(xp, seed, shape, mean, stddev, dtype):
    return _truncated_normal(xp, shape, mean, stddev, dtype, _seeded(seed))


@define("StatelessRandomUniformIntV2", {d.int32, d.int64}, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE,
        presize=presize_from_attrs)
def _stateless_uniform_int(xp, seed, shape, minval, maxval, dtype):
    return _uniform_int(xp, shape, minval, maxval, dtype, _seeded(seed))


def _host(array) -> np.ndarray:
    return array.get() if hasattr(array, "get") else np.asarray(array)


def _broadcast_to_shape(shapes, attrs):
    return tuple(attrs["shape"])


@define("StatelessRandomGammaV2", FLOATS, shape=_broadcast_to_shape, presize=presize_from_attrs,
        grad=no_gradient_yet("StatelessRandomGammaV2"))
def _stateless_gamma(xp, seed, alpha, shape, dtype):
    """Gamma(alpha, 1) values of `shape` (alpha broadcast to it), determined by the seed."""
    concentration = np.broadcast_to(_host(alpha).astype(np.float64), tuple(shape))
    return xp.asarray(np.asarray(_seeded(seed).gamma(concentration), dtype.numpy_dtype))


@define("StatelessRandomPoisson", FLOATS | {d.int32, d.int64}, shape=_broadcast_to_shape, presize=presize_from_attrs,
        grad=NOT_DIFFERENTIABLE)
def _stateless_poisson(xp, seed, lam, shape, dtype):
    """Poisson(lam) counts of `shape` (lam broadcast to it), in `dtype`."""
    rates = np.broadcast_to(_host(lam).astype(np.float64), tuple(shape))
    return xp.asarray(np.asarray(_seeded(seed).poisson(rates), dtype.numpy_dtype))


@define("StatelessRandomBinomial", FLOATS | {d.int32, d.int64}, shape=_broadcast_to_shape,
        presize=presize_from_attrs, grad=NOT_DIFFERENTIABLE)
def _stateless_binomial(xp, seed, counts, probs, shape, dtype):
    """Binomial(counts, probs) successes of `shape` (both broadcast to it), in `dtype`."""
    trials = np.broadcast_to(_host(counts).astype(np.int64), tuple(shape))
    chances = np.broadcast_to(_host(probs).astype(np.float64), tuple(shape))
    return xp.asarray(np.asarray(_seeded(seed).binomial(trials, chances), dtype.numpy_dtype))


@define("StatelessMultinomial", FLOATS, shape=_categorical_shape, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: attrs.get("output_dtype", d.int64))
def _stateless_categorical(xp, logits, seed, num_samples=1, output_dtype=d.int64):
    """`num_samples` class indices per row of softmax(logits), determined by the seed."""
    return _categorical(xp, logits, num_samples, output_dtype, _seeded(seed))
