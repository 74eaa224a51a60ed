"""placeflow.random: seeded uniform and normal values, with TensorFlow's global/op seed rules.

A global seed (set_seed) makes every later sequence of random ops repeat; an op seed alone uses a
fixed default global seed; repeated calls with the same seeds give new values, in a repeatable order.
"""

from __future__ import annotations

import itertools
import threading

import numpy as np

from ..eager.execute import execute
from ..eager.convert import convert_to_tensor
from ..framework import dtypes
from . import math_ops

DEFAULT_GLOBAL_SEED = 87654321
_lock = threading.Lock()
_global_seed = None
_op_counter = itertools.count()
_calls: dict = {}


def set_seed(seed) -> None:
    """Set the global seed: sequences of random ops after this call repeat across runs."""
    global _global_seed, _op_counter
    with _lock:
        _global_seed = None if seed is None else int(seed)
        _op_counter = itertools.count()
        _calls.clear()


def get_global_generator_seed():
    """The global seed, or None."""
    return _global_seed


def _generator(seed) -> np.random.Generator:
    with _lock:
        if _global_seed is None and seed is None:
            return np.random.default_rng()
        global_seed = DEFAULT_GLOBAL_SEED if _global_seed is None else _global_seed
        op_seed = next(_op_counter) if seed is None else int(seed)
        call = _calls.get((global_seed, op_seed), 0)
        _calls[(global_seed, op_seed)] = call + 1
        return np.random.default_rng([global_seed & 0xFFFFFFFF, op_seed & 0xFFFFFFFF, call])


def _shape(shape) -> tuple:
    from .array_ops import _ints
    return _ints(shape)


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Values drawn uniformly from [minval, maxval) (maxval defaults to 1; required for integer dtypes)."""
    return _draw_uniform(shape, minval, maxval, dtype, _generator(seed), name)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Values drawn from a normal distribution."""
    return _draw_normal("RandomStandardNormal", shape, mean, stddev, dtype, _generator(seed), name)


def _draw_uniform(shape, minval, maxval, dtype, generator, name):
    """RandomUniform (RandomUniformInt for integers) drawing from `generator`."""
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer:
        return _uniform_int(shape, minval, maxval, dtype, generator, name)
    attrs = {"shape": _shape(shape), "minval": float(minval), "maxval": 1.0 if maxval is None else float(maxval),
             "dtype": dtype, "generator": generator}
    return execute("RandomUniform", (), dtype, attrs, name=name)


def _draw_normal(op, shape, mean, stddev, dtype, generator, name):
    """RandomStandardNormal or TruncatedNormal drawing from `generator`."""
    dtype = dtypes.as_dtype(dtype)
    attrs = {"shape": _shape(shape), "mean": float(mean), "stddev": float(stddev), "dtype": dtype,
             "generator": generator}
    return execute(op, (), dtype, attrs, name=name)


def _uniform_int(shape, minval, maxval, dtype, generator, name):
    if maxval is None:
        raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
    attrs = {"shape": _shape(shape), "minval": int(minval), "maxval": int(maxval), "dtype": dtype,
             "generator": generator}
    return execute("RandomUniformInt", (), dtype, attrs, name=name)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal values, those beyond two standard deviations drawn again."""
    return _draw_normal("TruncatedNormal", shape, mean, stddev, dtype, _generator(seed), name)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """[batch, num_samples] class indices drawn from each row's softmax(logits) (int64 unless dtype says)."""
    from ..eager.convert import convert_to_tensor
    logits = convert_to_tensor(logits)
    output = dtypes.as_dtype(dtype or dtypes.int64)
    return execute("Multinomial", (logits,), logits.dtype, {"num_samples": int(num_samples), "output_dtype": output,
                                                           "generator": _generator(seed)}, name=name)


def shuffle(value, seed=None, name=None):
    """`value` with its first dimension randomly permuted."""
    from ..eager.convert import convert_to_tensor
    tensor = convert_to_tensor(value)
    return execute("RandomShuffle", (tensor,), tensor.dtype, {"generator": _generator(seed)}, name=name)


# -- stateless random ops: the same (shape, seed) always gives the same values -----------------------------------

def _seed_tensor(seed):
    """The stateless seed as an int64 [2] tensor (it may be a traced tensor known only when the graph runs)."""
    from ..eager.convert import convert_to_tensor
    from . import math_ops
    tensor = convert_to_tensor(seed)
    if tensor.shape is not None and tuple(tensor.shape) != (2,):
        raise ValueError(f"seed must have shape [2], not {list(tensor.shape)}: pass two integers, e.g. seed=[1, 2].")
    return tensor if tensor.dtype == dtypes.int64 else math_ops.cast(tensor, dtypes.int64)


def _known(value) -> bool:
    """Whether a bound is known while building (a number, or a tensor with a static value)."""
    from .array_ops import get_static_value
    return isinstance(value, (int, float)) or get_static_value(value) is not None


def _float(value) -> float:
    from .array_ops import get_static_value
    return float(value) if isinstance(value, (int, float)) else float(get_static_value(value))


