"""tf.raw_ops, random family: stateful ops seeded by TF's (seed, seed2) attrs and the stateless V2 ops.

A stateful raw op with seed = seed2 = 0 draws nondeterministically (TF's raw ops ignore the global seed); with
either set it draws from the Philox stream (seed, seed2), continued by later calls with the same attributes as
TF's cached eager kernel is. RandomShuffle and Multinomial draw with NumPy generators seeded the same way, so
they repeat but are not TensorFlow's draws.
"""

from __future__ import annotations

import numpy as np

from ..framework import graph_mode
from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes
from ..ops.philox import Stream
from . import image_sample, math_ops, random, random_more
from .raw_ops_common import named, outputs, refuse
from .raw_ops_nn import op_seed


def _shape(shape) -> tuple:
    return random._shape(shape)


def _stream(op: str, dtype, seed, seed2):
    """The Philox stream of a stateful raw op with TF's seed attrs (see the module docstring)."""
    if not seed and not seed2:
        return Stream.nondeterministic()
    seeds = (int(seed), int(seed2))
    if graph_mode.active() is not None:
        return Stream(*seeds)
    with random._lock:
        key = (f"raw:{op}", dtypes.as_dtype(dtype).name, seeds)
        found = random._streams.get(key)
        if found is None:
            found = random._streams[key] = Stream(*seeds)
        return found


def _generator(seed, seed2) -> np.random.Generator:
    if not seed and not seed2:
        return np.random.default_rng()
    seeds = ("raw", int(seed), int(seed2))
    return np.random.default_rng([int(seed), int(seed2), random._next_call(seeds)])


def _random_uniform(*, shape, dtype, seed=0, seed2=0, name=None):
    dtype = dtypes.as_dtype(dtype)
    attrs = {"shape": _shape(shape), "minval": 0.0, "maxval": 1.0, "dtype": dtype,
             "generator": _stream("RandomUniform", dtype, seed, seed2)}
    return execute("RandomUniform", (), dtype, attrs, name=name)


def _normal(op: str):
    def raw(*, shape, dtype, seed=0, seed2=0, name=None):
        dtype = dtypes.as_dtype(dtype)
        attrs = {"shape": _shape(shape), "mean": 0.0, "stddev": 1.0, "dtype": dtype,
                 "generator": _stream(op, dtype, seed, seed2)}
        return execute(op, (), dtype, attrs, name=name)
    return raw


def _static_int(tensor) -> int:
    """A scalar known before the op runs (TF's kernels read minval/maxval as values; placeflow's as attributes)."""
    from .array_ops import get_static_value
    known = get_static_value(tensor)
    if known is None:
        raise NotImplementedError("minval/maxval known only when the graph runs are not implemented in placeflow's "
                                  "random raw ops; pass constants.")
    return int(known)


def _random_uniform_int(*, shape, minval, maxval, seed=0, seed2=0, name=None):
    low = convert_to_tensor(minval)
    high = convert_to_tensor(maxval, dtype=low.dtype)
    attrs = {"shape": _shape(shape), "minval": _static_int(low), "maxval": _static_int(high), "dtype": low.dtype,
             "generator": _stream("RandomUniformInt", low.dtype, seed, seed2)}
    return execute("RandomUniformInt", (), low.dtype, attrs, name=name)


def _random_gamma(*, shape, alpha, seed=0, seed2=0, name=None):
    alpha = convert_to_tensor(alpha)
    attrs = {"shape": _shape(shape), "dtype": alpha.dtype, "generator": _stream("RandomGamma", alpha.dtype, seed,
                                                                                seed2)}
    return execute("RandomGamma", (alpha,), alpha.dtype, attrs, name=name)


def _random_poisson(*, shape, rate, seed=0, seed2=0, dtype=dtypes.int64, name=None):
    dtype = dtypes.as_dtype(dtype)
    rate = convert_to_tensor(rate)
    attrs = {"shape": _shape(shape), "dtype": dtype,
             "generator": _stream(f"RandomPoissonV2/{rate.dtype.name}", dtype, seed, seed2)}
    return execute("RandomPoissonV2", (rate,), dtype, attrs, name=name)


