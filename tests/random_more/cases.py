"""Cases for the tf.random additions and tf.math.sobol_sample, run by TensorFlow 2.21 (record_tf_random_more.py) and
placeflow (test_random_more.py): each `case_<name>(tf)` returns JSON-able results: values rounded, dtypes, shapes,
or [error class, first line]. Sampled values that are not TensorFlow's (the parameterized
index_shuffle) are compared by what both must agree on: shapes, dtypes, bounds, permutations,
the deterministic edge values, errors; their distributions are checked in test_random_more.py."""

import math

import numpy as np

from tests.helpers import error  # the recorded [class, first line] of a raised error


def values(x, tol=None):
    """A tensor's values rounded to 6 decimals (strings decoded), with dtype and shape."""
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if a.dtype.kind in "SOU":
        flat = [v.decode() if isinstance(v, bytes) else str(v) for v in a.reshape(-1).tolist()]
    else:
        flat = [("inf" if v > 0 else "-inf") if isinstance(v, float) and math.isinf(v) else
                ("nan" if isinstance(v, float) and math.isnan(v) else v)
                for v in np.round(a.astype(np.float64), 6).reshape(-1).tolist()]
    dtype = getattr(x, "dtype", a.dtype)
    out = {"dtype": str(getattr(dtype, "name", dtype)), "shape": list(a.shape), "values": flat}
    return out if tol is None else dict(out, tol=tol)


def kind(x):
    """dtype and shape of a tensor (for samples whose values are not TensorFlow's)."""
    return {"dtype": x.dtype.name, "shape": [int(d) for d in x.shape]}


# -- tf.math.sobol_sample: TensorFlow's values ----------------------------------------------------------------

def case_sobol_small(tf):
    return [values(tf.math.sobol_sample(1, 8)), values(tf.math.sobol_sample(3, 10)),
            values(tf.math.sobol_sample(2, 5, skip=3, dtype=tf.float64)),
            values(tf.math.sobol_sample(tf.constant(4), tf.constant(6), tf.constant(7)))]


def case_sobol_many_dimensions(tf):
    points = tf.math.sobol_sample(1111, 40, skip=1000, dtype=tf.float64).numpy()
    return [values(points[:, :25]), values(points[:, 1090:]), values(points.sum(axis=0))]


def case_sobol_large_skip(tf):
    return [values(tf.math.sobol_sample(20, 12, skip=123456789)),
            values(tf.math.sobol_sample(7, 9, skip=2**20 - 4, dtype=tf.float64))]


def case_sobol_errors(tf):
    return [error(lambda: tf.math.sobol_sample(0, 3)), error(lambda: tf.math.sobol_sample(21201, 1)),
            error(lambda: tf.math.sobol_sample(2, 0)), error(lambda: tf.math.sobol_sample(2, 3, skip=-1)),
            error(lambda: tf.math.sobol_sample(2, 3, dtype=tf.float16)),
            error(lambda: tf.math.sobol_sample(2, 3, dtype=tf.int32)),
            error(lambda: tf.math.sobol_sample(2.5, 3))]


# -- tf.random.experimental.stateless_shuffle: TensorFlow's values --------------------------------------------

def case_stateless_shuffle_values(tf):
    shuffle = tf.random.experimental.stateless_shuffle
    return [values(shuffle(tf.range(10), seed=[1, 2])), values(shuffle(tf.range(7), seed=[3, 4])),
            values(shuffle(tf.range(100), seed=tf.constant([5, -6], tf.int64))),
            values(shuffle(tf.range(1000), seed=[2**31 - 1, 12345])),
            values(shuffle(tf.reshape(tf.range(12.0), [6, 2]), seed=[7, 8], alg="philox")),
            values(shuffle(tf.constant(["a", "b", "c", "d"]), seed=[9, 10])),
            values(shuffle(tf.constant([[True], [False], [True]]), seed=[0, 0]))]


