"""Determinants of matrices holding an inf or a NaN are TensorFlow's (its partial-pivot LU), not LAPACK's
(which gives det 0 for [[nan, 1], [1, 1]]). Expected values printed by TensorFlow 2.21."""

import numpy as np
import pytest

import placeflow as tf

NAN, INF = np.nan, np.inf
CASES = [  # matrix, det, (sign, log |det|) as TF 2.21 gives them
    ([[NAN, 1.], [1., 1.]], NAN, (NAN, NAN)),
    ([[INF, INF], [1., 1.]], NAN, (NAN, NAN)),
    ([[INF, -INF], [1., 1.]], NAN, (NAN, NAN)),
    ([[INF, 1.], [1., 1.]], INF, (1., INF)),
    ([[1., 2.], [INF, 1.]], -INF, (-1., INF)),
    ([[0., 0.], [0., 0.]], 0., (0., -INF)),
    ([[1., NAN], [0., 1.]], NAN, (NAN, NAN)),
    ([[INF, 3., 4., 5., 6.], [3., 4., 9., 2., 0.], [2., 5., 8., 3., 8.], [1., 6., 7., 4., 7.], [2., 3., 4., 5., 6.]],
     -INF, (-1., INF)),
    ([[NAN, 3., 4., 5., 6.], [3., 4., 9., 2., 0.], [2., 5., 8., 3., 8.], [1., 6., 7., 4., 7.], [2., 3., 4., 5., 6.]],
     NAN, (NAN, NAN)),
]


@pytest.mark.parametrize("matrix, det, slogdet", CASES)
def test_non_finite_matrices_give_tensorflows_determinants(matrix, det, slogdet):
    for run in (lambda f, m: f(m), lambda f, m: tf.function(f)(tf.constant(m))):
        np.testing.assert_array_equal(run(tf.linalg.det, matrix).numpy(), np.float32(det))
        sign, log_abs = run(tf.linalg.slogdet, matrix)
        np.testing.assert_array_equal([sign.numpy(), log_abs.numpy()], np.float32(slogdet))


def test_a_batch_recomputes_only_its_non_finite_matrices():
    batch = np.array([[[1., 2.], [3., 4.]], [[NAN, 1.], [1., 1.]], [[INF, 1.], [1., 1.]]], np.float32)
    np.testing.assert_array_equal(tf.linalg.det(batch).numpy(), np.float32([-2., NAN, INF]))
    sign, log_abs = tf.linalg.slogdet(batch)
    np.testing.assert_array_equal(sign.numpy(), np.float32([-1., NAN, 1.]))
    np.testing.assert_allclose(log_abs.numpy(), np.float32([np.log(2.), NAN, INF]), rtol=1e-6)
