"""tf.random.stateless_gamma/poisson/binomial/categorical: values fixed by the seed (placeflow's stream, not
TensorFlow's Philox one), the distributions' moments, broadcasting, dtypes, and eagerly equal to traced."""

import numpy as np
import pytest

import placeflow as tf


def test_the_same_seed_gives_the_same_values_eagerly_and_traced():
    eager = tf.random.stateless_gamma([4, 3], seed=[7, 8], alpha=[1.0, 2.0, 3.0]).numpy()
    traced = tf.function(lambda s: tf.random.stateless_gamma([4, 3], seed=s, alpha=[1.0, 2.0, 3.0]))(
        tf.constant([7, 8])).numpy()
    np.testing.assert_array_equal(eager, traced)
    other = tf.random.stateless_gamma([4, 3], seed=[7, 9], alpha=[1.0, 2.0, 3.0]).numpy()
    assert not np.array_equal(eager, other)


def test_moments_match_the_distributions():
    gamma = tf.random.stateless_gamma([20000], seed=[1, 2], alpha=3.0, beta=2.0).numpy()
    assert gamma.dtype == np.float32 and abs(gamma.mean() - 1.5) < 0.05 and abs(gamma.var() - 0.75) < 0.05
    poisson = tf.random.stateless_poisson([20000], seed=[1, 2], lam=4.0).numpy()
    assert poisson.dtype == np.int32 and abs(poisson.mean() - 4.0) < 0.1
    binomial = tf.random.stateless_binomial([20000], seed=[1, 2], counts=10, probs=0.25).numpy()
    assert binomial.dtype == np.int32 and abs(binomial.mean() - 2.5) < 0.05 and binomial.max() <= 10
    picks = tf.random.stateless_categorical(tf.math.log([[0.2, 0.8]]), 20000, seed=[3, 4]).numpy()
    assert picks.shape == (1, 20000) and picks.dtype == np.int64 and abs(picks.mean() - 0.8) < 0.02


def test_parameters_broadcast_to_the_shape_and_dtypes_are_kept():
    values = tf.random.stateless_gamma([2, 3], seed=[5, 6], alpha=[[1.0], [100.0]], dtype=tf.float64)
    assert values.dtype == tf.float64 and values.shape == (2, 3)
    assert values.numpy()[1].min() > values.numpy()[0].max()  # alpha 100 draws far above alpha 1 draws
    counts = tf.random.stateless_poisson([3], seed=[5, 6], lam=[0.0, 0.0, 50.0], dtype=tf.float32).numpy()
    assert counts.dtype == np.float32 and counts[0] == 0 and counts[2] > 20


def test_the_gamma_gradient_is_refused_by_name_rather_than_dropped():
    alpha = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        draws = tf.random.stateless_gamma([3], seed=[1, 1], alpha=alpha)
    with pytest.raises(LookupError, match="StatelessRandomGammaV2"):
        tape.gradient(draws, alpha)


def test_a_scalar_shape_gives_a_scalar():
    assert tf.random.stateless_gamma([], seed=[1, 2], alpha=2.0).shape == ()
    assert tf.random.stateless_poisson([], seed=[1, 2], lam=2.0).shape == ()
    assert tf.random.stateless_binomial([], seed=[1, 2], counts=3, probs=0.5).shape == ()
