"""placeflow.random: uniform, normal and truncated normal values with TensorFlow's seeds and TensorFlow's values.

Seeds follow TF's rules (random_seed.get_seed): with a global seed (set_seed), an op without a seed takes
the next op seed from a Python random.Random seeded with the global seed (eagerly) or the graph's op
counter (while a graph is built); an op seed alone pairs with TF's default graph seed. Each (op, dtype,
seed pair) is one Philox stream, as TF's cached kernel is: calling it again continues the stream (256
Philox calls reserved per value), and set_seed starts them over. Without any seed the stream is random.
categorical and shuffle use these seeds with NumPy's generator (their values are not TensorFlow's).
"""

from __future__ import annotations

import random as _python_random
import threading
import weakref

import numpy as np

from ..eager.execute import execute
from ..eager.convert import convert_to_tensor
from ..framework import dtypes, errors, graph_mode
from ..ops.philox import Stream
from . import check_numerics, math_ops

DEFAULT_GLOBAL_SEED = 87654321  # TF's DEFAULT_GRAPH_SEED
_MAXINT32 = 2**31 - 1
_lock = threading.Lock()
_global_seed = None
_op_seeds = None                                  # random.Random(global seed): eager op seeds, as TF's context
_graph_op_seeds = weakref.WeakKeyDictionary()    # graph -> its next op seed
_streams: dict = {}                              # (op, dtype, seeds) -> Stream: TF's eager kernel cache


def set_seed(seed) -> None:
    """Set the global seed: sequences of random ops after this call repeat across runs (TF's values)."""
    global _global_seed, _op_seeds
    with _lock:
        _global_seed = None if seed is None else int(seed)
        _op_seeds = None if seed is None else _python_random.Random(_global_seed)
        _streams.clear()
        _graph_op_seeds.clear()
        _calls.clear()


def get_global_generator_seed():
    """The global seed, or None."""
    return _global_seed


def get_seed(op_seed):
    """The (graph seed, op seed) pair a random op uses, by TF's rules; (None, None) when nothing is seeded."""
    with _lock:
        graph = graph_mode.active()
        if _global_seed is not None:
            if op_seed is None:
                if graph is None:
                    op_seed = _op_seeds.randint(0, _MAXINT32)
                else:
                    op_seed = _graph_op_seeds.get(graph, 0)
                    _graph_op_seeds[graph] = op_seed + 1
            seeds = (_global_seed % _MAXINT32, int(op_seed) % _MAXINT32)
        elif op_seed is not None:
            seeds = (DEFAULT_GLOBAL_SEED, int(op_seed) % _MAXINT32)
        elif check_numerics.op_determinism_enabled():
            raise RuntimeError("Random ops require a seed to be set when determinism is enabled. Please set a seed "
                               "before running the op, e.g. by calling tf.random.set_seed(1).")
        else:
            return None, None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _stream(op: str, dtype, seed) -> Stream:
    """The Philox stream of one random op: TF's cached kernel for an explicit op seed eagerly, a new one per op
    built into a graph (it continues across the graph's runs) or per call otherwise."""
    explicit = seed is not None
    seeds = get_seed(seed)
    if seeds == (None, None):
        return Stream.nondeterministic()
    if not explicit or graph_mode.active() is not None:
        return Stream(*seeds)
    with _lock:
        key = (op, dtypes.as_dtype(dtype).name, seeds)
        stream = _streams.get(key)
        if stream is None:
            stream = _streams[key] = Stream(*seeds)
        return stream


def _generator(seed) -> np.random.Generator:
    """A NumPy generator for the ops TF draws with other samplers (categorical, shuffle), seeded as they are."""
    seeds = get_seed(seed)
    if seeds == (None, None):
        return np.random.default_rng()
    return np.random.default_rng([seeds[0], seeds[1], _next_call(seeds)])  # each call draws anew, repeatably


_calls: dict = {}


def _next_call(seeds) -> int:
    with _lock:
        call = _calls.get(seeds, 0)
        _calls[seeds] = call + 1
        return call


