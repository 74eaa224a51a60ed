"""More random kernels: the stateful gamma and Poisson samplers (TensorFlow's values from the op's Philox stream)
with gamma's implicit-reparameterization gradient (RandomGammaGrad, TensorFlow's values), the stateless shuffle
(TensorFlow's values: a forward Fisher-Yates shuffle taking one Philox 32-bit word per swap), the index shuffle
(a Philox Feistel permutation: not TensorFlow's), the parameterized truncated normal (the inverse CDF of Philox
uniforms: not TensorFlow's values; its gradient is the implicit-reparameterization one) and the Sobol sequence
(TensorFlow's values, Joe-Kuo directions)."""

import math

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError, UnimplementedError
from . import philox
from . import shape_rules as rules
from .emit import emit, reduce_sum
from .registry import ANY, FLOATS, NOT_DIFFERENTIABLE, define, no_gradient_registered, no_gradient_yet, \
    presize_from_attrs
from .special import lgamma
from .special_incomplete import igamma_grad_a, igamma_partial_x


def _host(array) -> np.ndarray:
    return array.get() if hasattr(array, "get") else np.asarray(array)


def _sampled_shape(shapes, attrs):
    """The sample shape followed by the parameter's shape."""
    return None if shapes[0] is None else tuple(attrs["shape"]) + tuple(shapes[0])


def _checked_samples(shape, parameters: np.ndarray) -> int:
    """The number of samples per parameter (the product of `shape`), after checking that the output's size,
    `shape` followed by the parameters' shape, fits in int64 (TF's message when it does not)."""
    size = 1
    for dim in (*(int(n) for n in shape), *parameters.shape):
        if dim and size > (2 ** 63 - 1) // dim:
            raise InvalidArgumentError(None, None, f"Encountered overflow when multiplying {size} with {dim}, "
                                                   f"result: -1; the output shape {list(shape)} + "
                                                   f"{list(parameters.shape)} has more than 2**63 - 1 elements.")
        size *= dim
    return int(np.prod(shape, dtype=np.int64))


# -- gamma --------------------------------------------------------------------------------------------------

def _gamma_grad(e, g):
    """d sample / d alpha by implicit reparameterization, summed over the sample dimensions."""
    alpha, sample = e.inputs[0], e.outputs[0]
    partial = emit("RandomGammaGrad", (alpha, sample), alpha.dtype)
    return [reduce_sum(g * partial, axis=list(range(len(e.attrs["shape"]))))]


class _Draws:
    """Per-output Philox generators drawn in lockstep: output i starts 256 * i calls into its op's stream and keeps
    a buffer of two doubles per kind (uniform, normal), handed out last first, refilled by one Philox call each."""

    def __init__(self, key, counter, count: int):
        self._key, self._counter = key, counter
        self._calls = np.arange(count, dtype=np.uint64) * np.uint64(256)
        self._buffers = {kind: (np.zeros((count, 2)), np.zeros(count, np.int64)) for kind in ("uniform", "normal")}

    def take(self, kind: str, rows: np.ndarray) -> np.ndarray:
        """The next value of `kind` ("uniform" in [0, 1) or "normal") for each output in `rows`."""
        values, left = self._buffers[kind]
        empty = rows[left[rows] == 0]
        if empty.size:
            block = philox.philox(philox._counters_at(self._counter, 0, self._calls[empty]), self._key)
            self._calls[empty] += np.uint64(1)
            if kind == "uniform":
                pair = (philox._double_from_bits(block[:, 0], block[:, 1]),
                        philox._double_from_bits(block[:, 2], block[:, 3]))
            else:
                pair = philox._box_muller_double(block[:, 0], block[:, 1], block[:, 2], block[:, 3])
            values[empty, 0], values[empty, 1] = pair
            left[empty] = 2
        left[rows] -= 1
        return values[rows, left[rows]]


