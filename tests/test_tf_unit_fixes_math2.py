"""What TensorFlow's own in_topk_op_test and bucketize_op_test found (tests/tf_unit), fixed: values and messages
checked against TensorFlow 2.21 (the expected values below were printed by it)."""

import numpy as np
import pytest

import placeflow as tf


def _same(actual, expected):
    np.testing.assert_array_equal(np.asarray(actual), np.asarray(expected))


def test_compat_v1_in_top_k_takes_predictions_first():
    _same(tf.compat.v1.nn.in_top_k([[0.1, 0.3, 0.2, 0.4], [0.1, 0.2, 0.3, 0.4]], [3, 2], 1), [True, False])


def test_in_top_k_is_false_for_an_out_of_range_target():
    _same(tf.compat.v1.nn.in_top_k([[0.1, 0.3, 0.2, 0.2], [0.1, 0.3, 0.2, 0.2]], [2, 4], 2), [True, False])
    predictions = tf.constant([[0.0, 0.0]] * 4)
    _same(tf.math.in_top_k(tf.constant([-1, 0, 1, 2], tf.int64), predictions, 1), [False, True, True, False])


def test_in_top_k_out_of_range_target_inside_a_function():
    found = tf.function(lambda t, p: tf.math.in_top_k(t, p, 1))(tf.constant([-1, 0, 1, 2]), tf.zeros([4, 2]))
    _same(found, [False, True, True, False])


def test_in_top_k_non_finite_prediction_is_false_and_ties_count_as_in():
    _same(tf.compat.v1.nn.in_top_k([[0.1, float("nan"), 0.2, 0.4], [0.1, 0.2, 0.3, float("inf")]], [1, 3], 2),
          [False, False])
    _same(tf.math.in_top_k([1, 0], [[0.1, 0.3, 0.3, 0.4], [0.5, 0.2, 0.5, 0.4]], 1), [False, True])


def test_in_top_k_empty_batch_and_tensor_k():
    found = tf.math.in_top_k(np.empty([0], np.int32), np.empty([0, 5], np.float32), 2)
    assert found.shape == (0,) and found.dtype == tf.bool
    _same(tf.math.in_top_k([0, 2], [[0.1, 0.3, 0.2, 0.4], [0.1, 0.2, 0.3, 0.4]], tf.constant(3)), [False, True])


def test_in_top_k_refuses_float_targets():
    with pytest.raises(TypeError, match="int32 or int64"):
        tf.math.in_top_k([0.0, 1.0], [[0.1, 0.3], [0.2, 0.1]], 1)


def test_bucketize_boundaries_must_be_a_list():
    with pytest.raises(TypeError, match="Expected list for 'boundaries' argument to 'Bucketize' Op, not 0"):
        tf.raw_ops.Bucketize(input=tf.constant([-5, 0]), boundaries=0)
    _same(tf.raw_ops.Bucketize(input=tf.constant([-5, 0, 3, 12]), boundaries=[0, 3, 8, 11]), [0, 1, 2, 4])


def test_in_top_k_batch_mismatch_quotes_tensorflow():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="First dimension of predictions 2 must match length of targets 1"):
        tf.math.in_top_k([0], [[1.0, 2.0], [3.0, 4.0]], 1)