def _shape(shape) -> tuple:
    from .array_ops import _ints
    dims = _ints(shape)
    for dim in dims:
        if dim < 0:
            raise errors.InvalidArgumentError(None, None, f"Dimension {dim} must be >= 0")
    return dims


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Values drawn uniformly from [minval, maxval) (maxval defaults to 1; required for integer dtypes)."""
    op = "RandomUniformInt" if dtypes.as_dtype(dtype).is_integer else "RandomUniform"
    return _draw_uniform(shape, minval, maxval, dtype, _stream(op, dtype, seed), name)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Values drawn from a normal distribution."""
    return _draw_normal("RandomStandardNormal", shape, mean, stddev, dtype,
                        _stream("RandomStandardNormal", dtype, seed), name)


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
    if not dtype.is_floating:  # TF converts mean (0.0) to the dtype first
        raise TypeError(f"Cannot convert {float(mean)!r} to EagerTensor of dtype {dtype.name}")
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
    return _draw_normal("TruncatedNormal", shape, mean, stddev, dtype, _stream("TruncatedNormal", dtype, seed), name)


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

def _attr_name(dtype) -> str:
    return {"float32": "float", "float64": "double", "float16": "half"}.get(dtype.name, dtype.name)


def _seed_tensor(seed):
    """The stateless seed as an int64 [2] tensor (it may be a traced tensor known only when the graph runs)."""
    from ..eager.convert import convert_to_tensor
    from . import math_ops
    from ..framework import build_errors
    tensor = convert_to_tensor(seed)
    if tensor.shape is not None and tuple(tensor.shape) != (2,):
        graph_text = f"Dimension must be 2 but is {tensor.shape[0]}" if len(tensor.shape) == 1 else \
            f"Shape must be rank 1 but is rank {len(tensor.shape)}"
        raise build_errors.invalid(graph_text, f"seed must have shape [2], not {list(tensor.shape)} "
                                               "[Op:StatelessRandomGetKeyCounter]")
    if not tensor.dtype.is_integer:
        raise build_errors.dtype_not_allowed("seed", tensor.dtype, ("int32", "int64"), (
            f"Value for attr 'Tseed' of {_attr_name(tensor.dtype)} is not in the list of allowed values: int32, "
            "int64"))
    return tensor if tensor.dtype == dtypes.int64 else math_ops.cast(tensor, dtypes.int64)


def _known(value) -> bool:
    """Whether a bound is known while building (a number, or a tensor with a static value)."""
    from .array_ops import get_static_value
    return isinstance(value, (int, float)) or get_static_value(value) is not None


def _float(value) -> float:
    from .array_ops import get_static_value
    return float(value) if isinstance(value, (int, float)) else float(get_static_value(value))


def _stateless_alg(alg) -> None:
    """The stateless ops' `alg`: Philox (or auto_select, which is Philox on CPU and GPU); ThreeFry is refused
    with TF 2.21's class (its CPU kernels reject it too), an unknown name with TF's ValueError."""
    value = alg.value if hasattr(alg, "value") else alg
    if isinstance(value, str):
        if value not in ("philox", "auto_select", "threefry"):
            raise ValueError(f"Argument `alg` got unsupported value {value}. Supported values are philox for the "
                             f"Philox algorithm, threefry for the ThreeFry algorithm, and auto_select for "
                             f"auto-selection.")
        value = {"philox": 1, "threefry": 2, "auto_select": 3}[value]
    if value not in (1, 2, 3):
        raise ValueError(f"Argument `alg` got unsupported value {alg}.")
    if value == 2:
        raise errors.InvalidArgumentError(None, None, "The ThreeFry algorithm (alg='threefry') is not implemented in "
                                                      "placeflow (TensorFlow 2.21's CPU kernels reject it too); use "
                                                      "alg='philox' or 'auto_select'.")


def _stateless_op(op, seed, shape, dtype, name, **attrs):
    dtype = dtypes.as_dtype(dtype)
    return execute(op, (_seed_tensor(seed),), dtype, dict(attrs, shape=_shape(shape), dtype=dtype), name=name)