def gamma_samples(key, counter, alpha: np.ndarray, samples: int) -> np.ndarray:
    """[samples, len(alpha)] Gamma(alpha, 1) values as TF's RandomGamma draws them: exponentials -log1p(-u) for
    alpha = 1, else Marsaglia and Tsang's method (alpha + 1 and a factor u^(1/alpha) below 1); output
    (alpha j, sample s) is stream output j * samples + s. 0 for alpha = 0, NaN for alpha < 0 or NaN."""
    flat = np.repeat(alpha.astype(np.float64), samples)     # output order: alpha-major
    draws = _Draws(key, counter, flat.size)
    out = np.full(flat.size, np.nan)
    out[flat == 0] = 0.0
    ones = np.flatnonzero(flat == 1.0)
    out[ones] = -np.log1p(-draws.take("uniform", ones))
    rows = np.flatnonzero((flat > 0) & (flat != 1.0))
    boosted = flat[rows] < 1.0
    d = np.where(boosted, flat[rows] + 1.0, flat[rows]) - 1.0 / 3.0
    c = 1.0 / np.sqrt(9.0 * d)
    pending = np.ones(rows.size, bool)
    while pending.any():
        at = np.flatnonzero(pending)
        x = draws.take("normal", rows[at])
        v = 1.0 + c[at] * x
        positive = v > 0
        at, x, v = at[positive], x[positive], v[positive] ** 3
        u = draws.take("uniform", rows[at])
        with np.errstate(all="ignore"):
            accept = (u < 1.0 - 0.0331 * x ** 4) | (np.log(u) < 0.5 * x * x + d[at] * (1.0 - v + np.log(v)))
        out[rows[at[accept]]] = d[at[accept]] * v[accept]
        pending[at[accept]] = False
    small = rows[boosted]
    if small.size:
        out[small] *= draws.take("uniform", small) ** (1.0 / flat[small])
    return out.reshape(alpha.size, samples).T


@define("RandomGamma", FLOATS, shape=_sampled_shape, grad=_gamma_grad, gpu=())
def _random_gamma(xp, alpha, shape, dtype, generator):
    """Gamma(alpha, 1) samples of shape `shape` + alpha's shape from the op's Philox stream (TensorFlow's values),
    at least the dtype's smallest normal number (as TF's wrapper clamps them); NaN for alpha < 0."""
    concentration = _host(alpha).astype(np.float64)
    samples = _checked_samples(shape, concentration)
    key, counter = generator.reserve(samples * concentration.size)
    drawn = gamma_samples(key, counter, concentration.reshape(-1), samples).astype(dtype.numpy_dtype)
    with np.errstate(invalid="ignore"):
        out = np.where(np.isnan(drawn), drawn, np.maximum(drawn, np.finfo(dtype.numpy_dtype).tiny))
    return xp.asarray(out.reshape(tuple(shape) + tuple(concentration.shape)))


def random_gamma_grad(alpha: np.ndarray, sample: np.ndarray) -> np.ndarray:
    """d sample / d alpha of a Gamma(alpha, 1) sample: -(dP(alpha, x)/d alpha) / (dP(alpha, x)/dx)."""
    with np.errstate(all="ignore"):
        return -igamma_grad_a(alpha, sample) / igamma_partial_x(alpha, sample)


@define("RandomGammaGrad", FLOATS, shape=rules.broadcast, grad=no_gradient_registered("RandomGammaGrad"))
def _random_gamma_grad(xp, alpha, sample):
    """The derivative of Gamma(alpha, 1) samples with respect to alpha (broadcast)."""
    partial = random_gamma_grad(_host(alpha).astype(np.float64), _host(sample).astype(np.float64))
    return xp.asarray(np.asarray(partial).astype(_host(alpha).dtype))


# -- poisson ------------------------------------------------------------------------------------------------

_KNUTH_BELOW = 10.0   # smaller rates multiply uniforms (Knuth); larger ones use Hormann's transformed rejection


