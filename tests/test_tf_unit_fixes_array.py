"""What TensorFlow's own unique_op_test and broadcast_to_ops_test found (tests/tf_unit), fixed: values and
messages checked against TensorFlow 2.21 (the expected values below were printed by it)."""

import numpy as np
import pytest

import placeflow as tf

NAN = float("nan")


def _same(actual, expected):
    np.testing.assert_array_equal(np.asarray(actual), np.asarray(expected))


def test_unique_keeps_each_nan_apart():
    y, idx = tf.unique([0.0, NAN, NAN, 0.0])
    _same(y, [0.0, NAN, NAN])
    _same(idx, [0, 1, 2, 0])


def test_unique_with_counts_counts_each_nan_once():
    y, idx, count = tf.unique_with_counts([0.0, NAN, NAN, 0.0])
    _same(y, [0.0, NAN, NAN])
    _same(idx, [0, 1, 2, 0])
    _same(count, [2, 1, 1])


def test_unique_with_counts_v2_keeps_each_nan_apart():
    y, idx, count = tf.raw_ops.UniqueWithCountsV2(x=[0.0, 1.0, NAN, NAN, 1.0], axis=np.array([], np.int32))
    _same(y, [0.0, 1.0, NAN, NAN])
    _same(idx, [0, 1, 2, 3, 1])
    _same(count, [1, 2, 1, 1])


def test_unique_v2_rows_holding_nan_are_distinct():
    y, idx = tf.raw_ops.UniqueV2(x=[[0.0, NAN], [0.0, NAN]], axis=[0])
    _same(y, [[0.0, NAN], [0.0, NAN]])
    _same(idx, [0, 1])


def test_unique_v2_without_nan_still_merges_equal_slices():
    y, idx = tf.raw_ops.UniqueV2(x=[[1, 0, 0], [1, 0, 0], [2, 0, 0]], axis=[1])
    _same(y, [[1, 0], [1, 0], [2, 0]])
    _same(idx, [0, 1, 1])


def test_broadcast_to_incompatible_shape_quotes_tf_message():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Unable to broadcast tensor of shape \[2\] to tensor of shape \[2,1\]"):
        tf.broadcast_to(tf.constant([0, 1]), tf.constant([2, 1]))


def test_broadcast_to_a_lower_rank_quotes_tf_message():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Rank of input \(2\) must be no greater than rank of output shape \(1\)"):
        tf.broadcast_to([[0, 1]], [3])


def test_broadcast_to_compatible_shapes_still_broadcasts():
    _same(tf.broadcast_to([[0, 1]], [3, 2]), [[0, 1]] * 3)
