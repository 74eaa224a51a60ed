"""TensorFlow's Philox-4x32-10 random streams, vectorized in NumPy, so that stateless random ops give TF's values.

A seed pair becomes a key and a 128-bit counter as TF's StatelessRandomGetKeyCounter makes them (the seed
scrambled by one Philox block); each Philox call (one counter value) gives four 32-bit words, and the
distributions turn words into values as TF's random_distributions.h does: uniform floats from the low
mantissa bits, doubles from two words, Box-Muller normals from pairs, truncated normals by rejection with
256 calls reserved per group of outputs, integers by a modulo of the range."""

from __future__ import annotations

import numpy as np

_W32A, _W32B = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)
_M4x32A, _M4x32B = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_MASK32 = np.uint64(0xFFFFFFFF)
_ROUNDS = 10
_RESERVED_PER_OUTPUT = 256


def philox(counters: np.ndarray, key) -> np.ndarray:
    """Philox-4x32-10 of each row of `counters` ((N, 4) words) under `key` (2 words): (N, 4) uint32."""
    c = [counters[:, i].astype(np.uint64) for i in range(4)]
    k0, k1 = np.uint64(int(key[0])), np.uint64(int(key[1]))
    for round_index in range(_ROUNDS):
        product0 = _M4x32A * c[0]
        product1 = _M4x32B * c[2]
        hi0, lo0 = product0 >> np.uint64(32), product0 & _MASK32
        hi1, lo1 = product1 >> np.uint64(32), product1 & _MASK32
        c = [hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0]
        if round_index < _ROUNDS - 1:
            k0, k1 = (k0 + _W32A) & _MASK32, (k1 + _W32B) & _MASK32
    return np.stack([x.astype(np.uint32) for x in c], axis=1)


def key_counter(seed) -> tuple:
    """(key, counter) of a stateless seed pair, as TF's StatelessRandomGetKeyCounter (Philox)."""
    seed0, seed1 = (int(v) & 0xFFFFFFFFFFFFFFFF for v in np.asarray(seed).reshape(-1)[:2])
    counter = np.array([[seed0 & 0xFFFFFFFF, seed0 >> 32, seed1 & 0xFFFFFFFF, seed1 >> 32]], dtype=np.uint32)
    mix = philox(counter, (0x3EC8F720, 0x02461E29))[0]
    return (int(mix[0]), int(mix[1])), (0, 0, int(mix[2]), int(mix[3]))


def from_state(state) -> tuple:
    """(key, counter) of a tf.random.Generator state [counter low, counter high, key] (int64 words)."""
    words = [int(v) & 0xFFFFFFFFFFFFFFFF for v in np.asarray(state).reshape(-1)[:3]]
    counter = (words[0] & 0xFFFFFFFF, words[0] >> 32, words[1] & 0xFFFFFFFF, words[1] >> 32)
    return (words[2] & 0xFFFFFFFF, words[2] >> 32), counter


def _counters(counter, start: int, count: int) -> np.ndarray:
    """`count` consecutive 128-bit counters from `counter` skipped by `start` ((count, 4) words)."""
    return _counters_at(counter, start, np.arange(count, dtype=np.uint64))


def _counters_at(counter, start: int, offsets: np.ndarray) -> np.ndarray:
    """The counters `counter` + `start` + each of `offsets` (uint64), as (len, 4) words."""
    total = (int(counter[0]) | int(counter[1]) << 32 | int(counter[2]) << 64 | int(counter[3]) << 96) + start
    base_low, base_high = total & 0xFFFFFFFFFFFFFFFF, (total >> 64) & 0xFFFFFFFFFFFFFFFF
    with np.errstate(over="ignore"):
        lows = np.uint64(base_low) + offsets.astype(np.uint64)
        highs = np.uint64(base_high) + (lows < np.uint64(base_low)).astype(np.uint64)  # the carry of a wrap
    rows = np.empty((len(offsets), 4), dtype=np.uint32)
    rows[:, 0], rows[:, 1] = (lows & _MASK32).astype(np.uint32), (lows >> np.uint64(32)).astype(np.uint32)
    rows[:, 2], rows[:, 3] = (highs & _MASK32).astype(np.uint32), (highs >> np.uint64(32)).astype(np.uint32)
    return rows


def words(key, counter, calls: int, start: int = 0) -> np.ndarray:
    """The (calls, 4) words of `calls` Philox calls from the counter skipped by `start` calls."""
    return philox(_counters(counter, start, calls), key)


