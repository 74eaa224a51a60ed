"""Random ops: values drawn on the host, so every device agrees: uniform, normal, truncated normal and integer
ops give TensorFlow's own Philox values (philox.py; stateful ones from their op's stream), categorical and
shuffle draw from a seeded NumPy generator."""

import math

import numpy as np

from ..framework import dtypes as d
from . import philox
from . import shape_rules as rules
from .registry import ALL, FLOATS, NOT_DIFFERENTIABLE, define, no_gradient_yet, presize_from_attrs


def _stream_draw(stream, shape, dtype, draw):
    key, counter = stream.reserve(int(np.prod(shape, dtype=np.int64)))
    return draw(key, counter, int(np.prod(shape, dtype=np.int64)), dtype).reshape(shape)


@define("RandomUniform", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE, presize=presize_from_attrs)
def _uniform(xp, shape, minval, maxval, dtype, generator):
    """TF's uniform draw from the op's Philox stream, times (maxval - minval) plus minval in the dtype."""
    unit = _stream_draw(generator, shape, dtype, philox.uniform)
    low, high = dtype.numpy_dtype.type(minval), dtype.numpy_dtype.type(maxval)
    return xp.asarray((unit * (high - low) + low).astype(dtype.numpy_dtype, copy=False))


@define("RandomStandardNormal", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE,
        presize=presize_from_attrs)
def _normal(xp, shape, mean, stddev, dtype, generator):
    """TF's normal draw from the op's Philox stream, times stddev plus mean in the dtype."""
    unit = _stream_draw(generator, shape, dtype, philox.normal)
    scale, shift = dtype.numpy_dtype.type(stddev), dtype.numpy_dtype.type(mean)
    return xp.asarray((unit * scale + shift).astype(dtype.numpy_dtype, copy=False))


@define("RandomUniformInt", {d.int32, d.int64}, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE,
        presize=presize_from_attrs)
def _uniform_int(xp, shape, minval, maxval, dtype, generator):
    """TF's integers in [minval, maxval) from the op's Philox stream."""
    if maxval <= minval and math.prod(shape):  # an empty draw needs no range (TF checks only then)
        from ..framework.errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, f"Need minval < maxval, got {minval} >= {maxval}")
    return xp.asarray(_stream_draw(generator, shape, dtype, lambda k, c, n, t: philox.uniform_int(
        k, c, n, int(minval), int(maxval), t)))


@define("TruncatedNormal", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE, presize=presize_from_attrs)
def _truncated_normal(xp, shape, mean, stddev, dtype, generator):
    """TF's truncated normal draw (|x| < 2) from the op's Philox stream, times stddev plus mean in the dtype."""
    unit = _stream_draw(generator, shape, dtype, philox.truncated_normal)
    scale, shift = dtype.numpy_dtype.type(stddev), dtype.numpy_dtype.type(mean)
    return xp.asarray((unit * scale + shift).astype(dtype.numpy_dtype, copy=False))


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


# -- stateless: the values depend on the seed input alone (a tensor, so it may be known only when a graph runs);
# they are TensorFlow's (Philox, philox.py), scaled in the output dtype as TF's Python wrappers scale them --------

def _seeded(seed) -> np.random.Generator:
    """A NumPy generator from a seed pair (the stateless ops TF draws with other algorithms: gamma, ...)."""
    host = seed.get() if hasattr(seed, "get") else np.asarray(seed)
    pair = [int(v) & 0xFFFFFFFFFFFFFFFF for v in host.reshape(-1)]
    return np.random.default_rng(pair)


def _philox_draw(seed, shape, dtype, draw, from_state=False):
    """`draw` for a stateless seed pair, or (from_state: tf.random.Generator) for a state [counter, key]."""
    key, counter = philox.from_state(_host(seed)) if from_state else philox.key_counter(_host(seed))
    count = int(np.prod(shape, dtype=np.int64))
    return draw(key, counter, count, dtype).reshape(shape)