def poisson_samples(key, counter, rate: np.ndarray, samples: int) -> np.ndarray:
    """[samples, len(rate)] Poisson(rate) counts as TF's RandomPoissonV2 draws them (output (rate j, sample s) is
    stream output j * samples + s): products of uniforms until below exp(-rate) for rates under 10, else
    Hormann's PTRS (transformed rejection with squeeze, his constants). 0 where the rate is not positive."""
    flat = np.repeat(rate.astype(np.float64), samples)
    draws = _Draws(key, counter, flat.size)
    out = np.zeros(flat.size)
    with np.errstate(invalid="ignore"):
        small, large = np.flatnonzero(~(flat >= _KNUTH_BELOW)), np.flatnonzero(flat >= _KNUTH_BELOW)
    out[small] = _knuth(draws, small, flat[small])
    out[large] = _ptrs(draws, large, flat[large])
    return out.reshape(rate.size, samples).T


def _knuth(draws, rows, rate):
    limit, product, count = np.exp(-rate), np.ones(rows.size), np.zeros(rows.size)
    pending = np.ones(rows.size, bool)
    while pending.any():
        at = np.flatnonzero(pending)
        product[at] *= draws.take("uniform", rows[at])
        done = product[at] <= limit[at]
        pending[at[done]] = False
        count[at[~done]] += 1
    return count


def _ptrs(draws, rows, rate):
    b = 0.931 + 2.53 * np.sqrt(rate)
    a, inv_alpha, vr = -0.059 + 0.02483 * b, 1.1239 + 1.1328 / (b - 3.4), 0.9277 - 3.6224 / (b - 2.0)
    out, pending = np.zeros(rows.size), np.ones(rows.size, bool)
    while pending.any():
        at = np.flatnonzero(pending)
        u = draws.take("uniform", rows[at]) - 0.5
        v = draws.take("uniform", rows[at])
        shifted = 0.5 - np.abs(u)
        k = np.floor((2.0 * a[at] / shifted + b[at]) * u + rate[at] + 0.43)
        quick = (shifted >= 0.07) & (v <= vr[at])
        with np.errstate(all="ignore"):
            s = np.log(v * inv_alpha[at] / (a[at] / (shifted * shifted) + b[at]))
            t = -rate[at] + k * np.log(rate[at]) - lgamma(np.maximum(k, 0.0) + 1.0)
        tested = ~quick & ~((k < 0) | ((shifted < 0.013) & (v > shifted))) & (s <= t)
        accept = quick | tested
        out[at[accept]] = k[accept]
        pending[at[accept]] = False
    return out


@define("RandomPoissonV2", FLOATS | {d.int32, d.int64}, shape=_sampled_shape, gpu=(),
        grad=no_gradient_registered("RandomPoissonV2"))
def _random_poisson(xp, rate, shape, dtype, generator):
    """Poisson(rate) counts of shape `shape` + rate's shape in `dtype` from the op's Philox stream (TensorFlow's
    values); 0 where the rate is not positive."""
    rates = _host(rate).astype(np.float64)
    samples = _checked_samples(shape, rates)
    if np.any(np.isinf(rates)) or np.any(np.isnan(rates)):
        raise InvalidArgumentError(None, None, f"poisson rates must be finite, got {rates[~np.isfinite(rates)][0]}; "
                                               "pass finite rates.")
    key, counter = generator.reserve(samples * rates.size)
    drawn = poisson_samples(key, counter, rates.reshape(-1), samples)
    return xp.asarray(drawn.astype(dtype.numpy_dtype).reshape(tuple(shape) + tuple(rates.shape)))


# -- the stateless shuffle: TensorFlow's values ---------------------------------------------------------------

@define("StatelessShuffle", ANY, shape=lambda shapes, attrs: shapes[0], gpu=(),
        grad=no_gradient_registered("StatelessShuffle"))