def _groups(count: int, per_call: int) -> int:
    return -(-count // per_call)


def _float_from_bits(bits: np.ndarray) -> np.ndarray:
    return ((bits & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32) - np.float32(1.0)


def _double_from_bits(high: np.ndarray, low: np.ndarray) -> np.ndarray:
    mantissa = ((high & np.uint32(0xFFFFF)).astype(np.uint64) << np.uint64(32)) | low.astype(np.uint64)
    return (mantissa | np.uint64(1023 << 52)).view(np.float64) - 1.0


def _half_from_bits(bits: np.ndarray, dtype) -> np.ndarray:
    if dtype.name == "float16":
        value = ((bits & np.uint32(0x3FF)) | np.uint32(15 << 10)).astype(np.uint16).view(np.float16)
        return value - np.float16(1.0)
    value = ((bits & np.uint32(0x7F)) | np.uint32(127 << 7)).astype(np.uint16).view(dtype.numpy_dtype)
    return value - dtype.numpy_dtype.type(1.0)


def uniform(key, counter, count: int, dtype) -> np.ndarray:
    """`count` values in [0, 1) of `dtype` (float16/bfloat16/float32/float64), as TF's UniformDistribution."""
    if dtype.name == "float64":
        block = words(key, counter, _groups(count, 2)).reshape(-1, 2)
        return _double_from_bits(block[:, 0], block[:, 1])[:count]
    block = words(key, counter, _groups(count, 4)).reshape(-1)[:count]
    if dtype.name == "float32":
        return _float_from_bits(block)
    return _half_from_bits(block, dtype)


def _box_muller_float(x0: np.ndarray, x1: np.ndarray) -> tuple:
    u1 = np.maximum(_float_from_bits(x0), np.float32(1.0e-7))
    v1 = (2.0 * np.pi * _float_from_bits(x1).astype(np.float64)).astype(np.float32)  # C++: float * double M_PI
    # glibc's logf/sinf/cosf round correctly: the double result rounded to float is theirs (NumPy's float32
    # SIMD versions may be an ulp off)
    log = np.log(u1.astype(np.float64)).astype(np.float32)
    u2 = np.sqrt(np.float32(-2.0) * log)
    wide = v1.astype(np.float64)
    return np.sin(wide).astype(np.float32) * u2, np.cos(wide).astype(np.float32) * u2


def _box_muller_double(x0, x1, x2, x3) -> tuple:
    u1 = np.maximum(_double_from_bits(x0, x1), 1.0e-7)
    v1 = 2.0 * np.pi * _double_from_bits(x2, x3)
    u2 = np.sqrt(-2.0 * np.log(u1))
    return np.sin(v1) * u2, np.cos(v1) * u2


def normal(key, counter, count: int, dtype) -> np.ndarray:
    """`count` standard normal values of `dtype`, as TF's NormalDistribution (Box-Muller)."""
    if dtype.name == "float64":
        block = words(key, counter, _groups(count, 2))
        first, second = _box_muller_double(block[:, 0], block[:, 1], block[:, 2], block[:, 3])
        return np.stack([first, second], axis=1).reshape(-1)[:count]
    block = words(key, counter, _groups(count, 4))
    pairs = [_box_muller_float(block[:, 0], block[:, 1]), _box_muller_float(block[:, 2], block[:, 3])]
    out = np.stack([pairs[0][0], pairs[0][1], pairs[1][0], pairs[1][1]], axis=1).reshape(-1)[:count]
    return out if dtype.name == "float32" else out.astype(dtype.numpy_dtype)


def truncated_normal(key, counter, count: int, dtype) -> np.ndarray:
    """`count` standard normal values within two standard deviations, as TF's TruncatedNormalDistribution:
    each group of outputs (4 floats, or 2 doubles) draws from its own run of 256 reserved Philox calls,
    taking Box-Muller values in order and rejecting those beyond 2. All groups draw their k-th call together."""
    double = dtype.name == "float64"
    per_group = 2 if double else 4
    groups = _groups(count, per_group)
    skip = per_group * _RESERVED_PER_OUTPUT // 4
    out = np.empty((groups, per_group), dtype=np.float64 if double else np.float32)
    filled = np.zeros(groups, dtype=np.int64)
    pending = np.arange(groups, dtype=np.int64)
    call = 0
    while pending.size:
        block = philox(_counters_at(counter, call, pending.astype(np.uint64) * np.uint64(skip)), key)
        if double:
            candidates = np.stack(_box_muller_double(block[:, 0], block[:, 1], block[:, 2], block[:, 3]), axis=1)
        else:
            first, second = _box_muller_float(block[:, 0], block[:, 1]), _box_muller_float(block[:, 2], block[:, 3])
            candidates = np.stack([first[0], first[1], second[0], second[1]], axis=1)
        for column in range(candidates.shape[1]):
            take = (np.abs(candidates[:, column]) < 2.0) & (filled[pending] < per_group)
            rows = pending[take]
            out[rows, filled[rows]] = candidates[take, column]
            filled[rows] += 1
        pending = pending[filled[pending] < per_group]
        call += 1
    out = out.reshape(-1)[:count]
    return out if dtype.name in ("float32", "float64") else out.astype(dtype.numpy_dtype)


def uniform_int(key, counter, count: int, low: int, high: int, dtype) -> np.ndarray:
    """`count` integers in [low, high) of int32/int64, as TF's UniformDistribution for integers (a modulo)."""
    span = (high - low) & (0xFFFFFFFF if dtype.name == "int32" else 0xFFFFFFFFFFFFFFFF)
    if dtype.name == "int32":
        bits = words(key, counter, _groups(count, 4)).reshape(-1)[:count].astype(np.uint64)
        drawn = (bits % np.uint64(span)).astype(np.int64) + low
        return drawn.astype(np.int32)
    block = words(key, counter, _groups(count, 2)).reshape(-1, 2)[:count]
    bits = block[:, 0].astype(np.uint64) | (block[:, 1].astype(np.uint64) << np.uint64(32))
    offsets = bits % np.uint64(span)
    with np.errstate(over="ignore"):  # TF's SignedAdd: the sum wraps in 64 bits
        return (offsets + np.uint64(low & 0xFFFFFFFFFFFFFFFF)).view(np.int64)


def full_int(key, counter, count: int, dtype) -> np.ndarray:
    """`count` integers over every value of the dtype (StatelessRandomUniformFullInt)."""
    if dtype.name in ("int32", "uint32"):
        return words(key, counter, _groups(count, 4)).reshape(-1)[:count].view(dtype.numpy_dtype)
    block = words(key, counter, _groups(count, 2)).reshape(-1, 2)[:count]
    bits = block[:, 0].astype(np.uint64) | (block[:, 1].astype(np.uint64) << np.uint64(32))
    return bits.view(dtype.numpy_dtype)


def categorical(key, counter, logits: np.ndarray, num_samples: int) -> np.ndarray:
    """[batch, num_samples] int64 class indices as TF's CPU Multinomial kernel draws them (in one shard, which is
    how TF runs batches whose estimated cost is under its sharding threshold): per row the unnormalized CDF of
    exp(logit - max finite logit) in doubles over the finite logits, and per sample one double from two
    consecutive words, scaled by the row's total and placed by upper_bound."""
    batch, classes = logits.shape
    out = np.empty((batch, num_samples), dtype=np.int64)
    if out.size == 0:
        return out
    count = batch * num_samples * 2
    pairs = words(key, counter, _groups(count, 4)).reshape(-1)[:count].reshape(-1, 2)
    draws = _double_from_bits(pairs[:, 0], pairs[:, 1]).reshape(batch, num_samples)
    lowest = np.finfo(logits.dtype).min if logits.dtype.kind == "f" else float(np.finfo(np.float64).min)
    for row in range(batch):
        values = logits[row]
        finite = np.isfinite(values)
        top = float(values[finite].max()) if finite.any() else float(lowest)
        with np.errstate(over="ignore", invalid="ignore"):
            weights = np.exp(values.astype(np.float64) - top)
        cdf = np.cumsum(np.where(finite, weights, 0.0))
        out[row] = np.searchsorted(cdf, draws[row] * cdf[-1], side="right")
    return out


class Stream:
    """The Philox stream of one stateful random op (TF's GuardedPhiloxRandom): its key and counter come from the
    op's seed pair, and each run reserves 256 Philox calls per value it draws."""

    def __init__(self, seed: int, seed2: int):
        import threading
        self._key = (seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF)
        self._counter = (0, 0, seed2 & 0xFFFFFFFF, (seed2 >> 32) & 0xFFFFFFFF)
        self._lock = threading.Lock()

    @classmethod
    def nondeterministic(cls) -> "Stream":
        """A stream from the operating system's entropy (TF's seeds 0, 0)."""
        seed, seed2 = (int(v) for v in np.random.SeedSequence().generate_state(2, np.uint64))
        return cls(seed, seed2)

    def reserve(self, values: int) -> tuple:
        """(key, counter) to draw `values` values from; the stream moves past them."""
        with self._lock:
            key, counter = self._key, self._counter
            self._counter = tuple(_counters(counter, 256 * int(values), 1)[0].tolist())
        return key, counter