def case_stateless_shuffle_edges(tf):
    shuffle = tf.random.experimental.stateless_shuffle
    return [values(shuffle(tf.constant(3), seed=[1, 2])), values(shuffle(tf.zeros([0, 3]), seed=[1, 2])),
            values(shuffle(tf.constant([4.5]), seed=[1, 2])),
            values(shuffle(tf.range(5, dtype=tf.int64), seed=tf.constant([1, 2], tf.int32)))]


def case_stateless_shuffle_errors(tf):
    shuffle = tf.random.experimental.stateless_shuffle
    return [error(lambda: shuffle(tf.range(4), [1, 2, 3])), error(lambda: shuffle(tf.range(4), [1.0, 2.0])),
            error(lambda: shuffle(tf.range(4), [1, 2], alg="threefry"))]


# -- tf.random.gamma: TensorFlow's samples ------------------------------------------------------------------------

def case_gamma_values(tf):
    """TensorFlow's samples: Marsaglia-Tsang (alpha != 1) and exponentials (alpha = 1) on the op's Philox stream."""
    tf.random.set_seed(None)
    first = tf.random.gamma([5], [2.5, 0.3, 1.0, 7.0, 0.01], dtype=tf.float64, seed=3)
    again = tf.random.gamma([5], [2.5, 0.3, 1.0, 7.0, 0.01], dtype=tf.float64, seed=3)   # the stream goes on
    return [values(first, tol=1e-9), values(again, tol=1e-9),
            values(tf.random.gamma([3, 2], [[1.5], [40.0]], beta=[1.0, 4.0], seed=11)),
            values(tf.random.gamma([7], 0.8, dtype=tf.float16, seed=12), tol=1e-3),
            values(tf.random.gamma([2], 1.0, dtype=tf.float64, seed=1), tol=1e-9)]


def case_gamma_global_seed(tf):
    tf.random.set_seed(5)
    first = [tf.random.gamma([3], 2.0), tf.random.gamma([3], 2.0), tf.random.gamma([2], 0.5, seed=9)]
    tf.random.set_seed(5)
    again = tf.random.gamma([3], 2.0)
    tf.random.set_seed(None)
    return [values(v) for v in first] + [values(again)]


def case_gamma_shapes(tf):
    return [kind(tf.random.gamma([2, 3], [1.0, 2.0], seed=1)),
            kind(tf.random.gamma([2], [[1.0], [2.0]], beta=[1.0, 2.0, 3.0], seed=1)),
            kind(tf.random.gamma([4], 2.0, dtype=tf.float64, seed=1)),
            kind(tf.random.gamma([], 2.0, dtype=tf.float16))]


def case_gamma_shape_tensor(tf):
    return kind(tf.random.gamma(tf.constant([3, 1]), tf.constant([[0.5, 1.5]]), beta=2.0))


def case_gamma_edges(tf):
    return [values(tf.random.gamma([2], -1.0, seed=1)), values(tf.random.gamma([2], 0.0, seed=1)),
            values(tf.random.gamma([3], 0.0, dtype=tf.float64, seed=1)),
            values(tf.random.gamma([0, 2], [1.0, 2.0], seed=1))]


def case_gamma_is_positive(tf):
    draws = tf.random.gamma([500], [0.05, 1.0, 40.0], beta=[0.5, 1.0, 9.0], seed=2).numpy()
    return [bool((draws > 0).all()), bool(np.isfinite(draws).all())]


def case_gamma_errors(tf):
    return [error(lambda: tf.random.gamma([2], 1.0, dtype=tf.int32, seed=1)),
            error(lambda: tf.random.gamma([2], [1.0, 2.0], beta=[1.0, 2.0, 3.0], seed=1)),
            error(lambda: tf.random.gamma([-1], 1.0, seed=1))]


def random_gamma_grad(tf, alpha, sample):
    """The raw op RandomGammaGrad: d sample / d alpha."""
    if tf.__name__ == "tensorflow":
        return tf.raw_ops.RandomGammaGrad(alpha=alpha, sample=sample)
    from placeflow.eager.execute import execute
    return execute("RandomGammaGrad", (alpha, sample), alpha.dtype)