def _stateless_shuffle(xp, value, seed):
    """`value` with its first dimension permuted by TF's forward Fisher-Yates walk: position i swaps with
    i + word % (n - i), one Philox 32-bit word per step, from the seed's key and counter."""
    if value.ndim == 0 or value.shape[0] < 2:
        return value.copy()
    n = int(value.shape[0])
    if n >= 2**32:
        raise NotImplementedError(f"StatelessShuffle of {n} rows is not implemented in placeflow (TF draws 64-bit "
                                  "words above 2**32 - 1 rows); shuffle at most 4294967295 rows.")
    key, counter = philox.key_counter(_host(seed))
    words = philox.words(key, counter, -(-(n - 1) // 4)).reshape(-1)[:n - 1].astype(np.uint64)
    spans = np.arange(n, 1, -1, dtype=np.uint64)
    order = np.arange(n)
    for i, target in enumerate((np.arange(n - 1, dtype=np.uint64) + words % spans).tolist()):
        order[i], order[target] = order[target], order[i]
    return value[xp.asarray(order)]


# -- the index shuffle: a Feistel permutation on Philox words (not TensorFlow's) -----------------------------

def _feistel(values: np.ndarray, key_words, half_bits: int, rounds: int) -> np.ndarray:
    """A balanced Feistel network on 2 * half_bits bits, each round function one Philox block of (half, round)."""
    mask = np.uint64((1 << half_bits) - 1)
    left, right = values >> np.uint64(half_bits), values & mask
    for round_index in range(rounds):
        counters = np.zeros((len(values), 4), np.uint32)
        counters[:, 0] = right.astype(np.uint32)
        counters[:, 1] = np.uint32(round_index)
        counters[:, 2] = np.uint32(key_words[2])
        mixed = philox.philox(counters, key_words[:2])[:, 0].astype(np.uint64) & mask
        left, right = right, left ^ mixed
    return (left << np.uint64(half_bits)) | right


def index_shuffle(index: np.ndarray, seed: np.ndarray, max_index: np.ndarray, rounds: int) -> np.ndarray:
    """The position of each index in the seed's permutation of [0, max_index] (cycle walking on a Feistel
    permutation of the next even power of two)."""
    out = np.empty(index.shape, np.uint64)
    for i in np.ndindex(index.shape):
        top = int(max_index[i])
        bits = max(2, (top).bit_length() + (top).bit_length() % 2)
        key_words = [int(w) & 0xFFFFFFFF for w in seed[i]]
        value = np.array([int(index[i])], np.uint64)
        value = _feistel(value, key_words, bits // 2, rounds)
        while int(value[0]) > top:
            value = _feistel(value, key_words, bits // 2, rounds)
        out[i] = value[0]
    return out


def _index_shuffle_shape(shapes, attrs):
    """index, max_index and the seed's rows broadcast (a [3] seed is one row for all)."""
    index, seed, top = shapes
    return rules.broadcast([index, top, None if seed is None else tuple(seed[:-1])])


@define("RandomIndexShuffle", {d.int32, d.uint32, d.int64, d.uint64}, shape=_index_shuffle_shape, gpu=(),
        grad=NOT_DIFFERENTIABLE)
def _random_index_shuffle(xp, index, seed, max_index, rounds):
    """Each index's position in the seed's permutation of [0, max_index] (index, max_index and the seed's rows
    broadcast against each other)."""
    indices, tops, seeds = _host(index), _host(max_index), _host(seed)
    try:
        shape = np.broadcast_shapes(indices.shape, tops.shape, seeds.shape[:-1])
    except ValueError:
        raise InvalidArgumentError(None, None, f"index {list(indices.shape)}, max_index {list(tops.shape)} and seed "
                                               f"{list(seeds.shape)} disagree on the batch size: give vectors one "
                                               "length (or scalars and a [3] seed).") from None
    indices, tops = np.broadcast_to(indices, shape), np.broadcast_to(tops, shape)
    seeds = np.broadcast_to(seeds, shape + (3,))
    if np.any(tops < 0):
        raise InvalidArgumentError(None, None, f"max_index must be >= 0 but was {tops[tops < 0].reshape(-1)[0]}")
    if np.any(indices > tops) or np.any(indices < 0):
        bad = np.argmax(((indices > tops) | (indices < 0)).reshape(-1))
        raise InvalidArgumentError(None, None, f"max_index must be >= index, but {tops.reshape(-1)[bad]} < "
                                               f"{indices.reshape(-1)[bad]}: pass indices in [0, max_index].")
    return xp.asarray(index_shuffle(indices, seeds, tops, rounds).astype(indices.dtype))


# -- the parameterized truncated normal: inverse CDF of Philox uniforms (not TensorFlow's values) --------------

_erfc = np.vectorize(math.erfc, otypes=[np.float64])
_TAIL_LIMIT = 37.0   # Q(x) = P(N > x) is representable (> 0) below about 37.5


def _upper(x: np.ndarray) -> np.ndarray:
    """Q(x) = P(N(0, 1) > x), accurate in the upper tail."""
    return 0.5 * _erfc(np.asarray(x, np.float64) / math.sqrt(2.0))


def _density(x: np.ndarray) -> np.ndarray:
    return np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


def _upper_inverse(q: np.ndarray) -> np.ndarray:
    """x with Q(x) = q for q in (0, 1): an asymptotic or erfinv start, then Newton steps on ln Q."""
    from .special import ndtri
    with np.errstate(all="ignore"):
        log_q = np.log(q)
        t = -2.0 * log_q
        tail = np.sqrt(np.maximum(t - np.log(np.maximum(t, 1.0)) - math.log(2.0 * math.pi), 0.0))
        x = np.where(q < 1e-8, tail, -ndtri(q))
        for _ in range(8):
            upper = _upper(x)
            x = x + (np.log(upper) - log_q) * upper / _density(x)
    return x


def _standard_truncated(u: np.ndarray, a: np.ndarray, b: np.ndarray, rng) -> np.ndarray:
    """Standard normal values in [a, b] (a < b) by the inverse CDF of the uniforms `u`: in the upper tail's terms
    where a >= 0, mirrored where b <= 0; rejection sampling beyond Q's range (a > 37)."""
    flip = b <= 0
    low, high = np.where(flip, -b, a), np.where(flip, -a, b)
    with np.errstate(all="ignore"):
        q_low, q_high = _upper(low), _upper(high)
        q = q_low - u * (q_low - q_high)
        z = np.where(q >= 0.5, -_upper_inverse(1.0 - q), _upper_inverse(q))
    far = low > _TAIL_LIMIT
    if far.any():
        z[far] = _far_tail(rng, low[far], high[far])
    return np.where(flip, -z, np.clip(z, low, high))


def _far_tail(rng, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Values of N(0, 1) in [a, b] with a > 37 by rejection: exponential proposals (Robert), uniform ones on
    intervals shorter than the proposal's scale."""
    rate = (a + np.sqrt(a * a + 4.0)) / 2.0
    short = rate * (b - a) < 1.0
    out, pending = np.empty(a.shape), np.ones(a.shape, bool)
    while pending.any():
        proposal = np.where(short, a + rng.random(a.shape) * np.where(short, b - a, 0.0),
                            a + rng.exponential(size=a.shape) / rate)
        with np.errstate(all="ignore"):
            chance = np.where(short, np.exp(0.5 * (a * a - proposal * proposal)), np.exp(-0.5 * (proposal - rate) ** 2))
        keep = pending & (proposal <= b) & (rng.random(a.shape) <= chance)
        out[keep], pending = proposal[keep], pending & ~keep
    return out


def _ptn_shape(shapes, attrs):
    return tuple(attrs["shape"])


def _ptn_params(shape, means, stddevs, minvals, maxvals) -> list:
    """The four parameters broadcast to `shape` (float64), checked as TF checks them."""
    params = [_host(p).astype(np.float64) for p in (means, stddevs, minvals, maxvals)]
    try:
        batch = np.broadcast_shapes(*(p.shape for p in params))
        if len(batch) > len(shape) or tuple(shape[len(shape) - len(batch):]) != tuple(batch):
            raise ValueError
    except ValueError:
        raise InvalidArgumentError(None, None, "Shape passed in must end with broadcasted shape: parameters of "
                                               f"shapes {[list(p.shape) for p in params]}, shape {list(shape)}.") \
            from None
    mean, std, low, high = (np.broadcast_to(p, tuple(shape)) for p in params)
    if np.any(~(std > 0)) or np.any(~(low < high)):
        raise InvalidArgumentError(None, None, "Invalid parameters: stddevs must be > 0 and minvals < maxvals.")
    return [mean, std, (low - mean) / std, (high - mean) / std]


def _ptn_grad(e, g):
    """The implicit-reparameterization derivatives of the samples with respect to each parameter, summed back to
    its shape (none for the seed)."""
    from .emit import reduced_like
    seed, *params = e.inputs
    sample = e.outputs[0]
    return [None] + [reduced_like(g * emit("_TruncatedNormalPartial", (sample, *params), sample.dtype,
                                           {"which": which}), param) for which, param in enumerate(params)]


@define("StatelessParameterizedTruncatedNormal", FLOATS - {d.bfloat16}, shape=_ptn_shape, presize=presize_from_attrs,
        gpu=(), grad=_ptn_grad)
def _stateless_ptn(xp, seed, means, stddevs, minvals, maxvals, shape, dtype):
    """Normal(means, stddevs) samples restricted to [minvals, maxvals] (each broadcast to the end of `shape`),
    determined by the seed: the inverse CDF of the seed's Philox float64 uniforms."""
    mean, std, a, b = _ptn_params(shape, means, stddevs, minvals, maxvals)
    host_seed = _host(seed)
    key, counter = philox.key_counter(host_seed)
    u = philox.uniform(key, counter, int(np.prod(shape, dtype=np.int64)), d.float64).reshape(tuple(shape))
    rng = np.random.default_rng([int(v) & 0xFFFFFFFFFFFFFFFF for v in host_seed.reshape(-1)])
    unit = _standard_truncated(u, a, b, rng)
    return xp.asarray((unit * std + mean).astype(dtype.numpy_dtype))


def truncated_normal_partials(x, mean, std, a, b) -> list:
    """d x / d (mean, stddev, minval, maxval) of a sample x of Normal(mean, std) truncated to the standardized
    [a, b], holding its CDF value fixed."""
    z = (x - mean) / std
    with np.errstate(all="ignore"):
        upper_side = a >= 0
        fraction = np.where(upper_side, (_upper(a) - _upper(z)) / (_upper(a) - _upper(b)),
                            (_upper(-z) - _upper(-a)) / (_upper(-b) - _upper(-a)))
        d_low = np.where(np.isinf(a), 0.0, np.exp(0.5 * (z * z - a * a)) * (1.0 - fraction))
        d_high = np.where(np.isinf(b), 0.0, np.exp(0.5 * (z * z - b * b)) * fraction)
        d_std = z - np.where(np.isinf(a), 0.0, a * d_low) - np.where(np.isinf(b), 0.0, b * d_high)
    return [1.0 - d_low - d_high, d_std, d_low, d_high]


@define("_TruncatedNormalPartial", FLOATS - {d.bfloat16}, shape=lambda shapes, attrs: shapes[0], gpu=(),
        grad=no_gradient_yet("the second derivative of StatelessParameterizedTruncatedNormal"))
def _truncated_normal_partial(xp, sample, means, stddevs, minvals, maxvals, which):
    """One of truncated_normal_partials (`which`: 0 mean, 1 stddev, 2 minval, 3 maxval) at each sample."""
    host = _host(sample)
    x = host.astype(np.float64)
    mean, std, a, b = _ptn_params(x.shape, means, stddevs, minvals, maxvals)
    return xp.asarray(np.asarray(truncated_normal_partials(x, mean, std, a, b)[which]).astype(host.dtype))


# -- the Sobol sequence ---------------------------------------------------------------------------------------

_BITS = 32
_directions_cache: dict = {}


def _directions(dim: int) -> np.ndarray:
    """[dim, 32] direction numbers v_k * 2^(32 - k) (uint64) of the first `dim` dimensions."""
    from .sobol_directions import TABLE
    cached = _directions_cache.get("all")
    if cached is None or cached.shape[0] < dim:
        rows = TABLE.strip().splitlines()
        out = np.zeros((len(rows) + 1, _BITS), np.uint64)
        out[0] = [1 << (_BITS - 1 - k) for k in range(_BITS)]   # van der Corput
        for j, row in enumerate(rows, start=1):
            out[j] = _dimension(*(int(v) for v in row.split()[:2]), [int(v) for v in row.split()[2:]])
        _directions_cache["all"] = cached = out
    return cached[:dim]


def _dimension(degree: int, inner: int, initial: list) -> list:
    """One dimension's direction numbers by Bratley and Fox's recurrence on the primitive polynomial."""
    m = list(initial)
    for k in range(degree, _BITS):
        value = m[k - degree] ^ (m[k - degree] << degree)
        for i in range(1, degree):
            if (inner >> (degree - 1 - i)) & 1:
                value ^= m[k - i] << i
        m.append(value)
    return [m[k] << (_BITS - 1 - k) for k in range(_BITS)]


def sobol(dim: int, num_results: int, skip: int, dtype) -> np.ndarray:
    """Points skip + 1 .. skip + num_results of the Sobol sequence (Gray-code order), [num_results, dim]."""
    directions = _directions(dim)
    n = np.arange(skip + 1, skip + num_results + 1, dtype=np.uint64)
    gray = n ^ (n >> np.uint64(1))
    points = np.zeros((num_results, dim), np.uint64)
    for bit in range(_BITS):
        on = ((gray >> np.uint64(bit)) & np.uint64(1)).astype(bool)
        points[on] ^= directions[:, bit]
    return (points.astype(np.float64) / 2.0 ** _BITS).astype(dtype.numpy_dtype)


def _sobol_shape(shapes, attrs):
    return (attrs["num_results"], attrs["dim"])


@define("SobolSample", {d.float32, d.float64}, shape=_sobol_shape, gpu=(), grad=NOT_DIFFERENTIABLE)
def _sobol_sample(xp, dim, num_results, skip, dtype):
    """The first `num_results` points after `skip` of the `dim`-dimensional Sobol sequence."""
    return xp.asarray(sobol(dim, num_results, skip, dtype))


@define("_SobolSampleOfTensors", {d.int32}, shape=lambda shapes, attrs: (None, None), gpu=(),
        grad=NOT_DIFFERENTIABLE, dtype=lambda dtype, attrs: attrs["dtype"])
def _sobol_sample_of_tensors(xp, dim, num_results, skip, dtype):
    """SobolSample whose dim, num_results and skip are scalar tensors known only when the graph runs (TF's op takes
    them as inputs): checked here, as TF's kernel checks them."""
    from .sobol_directions import MAX_DIM
    dim, num_results, skip = (int(np.asarray(v)) for v in (dim, num_results, skip))
    for ok, message in ((dim >= 1, "dim must be at least one"), (dim <= 21200, "dim must be at most 21200"),
                        (num_results >= 1, "num_results must be at least one"), (skip >= 0, "skip must be non-negative")):
        if not ok:
            raise InvalidArgumentError(None, None, message)
    if dim > MAX_DIM:
        raise UnimplementedError(None, None, f"sobol_sample(dim={dim}) is not implemented in placeflow: it has the "
                                             f"Joe-Kuo direction numbers of the first {MAX_DIM} dimensions; ask for "
                                             f"dim <= {MAX_DIM}.")
    return xp.asarray(sobol(dim, num_results, skip, dtype))
