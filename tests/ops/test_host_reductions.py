"""Sums over leading axes as one BLAS call (ops/host_reductions.py): the values, and where it steps aside."""

import numpy as np
import pytest

import placeflow as tf
from placeflow.ops.host_reductions import ROWS_FOR_BLAS, leading_sum, normalized_axes


@pytest.fixture
def batch():
    return np.random.RandomState(0).rand(32, 14, 14, 16).astype(np.float32)


@pytest.mark.parametrize("keepdims", [False, True])
def test_a_leading_axes_sum_is_the_float64_sum_to_float32_accuracy(batch, keepdims):
    total = leading_sum(batch, (0, 1, 2), keepdims)
    exact = batch.astype(np.float64).sum(axis=(0, 1, 2), keepdims=keepdims)
    assert total.dtype == np.float32 and total.shape == exact.shape
    np.testing.assert_allclose(total, exact, rtol=2e-6)
    # and no less accurate than NumPy's own float32 sum
    assert np.abs(total - exact).max() <= np.abs(batch.sum(axis=(0, 1, 2), keepdims=keepdims) - exact).max()


@pytest.mark.parametrize("case", ["trailing axis", "every axis", "ints", "strided", "few rows", "float16", "empty"])
def test_other_reductions_are_left_to_numpy(batch, case):
    a, axis = {"trailing axis": (batch, (3,)), "every axis": (batch, None), "ints": (batch.astype(np.int32), (0,)),
               "strided": (batch[:, ::2], (0, 1)), "few rows": (batch[:1, :2, :2], (0, 1, 2)),
               "float16": (batch.astype(np.float16), (0,)), "empty": (np.zeros((ROWS_FOR_BLAS, 0), np.float32), (0,))}[case]
    assert leading_sum(a, axis) is None


def test_inf_and_nan_propagate_as_in_a_sum():
    a = np.ones((ROWS_FOR_BLAS * 2, 3), np.float32)
    a[5, 0], a[7, 1], a[9, 1], a[3, 2] = np.inf, np.inf, -np.inf, np.nan
    total = leading_sum(a, 0)
    assert total[0] == np.inf and np.isnan(total[1]) and np.isnan(total[2])


def test_reductions_and_bias_gradients_use_it_eagerly_and_in_a_function(batch):
    def reductions(x):
        return (tf.reduce_sum(x, axis=[0, 1, 2]), tf.reduce_mean(x, axis=[-4, -3, -2], keepdims=True),
                tf.raw_ops.BiasAddGrad(out_backprop=x))

    exact = batch.astype(np.float64).sum(axis=(0, 1, 2))
    for results in (reductions(tf.constant(batch)), tf.function(reductions)(tf.constant(batch))):
        total, mean, bias = [r.numpy() for r in results]
        np.testing.assert_allclose(total, exact, rtol=2e-6)
        np.testing.assert_allclose(mean, (exact / (32 * 14 * 14)).reshape(1, 1, 1, 16), rtol=2e-6)
        np.testing.assert_allclose(bias, exact, rtol=2e-6)


def test_a_broadcast_add_gradient_sums_the_batch_to_the_bias(batch):
    bias = tf.Variable(np.zeros(16, np.float32))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum((tf.constant(batch) + bias) * 2.0)
    np.testing.assert_allclose(tape.gradient(loss, bias).numpy(), np.full(16, 2.0 * 32 * 14 * 14), rtol=1e-6)


@pytest.mark.parametrize("axis,expected", [(-1, [2]), (np.int64(1), [1]), ((2, 0, -3), [0, 2]), ([1, 0], [0, 1]),
                                           (np.array([0, -1]), [0, 2]), (np.array(1), [1])])
def test_axes_are_normalized_as_numpy_reads_them(axis, expected):
    assert normalized_axes(axis, 3) == expected