def _random_shuffle(*, value, seed=0, seed2=0, name=None):
    tensor = convert_to_tensor(value)
    return execute("RandomShuffle", (tensor,), tensor.dtype, {"generator": _generator(seed, seed2)}, name=name)


def _multinomial(*, logits, num_samples, seed=0, seed2=0, output_dtype=dtypes.int64, name=None):
    logits = convert_to_tensor(logits)
    return execute("Multinomial", (logits,), logits.dtype, {
        "num_samples": int(num_samples), "output_dtype": dtypes.as_dtype(output_dtype),
        "generator": _generator(seed, seed2)}, name=name)


def _state(op: str, key, counter, alg):
    """The [counter low, counter high, key] state placeflow's Philox kernels read, from TF's key/counter/alg."""
    from .array_ops import get_static_value
    alg = int(get_static_value(alg) if hasattr(alg, "dtype") else alg)
    if alg not in (1, 3):   # 1: Philox; 3: auto_select, which is Philox on CPU and GPU
        refuse(op, "alg", alg, "alg=1 (Philox) or 3 (auto_select)")
    key = math_ops.cast(convert_to_tensor(key), dtypes.int64)
    counter = math_ops.cast(convert_to_tensor(counter), dtypes.int64)
    from .array_ops import concat, reshape
    return concat([reshape(counter, [-1])[:2], reshape(key, [-1])[:1]], 0)


def _stateless_v2(op: str, **fixed):
    def raw(*, shape, key, counter, alg, dtype=dtypes.float32, name=None):
        dtype = dtypes.as_dtype(dtype)
        return execute(op, (_state(op, key, counter, alg),), dtype,
                       dict(fixed, shape=_shape(shape), dtype=dtype, from_state=True), name=name)
    return raw


def _stateless_full_int(*, shape, key, counter, alg, dtype=dtypes.uint64, name=None):
    return _stateless_v2("StatelessRandomUniformFullIntV2")(shape=shape, key=key, counter=counter, alg=alg,
                                                            dtype=dtype, name=name)


def _stateless_int(*, shape, key, counter, alg, minval, maxval, name=None):
    low = convert_to_tensor(minval)
    high = convert_to_tensor(maxval, dtype=low.dtype)
    op = "StatelessRandomUniformIntV2"
    return execute(op, (_state(op, key, counter, alg),), low.dtype, {
        "shape": _shape(shape), "dtype": low.dtype, "minval": _static_int(low), "maxval": _static_int(high),
        "from_state": True}, name=name)


def _stateless_shuffle(*, value, key, counter, alg, name=None):
    refuse("StatelessShuffle", "key", "<a key/counter pair>",
           "shuffling by a seed: call tf.random.experimental.stateless_shuffle(value, seed)")


def _sample_box_v2(*, image_size, bounding_boxes, min_object_covered, seed=0, seed2=0,
                   aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1), max_attempts=100,
                   use_image_if_no_bounding_boxes=False, name=None):
    found = image_sample.sample_distorted_bounding_box(
        image_size, bounding_boxes, op_seed(seed, seed2) or 0, min_object_covered, list(aspect_ratio_range),
        list(area_range), max_attempts, use_image_if_no_bounding_boxes, name=name)
    return outputs("SampleDistortedBoundingBoxV2", "begin size bboxes", tuple(found))


def _stateless_sample_box(*, image_size, bounding_boxes, min_object_covered, seed, aspect_ratio_range=(0.75, 1.33),
                          area_range=(0.05, 1), max_attempts=100, use_image_if_no_bounding_boxes=False, name=None):
    found = image_sample.stateless_sample_distorted_bounding_box(
        image_size, bounding_boxes, seed, min_object_covered, list(aspect_ratio_range), list(area_range),
        max_attempts, use_image_if_no_bounding_boxes, name=name)
    return outputs("StatelessSampleDistortedBoundingBox", "begin size bboxes", tuple(found))