def case_gamma_grad_values(tf):
    alpha = tf.constant([0.5, 2.0, 7.0, 0.01, 100.0, 3.0, 1.0, 25.0], tf.float64)
    sample = tf.constant([0.3, 1.5, 9.0, 1e-30, 90.0, 1e-3, 4.0, 30.0], tf.float64)
    return [values(random_gamma_grad(tf, alpha, sample), tol=1e-6),
            values(random_gamma_grad(tf, tf.cast(alpha, tf.float32), tf.cast(sample, tf.float32)), tol=1e-5),
            values(random_gamma_grad(tf, tf.constant([[1.5], [4.0]], tf.float64),
                                     tf.constant([0.5, 2.0, 6.0], tf.float64)), tol=1e-6)]


def case_gamma_grad_shapes(tf):
    alpha, beta = tf.constant([0.5, 2.0, 7.0]), tf.constant([[1.0], [3.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([alpha, beta])
        draws = tf.random.gamma([4], alpha, beta=beta, seed=3)
    grads = [tape.gradient(draws, alpha), tape.gradient(draws, beta)]
    return [kind(draws), kind(grads[0]), kind(grads[1]), bool((grads[0].numpy() > 0).all()),
            bool((grads[1].numpy() < 0).all())]


# -- tf.random.poisson and tf.experimental.numpy.random.poisson: TensorFlow's samples ------------------------

def case_poisson_values(tf):
    """TensorFlow's samples: products of uniforms below rate 10, Hormann's PTRS above, on the op's Philox stream."""
    tf.random.set_seed(None)
    rates = [0.5, 3.0, 9.5, 10.0, 12.0, 150.0, 1e4]
    first = tf.random.poisson([6], tf.constant(rates, tf.float64), seed=3)
    again = tf.random.poisson([6], tf.constant(rates, tf.float64), seed=3)
    return [values(first), values(again), values(tf.random.poisson([2, 3], [[1.0], [25.0]], dtype=tf.int64, seed=4)),
            values(tf.random.poisson([4], tf.constant([2, 40]), dtype=tf.int32, seed=5)),
            values(tf.random.poisson([5], 7.0, dtype=tf.float16, seed=6))]


def case_poisson_global_seed(tf):
    tf.random.set_seed(8)
    first = [tf.random.poisson([3], 4.0), tf.random.poisson([3], 40.0), tf.random.poisson([2], 4.0, seed=2)]
    tf.random.set_seed(8)
    again = tf.random.poisson([3], 4.0)
    tf.random.set_seed(None)
    return [values(v) for v in first] + [values(again)]


def case_poisson_shapes(tf):
    return [kind(tf.random.poisson([2, 3], [1.0, 2.0], seed=1)),
            kind(tf.random.poisson([2], [1.0, 2.0], dtype=tf.int64, seed=1)),
            kind(tf.random.poisson([2], [1, 2], seed=1)),
            kind(tf.random.poisson([5], tf.constant([1.0, 2.0], tf.float64), dtype=tf.float16)),
            kind(tf.random.poisson([], 3.0, dtype=tf.int32))]


def case_poisson_edges(tf):
    return [values(tf.random.poisson([2], -1.0, seed=1)), values(tf.random.poisson([3], 0.0, seed=1)),
            values(tf.random.poisson([2, 2], [0.0, -2.0], dtype=tf.int64, seed=1))]


def case_poisson_errors(tf):
    lam = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(lam)
        draws = tf.random.poisson([2], lam, seed=4)
    return [error(lambda: tf.random.poisson([2], 1.0, dtype=tf.bool, seed=1)),
            error(lambda: tf.random.poisson([2], [True, False], seed=1)),
            error(lambda: tape.gradient(draws, lam))]


def case_numpy_poisson(tf):
    tnp = tf.experimental.numpy
    return [kind(tnp.random.poisson(3.0, size=(2, 3))), kind(tnp.random.poisson([3.0, 4.0], size=(2, 3))),
            kind(tnp.random.poisson(3.0)), kind(tnp.random.poisson(3)), kind(tnp.random.poisson(size=4)),
            values(tnp.random.poisson(0.0, size=3))]


# -- tf.random.stateless_parameterized_truncated_normal (samples not TensorFlow's) -----------------------------

def case_ptn_shapes(tf):
    ptn = tf.random.stateless_parameterized_truncated_normal
    return [kind(ptn([2, 3], [1, 2], means=[0.0, 1.0, 2.0])), kind(ptn([2, 4], [1, 2], means=tf.zeros([2, 4]))),
            kind(ptn([4], [1, 2], *(tf.constant(v, tf.float16) for v in (0.0, 1.0, -1.0, 1.0)))),
            kind(ptn([3], tf.constant([1, 2], tf.int64), *(tf.constant(v, tf.float64) for v in (0.0, 1.0, -1.0, 1.0))))]


def case_ptn_bounds(tf):
    ptn = tf.random.stateless_parameterized_truncated_normal
    out = []
    for low, high in ((5.0, float("inf")), (30.0, 31.0), (-31.0, -30.0), (-2.0, 2.0), (0.001, 0.002), (45.0, 45.5)):
        draws = ptn([400], [3, 4], minvals=low, maxvals=high).numpy()
        out.append([bool((draws >= low).all() and (draws <= high).all()), bool(np.isfinite(draws).all())])
    draws = ptn([150, 2], [5, 6], means=[1.0, -3.0], stddevs=[2.0, 0.5], minvals=[0.0, -3.5], maxvals=[3.0, -1.0])
    draws = draws.numpy().reshape(150, 2)
    out.append([bool(((draws >= [0.0, -3.5]) & (draws <= [3.0, -1.0])).all())])
    return out


def case_ptn_repeats_per_seed(tf):
    ptn = tf.random.stateless_parameterized_truncated_normal
    first, again, other = (ptn([6], seed).numpy() for seed in ([1, 2], [1, 2], [2, 1]))
    return [bool((first == again).all()), bool((first != other).any())]


def case_ptn_bound_gradients(tf):
    """d sample / d minval and d maxval, which TF and placeflow both compute by implicit reparameterization:
    compared here as their distance from that formula evaluated at each sample (both ~0)."""
    ptn = tf.random.stateless_parameterized_truncated_normal
    params = [tf.constant([v] * 5, tf.float64) for v in (0.5, 2.0, -1.0, 3.0)]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(params)
        draws = ptn([5], [1, 2], *params)
    z = (draws.numpy() - 0.5) / 2.0
    a, b = -0.75, 1.25
    cdf = np.vectorize(lambda v: 0.5 * math.erfc(-v / math.sqrt(2.0)))
    fraction = (cdf(z) - cdf(a)) / (cdf(b) - cdf(a))
    expected_low = np.exp(0.5 * (z * z - a * a)) * (1.0 - fraction)
    expected_high = np.exp(0.5 * (z * z - b * b)) * fraction
    return [values(tape.gradient(draws, params[2]).numpy() - expected_low, tol=1e-6),
            values(tape.gradient(draws, params[3]).numpy() - expected_high, tol=1e-6)]


def case_ptn_errors(tf):
    ptn = tf.random.stateless_parameterized_truncated_normal
    return [error(lambda: ptn([4], [1, 2], stddevs=0.0)), error(lambda: ptn([4], [1, 2], stddevs=-1.0)),
            error(lambda: ptn([4], [1, 2], minvals=1.0, maxvals=1.0)),
            error(lambda: ptn([4], [1, 2], minvals=2.0, maxvals=1.0)),
            error(lambda: ptn([4], [1, 2], means=tf.constant(0.0, tf.float64))),
            error(lambda: ptn([4], [1, 2], means=tf.constant([1, 2, 3, 4]))),
            error(lambda: ptn([4], [1, 2, 3])), error(lambda: ptn([4], [1.0, 2.0])),
            error(lambda: ptn([3, 4], [1, 2], means=tf.zeros([2, 4]))),
            error(lambda: ptn([4], [1, 2], means=[0.0, 1.0]))]


# -- tf.random.experimental.index_shuffle / tf.random_index_shuffle (permutations not TensorFlow's) -----------

def case_index_shuffle_permutes(tf):
    shuffle = tf.random.experimental.index_shuffle
    out = []
    for top, seed in ((0, [1, 2]), (1, [3, 4]), (3, [5, 9]), (9, [5, 8]), (16, [0, 0]), (99, [-7, 2**40]),
                      (1000, [1, 2])):
        positions = shuffle(tf.range(top + 1), seed=seed, max_index=top).numpy()
        out.append(sorted(positions.tolist()) == list(range(top + 1)))
    return out


def case_index_shuffle_kinds(tf):
    shuffle = tf.random.experimental.index_shuffle
    return [kind(shuffle(5, [1, 2], 9)), kind(shuffle(tf.constant(5, tf.int64), [1, 2], 9)),
            kind(shuffle(5, [1, 2], tf.constant(9, tf.int64))),
            kind(shuffle(tf.constant(5, tf.uint32), [1, 2], tf.constant(9, tf.uint32))),
            kind(shuffle(tf.constant([1, 2, 3], tf.uint64), tf.constant([1, 2], tf.uint64),
                         tf.constant(9, tf.uint64))),
            kind(tf.random_index_shuffle(tf.range(4), [498247692, 5, 9], 3)),
            shuffle(7, [3, 3], 9).numpy().item() == shuffle(7, [3, 3], 9).numpy().item()]


def case_index_shuffle_errors(tf):
    shuffle = tf.random.experimental.index_shuffle
    return [error(lambda: shuffle(10, [1, 2], 9)), error(lambda: shuffle([1, 2, 3], [[1, 2], [3, 4], [5, 6]], 9)),
            error(lambda: shuffle(5.0, [1, 2], 9.0)), error(lambda: shuffle(5, [1, 2, 3], 9)),
            error(lambda: shuffle(5, [1.0, 2.0], 9))]


def case_random_index_shuffle_raw(tf):
    shuffle = tf.random_index_shuffle
    out = []
    for top, seed, rounds in ((3, [1, 5, 9], 4), (20, [0, 0, 0], 6), (255, [7, -1, 3], 4), (300, [1, 2, 3], 8)):
        positions = shuffle(tf.range(top + 1), seed, top, rounds=rounds).numpy()
        out.append(sorted(positions.tolist()) == list(range(top + 1)))
    batched = shuffle(tf.range(4), [[1, 5, 9], [2, 5, 9], [3, 5, 9], [4, 5, 9]], 3)
    return out + [kind(batched), bool(((batched.numpy() >= 0) & (batched.numpy() <= 3)).all()),
                  kind(shuffle(tf.range(4), [1, 5, 9], [3, 4, 5, 6])), kind(shuffle(2, [[1, 5, 9], [2, 5, 9]], 3))]


def case_random_index_shuffle_raw_errors(tf):
    shuffle = tf.random_index_shuffle
    return [error(lambda: shuffle([1, 2], [1, 5, 9], [3, 4, 5])),
            error(lambda: shuffle(tf.constant([[1]]), [1, 5, 9], 3)),
            error(lambda: shuffle(1, [1, 5, 9], -1)), error(lambda: shuffle(1, [1, 5], 3)),
            error(lambda: shuffle(4, [1, 5, 9], 3))]


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}

# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason.
TRACED_EXCLUDED: dict = {}
# Divergences in those runs: {case: {path in its result: (placeflow's, reason)}}.
TRACED_DIVERGENT = {
    "gamma_shape_tensor": {(): (["NotImplementedError", ""], "placeflow's random ops take their shape while the "
                                "graph is built: a shape tensor computed by the graph (here the function's input) "
                                "is refused by name; TF reads it when the graph runs")},
}
