"""placeflow's tf.random additions and tf.math.sobol_sample equal TensorFlow 2.21's recorded results (cases.py,
record_tf_random_more.py): floats within 1e-5 (relative or absolute), everything else exactly; errors by class.
Sobol points, stateless_shuffle, gamma and poisson samples and RandomGammaGrad are TensorFlow's values; the samples
of stateless_parameterized_truncated_normal and the index shuffle are not. Here: the distributions (moments within a
few standard errors), the seeds' repeat semantics and the gradients."""

import json
import math
import pathlib

import numpy as np
import pytest

import placeflow as tf
from tests.helpers import same_as_recorded as _same
from placeflow.eager.execute import execute
from tests.random_more.cases import CASES, TRACED_DIVERGENT, TRACED_EXCLUDED
from tests.traced_api import traced_tests

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["cases"]




def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(name):
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)


test_every_case_was_recorded_in_a_function, test_case_in_a_function_equals_tensorflow = traced_tests(
    __file__, CASES, TRACED_EXCLUDED, TRACED_DIVERGENT, _same)


def _moments_close(draws, mean, variance, sigmas=5.0):
    """The sample mean and variance of `draws` (one column per distribution) within `sigmas` standard errors."""
    n = draws.shape[0]
    assert np.all(np.abs(draws.mean(axis=0) - mean) < sigmas * np.sqrt(variance / n) + 1e-9), draws.mean(axis=0)
    spread = np.sqrt(2.0 / (n - 1)) * variance * 2.0   # generous: the fourth moments of these are not normal's
    assert np.all(np.abs(draws.var(axis=0) - variance) < sigmas * spread + 1e-9), draws.var(axis=0)


def test_gamma_follows_its_distribution():
    alpha, beta = np.array([0.3, 1.0, 4.5, 30.0]), np.array([2.0, 1.0, 0.5, 3.0])
    draws = tf.random.gamma([40000], alpha, beta=beta, dtype=tf.float64, seed=11).numpy()
    _moments_close(draws, alpha / beta, alpha / beta ** 2)


def test_poisson_follows_its_distribution():
    lam = np.array([0.2, 1.0, 7.5, 120.0])
    draws = tf.random.poisson([40000], lam, dtype=tf.float64, seed=12).numpy()
    _moments_close(draws, lam, lam)
    assert np.all(draws == np.round(draws))


def test_numpy_poisson_follows_its_distribution():
    draws = tf.experimental.numpy.random.poisson([2.0, 9.0], size=30000).numpy()
    assert draws.dtype == np.int64
    _moments_close(draws.astype(np.float64), np.array([2.0, 9.0]), np.array([2.0, 9.0]))


def _truncated_moments(mean, std, low, high):
    a, b = (low - mean) / std, (high - mean) / std
    pdf = lambda v: math.exp(-0.5 * v * v) / math.sqrt(2 * math.pi) if math.isfinite(v) else 0.0  # noqa: E731
    upper = lambda v: 0.5 * math.erfc(v / math.sqrt(2.0))  # noqa: E731 - P(N > v), exact in the upper tail
    mass = upper(a) - upper(b) if a >= 0 else upper(-b) - upper(-a)
    a_pdf, b_pdf = (a * pdf(a) if math.isfinite(a) else 0.0), (b * pdf(b) if math.isfinite(b) else 0.0)
    shift = (pdf(a) - pdf(b)) / mass
    variance = 1.0 + (a_pdf - b_pdf) / mass - shift ** 2
    return mean + std * shift, std * std * variance


@pytest.mark.parametrize("mean, std, low, high", [
    (0.0, 1.0, -2.0, 2.0), (1.0, 2.0, 0.0, 3.0), (0.0, 1.0, 3.0, math.inf), (0.0, 1.0, -math.inf, -6.0),
    (0.0, 1.0, -math.inf, math.inf), (-3.0, 0.5, -3.5, -1.0), (0.0, 1.0, 20.0, 20.5)])
def test_parameterized_truncated_normal_follows_its_distribution(mean, std, low, high):
    draws = tf.random.stateless_parameterized_truncated_normal([30000], [21, 22], mean, std, low, high)
    draws = draws.numpy().astype(np.float64)
    assert np.all((draws >= low) & (draws <= high))
    expected_mean, expected_variance = _truncated_moments(mean, std, low, high)
    _moments_close(draws[:, None], expected_mean, expected_variance)


def test_index_shuffle_spreads_indices_uniformly():
    positions = np.array([tf.random.experimental.index_shuffle(0, [seed, 17], 4).numpy() for seed in range(2000)])
    counts = np.bincount(positions, minlength=5)
    assert np.all(np.abs(counts - 400) < 5 * math.sqrt(400 * 0.8)), counts


def test_a_global_seed_repeats_the_stateful_samplers():
    def draws():
        tf.random.set_seed(7)
        return [tf.random.gamma([3], [1.0, 2.0]).numpy(), tf.random.poisson([4], 3.0, seed=5).numpy(),
                tf.random.poisson([4], 3.0, seed=5).numpy(), tf.random.gamma([2], 0.5, seed=5).numpy()]
    first, second = draws(), draws()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(first[1], first[2])   # an op seed's stream goes on from call to call


