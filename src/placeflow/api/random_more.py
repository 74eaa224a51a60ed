"""More of tf.random: gamma and poisson (stateful: TensorFlow's values from their op's Philox stream, seeded as the
other tf.random ops), stateless_parameterized_truncated_normal (the inverse CDF of Philox uniforms: not
TensorFlow's values), experimental.stateless_shuffle (TensorFlow's values) and experimental.index_shuffle (a Philox
Feistel permutation: not TensorFlow's permutation)."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import build_errors, dtypes, errors
from . import math_ops
from .random import _seed_tensor, _shape, _stream

_INDEX_SEED_PAD = 498247692   # the word TF puts before a [2] seed to make index_shuffle's [3] key


def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """Gamma(alpha, beta) samples of shape `shape` + broadcast(alpha, beta).shape (beta is the rate; 1 when
    None); differentiable with respect to alpha (implicit reparameterization) and beta."""
    from .array_ops import zeros_like
    dtype = dtypes.as_dtype(dtype)
    alpha = convert_to_tensor(alpha, dtype=dtype)
    if beta is None:
        return execute("RandomGamma", (alpha,), dtype, _gamma_attrs(shape, dtype, seed), name=name)
    beta = convert_to_tensor(beta, dtype=dtype)
    alpha = alpha + zeros_like(beta)   # TF broadcasts alpha to the parameters' shape
    draws = execute("RandomGamma", (alpha,), dtype, _gamma_attrs(shape, dtype, seed))
    return math_ops.maximum(np.finfo(dtype.numpy_dtype).tiny, draws / beta, name=name)


def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    """Poisson(lam) counts of shape `shape` + lam.shape, in `dtype` (0 where lam <= 0)."""
    dtype = dtypes.as_dtype(dtype)
    rate = convert_to_tensor(lam, dtype_hint=dtypes.float32)
    if rate.dtype not in (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'R' of {rate.dtype.name} is not in the list "
                                                      "of allowed values: half, float, double, int32, int64; "
                                                      "cast lam to one of them.")
    stream = _stream(f"RandomPoissonV2/{rate.dtype.name}", dtype, seed)   # TF caches a kernel per rate dtype too
    attrs = {"shape": _shape(shape), "dtype": dtype, "generator": stream}
    return execute("RandomPoissonV2", (rate,), dtype, attrs, name=name)


def _gamma_attrs(shape, dtype, seed) -> dict:
    return {"shape": _shape(shape), "dtype": dtype, "generator": _stream("RandomGamma", dtype, seed)}


def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0, minvals=-2.0, maxvals=2.0,
                                             name=None):
    """Normal(means, stddevs) samples restricted to [minvals, maxvals], determined by `seed` (the parameters
    broadcast to the end of `shape`). Not TensorFlow's samples: the same seed repeats placeflow's."""
    params = [convert_to_tensor(p) for p in (means, stddevs, minvals, maxvals)]
    dtype = params[0].dtype
    _check_float("StatelessParameterizedTruncatedNormal", dtype)
    for position, (param, what) in enumerate(zip(params[1:], ("stddevs", "minvals", "maxvals")), start=3):
        if param.dtype != dtype:
            raise build_errors.input_type_mismatch(
                "StatelessParameterizedTruncatedNormal", what, param.dtype, dtype,
                f"cannot compute StatelessParameterizedTruncatedNormal as input #{position}(zero-based) was expected "
                f"to be a {_c_name(dtype)} tensor but is a {_c_name(param.dtype)} tensor; give means, stddevs, "
                "minvals and maxvals one dtype.", of_argument="means")
    return execute("StatelessParameterizedTruncatedNormal", (_seed_tensor(seed), *params), dtype,
                   {"shape": _shape(shape), "dtype": dtype}, name=name)


def _c_name(dtype) -> str:
    return {"float32": "float", "float64": "double", "float16": "half"}.get(dtype.name, dtype.name)


def _check_float(op, dtype, parameter="means"):
    if dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
        raise build_errors.dtype_not_allowed(parameter, dtype, ("float16", "float32", "float64"), (
            f"Value for attr 'dtype' of {_c_name(dtype)} is not in the list of allowed values: half, float, double "
            f"(op {op}); pass floating-point parameters."))


def stateless_shuffle(value, seed, alg="auto_select", name=None):
    """`value` with its first dimension shuffled as determined by `seed` (TensorFlow's permutation)."""
    _philox_only(alg)
    tensor = convert_to_tensor(value)
    return execute("StatelessShuffle", (tensor, _seed_tensor(seed)), tensor.dtype, {}, name=name)


def _philox_only(alg):
    from .random_generator import Algorithm
    known = {"auto_select": 3, "philox": 1, "threefry": 2}
    value = alg.value if isinstance(alg, Algorithm) else known.get(alg.lower(), alg) if isinstance(alg, str) else alg
    if value == 2:
        raise errors.InvalidArgumentError(None, None, "counter must be a vector with length at least 2; got shape: "
                                                      "[1]: TensorFlow 2.21's StatelessShuffle rejects the ThreeFry "
                                                      "algorithm; use alg='philox' or 'auto_select'.")
    if value not in (1, 3):
        raise ValueError(f"Unsupported algorithm id: {alg}; use 'philox', 'auto_select' or a tf.random.Algorithm.")


_INDEX_DTYPES = (dtypes.int32, dtypes.uint32, dtypes.int64, dtypes.uint64)


def index_shuffle(index, seed, max_index):
    """The position of `index` in the permutation of [0, max_index] that `seed` (two integers) determines.
    placeflow's permutation (a Philox Feistel network), not TensorFlow's: the same seed repeats placeflow's."""
    from .array_ops import concat
    seed = _index_seed(seed)
    if seed.shape is not None and tuple(seed.shape) != (2,):
        padded = [int(seed.shape[0]) + 1] + [int(s) for s in seed.shape[1:]] if len(seed.shape) else [1]
        raise build_errors.invalid(
            f"Seed must have shape [3] or [n, 3] but got [{','.join(str(d) for d in padded)}].",
            f"Seed must be a vector of size [3] or a matrix of size [n, 3] but got {padded}: TensorFlow 2.21 pads a "
            "[2] seed to [3] and accepts no other; pass one seed of two integers.")
    key = concat([convert_to_tensor([_INDEX_SEED_PAD], seed.dtype), seed], 0)
    return random_index_shuffle(index, key, max_index, rounds=4)


def random_index_shuffle(index, seed, max_index, rounds=4, name=None):
    """The raw op RandomIndexShuffle: each index's position in the permutation of [0, max_index] that the [3]
    seed (or one [3] row per index) determines, by `rounds` Feistel rounds. Not TensorFlow's permutation."""
    index, max_index = _index_pair(index, max_index)
    seed = _index_seed(seed)
    for what, tensor in (("index", index), ("max_index", max_index)):
        if tensor.shape is not None and len(tensor.shape) > 1:
            raise build_errors.invalid(f"Shape must be at most rank 1 but is rank {len(tensor.shape)}",
                                       f"{what} must be a scalar or vector, not of shape {list(tensor.shape)}.")
    if seed.shape is not None and (len(seed.shape) not in (1, 2) or seed.shape[-1] != 3):
        raise build_errors.invalid(
            f"Seed must have shape [3] or [n, 3] but got [{','.join(str(d) for d in seed.shape)}].",
            f"Seed must be a vector of size [3] or a matrix of size [n, 3] but got {list(seed.shape)}.")
    if int(rounds) < 0:   # TensorFlow 2.21 aborts the process here
        raise errors.InvalidArgumentError(None, None, f"rounds must be >= 0, not {rounds}.")
    return execute("RandomIndexShuffle", (index, math_ops.cast(seed, dtypes.int64), max_index), index.dtype,
                   {"rounds": int(rounds)}, name=name)


def _index_seed(seed):
    seed = convert_to_tensor(seed)
    if seed.dtype not in _INDEX_DTYPES:
        raise build_errors.dtype_not_allowed("seed", seed.dtype, _INDEX_DTYPES, (
            f"Value for attr 'Tseed' of {_c_name(seed.dtype)} is not in the list of allowed values: int32, uint32, "
            "int64, uint64; pass integer seeds."))
    return seed


def _index_pair(index, max_index):
    """index and max_index as tensors of one integer dtype (a Python number takes the other's dtype)."""
    from ..framework.tensor_types import Tensor
    if not isinstance(index, Tensor) and isinstance(max_index, Tensor):
        max_index = convert_to_tensor(max_index)
        index = convert_to_tensor(index) if build_errors.building() else convert_to_tensor(index, max_index.dtype)
        if index.dtype != max_index.dtype:  # TF's graph builder types `index` first, as a Python number does alone
            raise build_errors.input_type_mismatch("RandomIndexShuffle", "max_index", max_index.dtype, index.dtype,
                                                   "", of_argument="index")
    else:
        index = convert_to_tensor(index)
        max_index = convert_to_tensor(max_index, dtype=index.dtype)
    if index.dtype not in _INDEX_DTYPES:
        raise build_errors.dtype_not_allowed("index", index.dtype, _INDEX_DTYPES, (
            f"Value for attr 'dtype' of {_c_name(index.dtype)} is not in the list of allowed values: int32, uint32, "
            "int64, uint64; pass integer indices."))
    return index, max_index