@define("StatelessRandomUniformV2", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE,
        presize=presize_from_attrs)
def _stateless_uniform(xp, seed, shape, minval, maxval, dtype, from_state=False):
    """TF's uniform [0, 1) draw for the seed, times (maxval - minval) plus minval in the dtype."""
    unit = _philox_draw(seed, shape, dtype, philox.uniform, from_state)
    low, high = dtype.numpy_dtype.type(minval), dtype.numpy_dtype.type(maxval)
    return xp.asarray((unit * (high - low) + low).astype(dtype.numpy_dtype, copy=False))


@define("StatelessRandomNormalV2", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE,
        presize=presize_from_attrs)
def _stateless_normal(xp, seed, shape, mean, stddev, dtype, from_state=False):
    """TF's standard normal draw for the seed, times stddev plus mean in the dtype."""
    unit = _philox_draw(seed, shape, dtype, philox.normal, from_state)
    scale, shift = dtype.numpy_dtype.type(stddev), dtype.numpy_dtype.type(mean)
    return xp.asarray((unit * scale + shift).astype(dtype.numpy_dtype, copy=False))


@define("StatelessTruncatedNormalV2", FLOATS, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE,
        presize=presize_from_attrs)
def _stateless_truncated_normal(xp, seed, shape, mean, stddev, dtype, from_state=False):
    """TF's truncated normal draw for the seed (|x| < 2), times stddev plus mean in the dtype."""
    unit = _philox_draw(seed, shape, dtype, philox.truncated_normal, from_state)
    scale, shift = dtype.numpy_dtype.type(stddev), dtype.numpy_dtype.type(mean)
    return xp.asarray((unit * scale + shift).astype(dtype.numpy_dtype, copy=False))


@define("StatelessRandomUniformIntV2", {d.int32, d.int64}, shape=rules.from_shape_attr, grad=NOT_DIFFERENTIABLE,
        presize=presize_from_attrs)
def _stateless_uniform_int(xp, seed, shape, minval, maxval, dtype, from_state=False):
    """TF's integers in [minval, maxval) for the seed."""
    if maxval <= minval and math.prod(shape):  # an empty draw needs no range (TF checks only then)
        from ..framework.errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, f"Need minval < maxval, got {minval} >= {maxval}")
    return xp.asarray(_philox_draw(seed, shape, dtype, lambda k, c, n, t: philox.uniform_int(k, c, n, int(minval),
                                                                                           int(maxval), t),
                                   from_state))


@define("StatelessRandomUniformFullIntV2", {d.int32, d.int64, d.uint32, d.uint64}, shape=rules.from_shape_attr,
        grad=NOT_DIFFERENTIABLE, presize=presize_from_attrs)
def _stateless_uniform_full_int(xp, seed, shape, dtype, from_state=False):
    """TF's integers over the whole range of the dtype for the seed."""
    return xp.asarray(_philox_draw(seed, shape, dtype, philox.full_int, from_state))


@define("_PhiloxStateSkip", {d.int64}, gpu=(), shape=lambda shapes, attrs: shapes[0], grad=NOT_DIFFERENTIABLE)
def _philox_state_skip(xp, state, delta):
    """A Generator's state [counter (two int64), key] with the counter advanced by 256 per value (RngReadAndSkip)."""
    words = _host(state).astype(np.int64).view(np.uint64)
    counter = (int(words[0]) | int(words[1]) << 64) + int(_host(delta)) * 256
    out = np.array([counter & 0xFFFFFFFFFFFFFFFF, (counter >> 64) & 0xFFFFFFFFFFFFFFFF, int(words[2])], np.uint64)
    return out.view(np.int64)


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
    """`num_samples` class indices per row of softmax(logits), determined by the seed: TF's values (its Philox
    stream and sampling, philox.categorical)."""
    key, counter = philox.key_counter(_host(seed))
    picks = philox.categorical(key, counter, _host(logits), int(num_samples))
    return xp.asarray(picks.astype(output_dtype.numpy_dtype))