def _stateless_op(op, seed, shape, dtype, name, **attrs):
    dtype = dtypes.as_dtype(dtype)
    return execute(op, (_seed_tensor(seed),), dtype, dict(attrs, shape=_shape(shape), dtype=dtype), name=name)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None, alg="auto_select"):
    """Uniform values determined by `seed` (two integers, or a tensor of them) alone. Not TensorFlow's Philox
    stream: the same seed gives the same values in placeflow, not the values TensorFlow gives."""
    if dtypes.as_dtype(dtype).is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dtypes.as_dtype(dtype)!r}")
        return _stateless_op("StatelessRandomUniformIntV2", seed, shape, dtype, name, minval=int(minval),
                             maxval=int(maxval))
    maxval = 1.0 if maxval is None else maxval
    if _known(minval) and _known(maxval):
        return _stateless_op("StatelessRandomUniformV2", seed, shape, dtype, name, minval=_float(minval),
                             maxval=_float(maxval))
    # bounds known only when the graph runs (Keras's augmentation layers pass tensors): scale a [0, 1) draw
    unit = _stateless_op("StatelessRandomUniformV2", seed, shape, dtype, None, minval=0.0, maxval=1.0)
    low, high = (math_ops.cast(convert_to_tensor(v), dtype) for v in (minval, maxval))
    return math_ops.add(unit * (high - low), low, name=name)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    """Normal values determined by `seed` alone (see stateless_uniform)."""
    if _known(mean) and _known(stddev):
        return _stateless_op("StatelessRandomNormalV2", seed, shape, dtype, name, mean=_float(mean),
                             stddev=_float(stddev))
    unit = _stateless_op("StatelessRandomNormalV2", seed, shape, dtype, None, mean=0.0, stddev=1.0)
    mean, stddev = (math_ops.cast(convert_to_tensor(v), dtype) for v in (mean, stddev))
    return math_ops.add(unit * stddev, mean, name=name)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                               alg="auto_select"):
    """Truncated normal values determined by `seed` alone (see stateless_uniform)."""
    return _stateless_op("StatelessTruncatedNormalV2", seed, shape, dtype, name, mean=float(mean),
                         stddev=float(stddev))


def _parameter(value, dtype):
    from ..eager.convert import convert_to_tensor
    from . import math_ops
    tensor = convert_to_tensor(value)
    return tensor if tensor.dtype == dtype else math_ops.cast(tensor, dtype)


def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    """Gamma(alpha, beta) values determined by `seed` alone (alpha and beta broadcast to `shape`; see
    stateless_uniform about the stream)."""
    from . import math_ops
    dtype = dtypes.as_dtype(dtype)
    draws = execute("StatelessRandomGammaV2", (_seed_tensor(seed), _parameter(alpha, dtype)), dtype,
                    {"shape": _shape(shape), "dtype": dtype}, name=None if beta is not None else name)
    return draws if beta is None else math_ops.divide(draws, _parameter(beta, dtype), name=name)


def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    """Poisson(lam) counts determined by `seed` alone (lam broadcast to `shape`)."""
    dtype = dtypes.as_dtype(dtype)
    return execute("StatelessRandomPoisson", (_seed_tensor(seed), _parameter(lam, dtypes.float64)), dtype,
                   {"shape": _shape(shape), "dtype": dtype}, name=name)


def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """Binomial(counts, probs) successes determined by `seed` alone (both broadcast to `shape`)."""
    dtype = dtypes.as_dtype(output_dtype)
    return execute("StatelessRandomBinomial", (_seed_tensor(seed), _parameter(counts, dtypes.float64),
                                               _parameter(probs, dtypes.float64)), dtype,
                   {"shape": _shape(shape), "dtype": dtype}, name=name)


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """[batch, num_samples] class indices from each row's softmax(logits), determined by `seed` alone."""
    from ..eager.convert import convert_to_tensor
    logits = convert_to_tensor(logits)
    return execute("StatelessMultinomial", (logits, _seed_tensor(seed)), logits.dtype,
                   {"num_samples": int(num_samples), "output_dtype": dtypes.as_dtype(dtype)}, name=name)


class Generator:
    """tf.random.Generator: a random stream with its own state (from_seed repeats; split gives
    independent streams). Its values are placeflow's, not TensorFlow's Philox values."""

    def __init__(self, seed_sequence: np.random.SeedSequence):
        self._seeds = seed_sequence
        self._rng = np.random.default_rng(seed_sequence)
        self._lock = threading.Lock()

    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose stream depends only on `seed`."""
        return cls(np.random.SeedSequence(int(seed) & 0xFFFFFFFFFFFFFFFF))

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system's entropy."""
        return cls(np.random.SeedSequence())

    def _take(self) -> np.random.Generator:
        """A generator for one op, drawn from this stream (so ops of a traced step differ call to call)."""
        with self._lock:
            return np.random.default_rng(self._rng.integers(0, 2**63))

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Uniform values from [minval, maxval) (maxval required for integers)."""
        return _draw_uniform(shape, minval, maxval, dtype, self._take(), name)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal values."""
        return _draw_normal("RandomStandardNormal", shape, mean, stddev, dtype, self._take(), name)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Truncated normal values."""
        return _draw_normal("TruncatedNormal", shape, mean, stddev, dtype, self._take(), name)

    def split(self, count=1):
        """`count` new generators with independent streams (this one advances)."""
        with self._lock:
            children = self._seeds.spawn(int(count))
        return [Generator(child) for child in children]


_global_generator = None


def get_global_generator() -> Generator:
    """The process's generator (seeded by set_seed's global seed when one is set)."""
    global _global_generator
    if _global_generator is None:
        _global_generator = Generator.from_seed(_global_seed) if _global_seed is not None else \
            Generator.from_non_deterministic_state()
    return _global_generator