def _key_counter_values(op: str, seed) -> tuple:
    """TF's (key [1] uint64, counter [2] uint64) Philox state for a stateless seed (philox.key_counter)."""
    from ..ops import philox
    from .array_ops import get_static_value
    known = get_static_value(convert_to_tensor(seed))
    if known is None:
        raise NotImplementedError(f"tf.raw_ops.{op} of a seed known only when the graph runs is not implemented in "
                                  "placeflow: give the seed as a constant (or use the stateless ops with seed=)")
    (k0, k1), (c0, c1, c2, c3) = philox.key_counter(np.asarray(known))
    key = np.array([k0 | k1 << 32], dtype=np.uint64)
    counter = np.array([c0 | c1 << 32, c2 | c3 << 32], dtype=np.uint64)
    from ..eager.convert import constant
    return constant(key, dtype=dtypes.uint64), constant(counter, dtype=dtypes.uint64)


def _get_alg(*, name=None):
    from ..eager.convert import constant
    return constant(1, dtype=dtypes.int32)  # Philox, TF's algorithm on CPU and GPU


_OPS = {
    "StatelessRandomGetKeyCounter": lambda *, seed, name=None: outputs(
        "StatelessRandomGetKeyCounter", "key counter", _key_counter_values("StatelessRandomGetKeyCounter", seed)),
    "StatelessRandomGetAlg": _get_alg,
    "StatelessRandomGetKeyCounterAlg": lambda *, seed, name=None: outputs(
        "StatelessRandomGetKeyCounterAlg", "key counter alg",
        _key_counter_values("StatelessRandomGetKeyCounterAlg", seed) + (_get_alg(),)),
    "RandomUniform": _random_uniform, "RandomStandardNormal": _normal("RandomStandardNormal"),
    "TruncatedNormal": _normal("TruncatedNormal"), "RandomUniformInt": _random_uniform_int,
    "RandomGamma": _random_gamma, "RandomPoissonV2": _random_poisson, "RandomShuffle": _random_shuffle,
    "Multinomial": _multinomial,
    "StatelessRandomUniformV2": _stateless_v2("StatelessRandomUniformV2", minval=0.0, maxval=1.0),
    "StatelessRandomNormalV2": _stateless_v2("StatelessRandomNormalV2", mean=0.0, stddev=1.0),
    "StatelessTruncatedNormalV2": _stateless_v2("StatelessTruncatedNormalV2", mean=0.0, stddev=1.0),
    "StatelessRandomUniformFullIntV2": _stateless_full_int, "StatelessRandomUniformIntV2": _stateless_int,
    "StatelessShuffle": _stateless_shuffle,
    "StatelessMultinomial": lambda *, logits, num_samples, seed, output_dtype=dtypes.int64, name=None:
        random.stateless_categorical(logits, num_samples, seed, output_dtype, name=name),
    "StatelessParameterizedTruncatedNormal": lambda *, shape, seed, means, stddevs, minvals, maxvals, name=None:
        random_more.stateless_parameterized_truncated_normal(shape, seed, means, stddevs, minvals, maxvals, name),
    "StatelessRandomBinomial": lambda *, shape, seed, counts, probs, dtype=dtypes.int64, name=None:
        random.stateless_binomial(shape, seed, counts, probs, dtype, name=name),
    "StatelessRandomGammaV2": lambda *, shape, seed, alpha, name=None: random.stateless_gamma(
        shape, seed, alpha, dtype=convert_to_tensor(alpha).dtype, name=name),
    "StatelessRandomPoisson": lambda *, shape, seed, lam, dtype, name=None: random.stateless_poisson(
        shape, seed, lam, dtype, name=name),
    "RandomIndexShuffle": lambda *, index, seed, max_index, rounds=4, name=None: random_more.random_index_shuffle(
        index, seed, max_index, rounds, name=name),
    "SobolSample": lambda *, dim, num_results, skip, dtype=dtypes.float32, name=None: _sobol(
        dim, num_results, skip, dtype, name),
    "SampleDistortedBoundingBoxV2": _sample_box_v2, "StatelessSampleDistortedBoundingBox": _stateless_sample_box,
}


def _sobol(dim, num_results, skip, dtype, name):
    import placeflow
    return placeflow.math.sobol_sample(dim, num_results, skip, dtype, name=name)


def table() -> dict:
    """The random family's raw ops by TF op name."""
    return {op: named(op, fn, f"tf.raw_ops.{op}, as TensorFlow's op of that name.") for op, fn in _OPS.items()}
