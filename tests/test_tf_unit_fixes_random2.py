"""What TensorFlow's own random_gamma_test found (tests/tf_unit), fixed: an output whose size overflows int64 is
refused with TensorFlow 2.21's message (checked against it) before any sampling."""

import pytest

import placeflow as tf

_SHAPE = [46902, 51188, 34063, 59195]   # 4840914843677363160 samples per parameter: fits in int64


def test_random_gamma_output_size_overflow_is_refused():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Encountered overflow when multiplying 4840914843677363160 with 4, result: -1"):
        tf.random.gamma(_SHAPE, alpha=tf.constant(1.0, shape=(4, 4, 4, 4, 4)))


def test_random_poisson_output_size_overflow_is_refused():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Encountered overflow when multiplying 4840914843677363160 with 4, result: -1"):
        tf.random.poisson(_SHAPE, tf.constant(1.0, shape=(4, 4, 4, 4, 4)))


def test_random_gamma_sizes_that_fit_still_sample():
    assert tf.random.gamma([3, 2], alpha=tf.ones([2, 1]), seed=1).shape == (3, 2, 2, 1)
    assert tf.random.gamma([5], alpha=tf.ones([2, 0, 3])).shape == (5, 2, 0, 3)