def _scalar_bound(name: str, value) -> None:
    """TF's errors for an integer bound that is not a scalar: ValueError while a graph is built (the op's shape
    check), InvalidArgumentError eagerly (its kernel's)."""
    shape = getattr(value, "shape", None)
    if shape is None or len(shape) == 0:
        return
    dims = [None if d is None else int(d) for d in shape]
    if graph_mode.active() is not None:
        raise ValueError(f"{name} must be a scalar; got a tensor of shape {dims}")
    raise errors.InvalidArgumentError(None, None, f"{name} must be 0-D, got shape [{','.join(str(d) for d in dims)}] "
                                           "[Op:StatelessRandomUniformIntV2]")


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None, alg="auto_select"):
    """Uniform values determined by `seed` (two integers, or a tensor of them) alone: TF's Philox values."""
    _stateless_alg(alg)
    if dtypes.as_dtype(dtype).is_integer:
        if minval is None and maxval is None:  # TF: the whole range of the dtype
            return _stateless_op("StatelessRandomUniformFullIntV2", seed, shape, dtype, name)
        if maxval is None or minval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dtypes.as_dtype(dtype)!r}")
        _scalar_bound("minval", minval)
        _scalar_bound("maxval", maxval)
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
    _stateless_alg(alg)
    if _known(mean) and _known(stddev):
        return _stateless_op("StatelessRandomNormalV2", seed, shape, dtype, name, mean=_float(mean),
                             stddev=_float(stddev))
    unit = _stateless_op("StatelessRandomNormalV2", seed, shape, dtype, None, mean=0.0, stddev=1.0)
    mean, stddev = (math_ops.cast(convert_to_tensor(v), dtype) for v in (mean, stddev))
    return math_ops.add(unit * stddev, mean, name=name)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                               alg="auto_select"):
    """Truncated normal values determined by `seed` alone (see stateless_uniform)."""
    _stateless_alg(alg)
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


from .random_generator import (  # noqa: E402,F401 - tf.random's Philox generator
    Algorithm, Generator, create_rng_state, get_global_generator, set_global_generator,
)

from .nn_sampling import (  # noqa: E402,F401 - the candidate samplers (also under tf.nn)
    all_candidate_sampler, fixed_unigram_candidate_sampler, learned_unigram_candidate_sampler,
    log_uniform_candidate_sampler, uniform_candidate_sampler,
)


def split(seed, num=2, alg="auto_select"):
    """`num` new stateless seeds from `seed` (its dtype), as TF derives them."""
    _stateless_alg(alg)
    seed = convert_to_tensor(seed)
    return stateless_uniform([int(num), 2], seed=seed, dtype=seed.dtype, minval=None, maxval=None)


def fold_in(seed, data, alg="auto_select"):
    """A new stateless seed from `seed` and the integer `data`, as TF derives it."""
    _stateless_alg(alg)
    from .array_ops import stack
    data = convert_to_tensor(data)
    return stack([stateless_uniform([], seed=seed, dtype=data.dtype, minval=None, maxval=None), data])


def _experimental_namespace():
    import types
    module = types.ModuleType("placeflow.api.random.experimental",
                              "tf.random.experimental: the Philox Generator and the stateless seed helpers.")
    module.Algorithm, module.Generator, module.create_rng_state = Algorithm, Generator, create_rng_state
    module.get_global_generator, module.set_global_generator = get_global_generator, set_global_generator
    module.stateless_split, module.stateless_fold_in = split, fold_in
    return module


experimental = _experimental_namespace()

from .random_more import (  # noqa: E402,F401 - random_more.py
    gamma, poisson, stateless_parameterized_truncated_normal,
)
from .random_more import index_shuffle as _index_shuffle, stateless_shuffle as _stateless_shuffle  # noqa: E402
experimental.index_shuffle, experimental.stateless_shuffle = _index_shuffle, _stateless_shuffle