def test_gamma_gradient_is_the_implicit_reparameterization():
    alpha, beta = tf.constant([0.5, 2.0, 7.0], tf.float64), tf.constant([[1.0], [3.0]], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([alpha, beta])
        draws = tf.random.gamma([4], alpha, beta=beta, dtype=tf.float64, seed=3)
    unit = draws * beta   # the Gamma(alpha, 1) samples
    partial = execute("RandomGammaGrad", (alpha + 0.0 * beta, unit), tf.float64)
    np.testing.assert_allclose(tape.gradient(draws, alpha).numpy(), (partial / beta).numpy().sum(axis=(0, 1)),
                               rtol=1e-10)
    np.testing.assert_allclose(tape.gradient(draws, beta).numpy(),
                               (-draws / beta).numpy().sum(axis=(0, 2))[:, None], rtol=1e-10)


def test_gamma_gradient_matches_the_cdf_by_finite_differences():
    """Holding P(alpha, x) fixed, x moves by RandomGammaGrad: P(alpha + h, x + h * dx) = P(alpha, x)."""
    alpha, x = np.array([0.5, 2.0, 7.0, 40.0]), np.array([0.2, 2.5, 5.0, 44.0])
    dx = execute("RandomGammaGrad", (tf.constant(alpha), tf.constant(x)), tf.float64).numpy()
    h = 1e-6
    moved = tf.math.igamma(tf.constant(alpha + h), tf.constant(x + h * dx)).numpy()
    np.testing.assert_allclose(moved, tf.math.igamma(tf.constant(alpha), tf.constant(x)).numpy(), atol=1e-10)


def test_parameterized_truncated_normal_gradients_by_finite_differences():
    """The samples are the inverse CDF of fixed uniforms, so central differences give their derivatives."""
    ptn = tf.random.stateless_parameterized_truncated_normal
    params = [0.5, 2.0, -1.0, 3.0]
    tensors = [tf.constant(v, tf.float64) for v in params]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(tensors)
        total = tf.reduce_sum(ptn([6], [1, 2], *tensors) * tf.constant(np.arange(1.0, 7.0)))
    for i, tensor in enumerate(tensors):
        up, down = list(params), list(params)
        up[i] += 1e-6
        down[i] -= 1e-6
        value = lambda p: float(tf.reduce_sum(ptn([6], [1, 2], *[tf.constant(v, tf.float64) for v in p])  # noqa
                                              * tf.constant(np.arange(1.0, 7.0))))
        assert tape.gradient(total, tensor).numpy() == pytest.approx((value(up) - value(down)) / 2e-6, rel=1e-6)


def test_parameterized_truncated_normal_shifts_with_all_its_location_parameters():
    """Moving mean, minval and maxval together moves each sample by as much: their derivatives sum to 1."""
    params = [tf.constant([v] * 4, tf.float64) for v in (0.5, 2.0, -1.0, 3.0)]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(params)
        draws = tf.random.stateless_parameterized_truncated_normal([4], [3, 1], *params)
    total = sum(tape.gradient(draws, params[i]).numpy() for i in (0, 2, 3))
    np.testing.assert_allclose(total, np.ones(4), rtol=1e-9)


def test_the_random_ops_run_in_functions():
    @tf.function
    def draw(seed):
        shuffled = tf.random.experimental.stateless_shuffle(tf.range(10), seed=seed)
        truncated = tf.random.stateless_parameterized_truncated_normal([3], seed)
        positions = tf.random.experimental.index_shuffle(tf.range(5), seed, 4)
        return shuffled, truncated, positions, tf.random.gamma([2], 3.0, seed=1), tf.math.sobol_sample(2, 3)
    shuffled, truncated, positions, draws, points = draw(tf.constant([1, 2]))
    assert shuffled.numpy().tolist() == [0, 3, 8, 1, 5, 4, 9, 7, 6, 2]   # TensorFlow's permutation
    np.testing.assert_array_equal(truncated.numpy(), tf.random.stateless_parameterized_truncated_normal(
        [3], [1, 2]).numpy())
    assert sorted(positions.numpy().tolist()) == list(range(5)) and draws.shape == (2,)
    np.testing.assert_array_equal(points.numpy(), [[0.5, 0.5], [0.75, 0.25], [0.25, 0.75]])


def test_unsupported_requests_are_refused_by_name():
    with pytest.raises(NotImplementedError, match="sobol_sample.*1111"):
        tf.math.sobol_sample(1112, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="rounds"):
        tf.random_index_shuffle(1, [1, 2, 3], 5, rounds=-1)
    with pytest.raises(LookupError, match="RandomPoissonV2"):
        lam = tf.constant(2.0)
        with tf.GradientTape() as tape:
            tape.watch(lam)
            draws = tf.random.poisson([3], lam, seed=1)
        tape.gradient(draws, lam)
