"""Linear-algebra behaviours TensorFlow's linalg_ops_test checks (tests/tf_unit found them): eigh_tridiagonal's
value selection, complex inputs and eigenvectors; pinv with a batch of rcond; lu_solve broadcasting."""

import numpy as np
import pytest

import placeflow as tf


def test_eigh_tridiagonal_value_range_keeps_its_endpoints_as_tf_does():
    np.random.seed(0)
    alpha, beta = np.random.uniform(size=4), np.random.uniform(size=3)
    everything = tf.linalg.eigh_tridiagonal(alpha, beta, select="a").numpy()
    np.testing.assert_allclose(everything, np.linalg.eigvalsh(np.diag(alpha) + np.diag(beta, 1) + np.diag(beta, -1)),
                               atol=1e-12)
    for first, last in ((0, 1), (0, 2), (1, 2)):
        chosen = tf.linalg.eigh_tridiagonal(alpha, beta, select="v", select_range=(everything[first], everything[last]))
        np.testing.assert_allclose(chosen.numpy(), everything[first:last + 1], atol=1e-12)
        by_index = tf.linalg.eigh_tridiagonal(alpha, beta, select="i", select_range=(first, last))
        np.testing.assert_allclose(by_index.numpy(), everything[first:last + 1], atol=1e-12)
    with pytest.raises(ValueError, match="select must be"):
        tf.linalg.eigh_tridiagonal(alpha, beta, select="x")


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_eigh_tridiagonal_eigenvectors(dtype):
    n = 8
    rng = np.random.RandomState(1)
    alpha = rng.uniform(size=n).astype(dtype)
    beta = rng.uniform(size=n - 1).astype(dtype)
    if np.iscomplexobj(beta):
        beta = beta + 1j * rng.uniform(size=n - 1).astype(dtype)
    matrix = np.diag(alpha) + np.diag(beta, 1) + np.diag(np.conj(beta), -1)
    values, vectors = tf.linalg.eigh_tridiagonal(alpha, beta, eigvals_only=False)
    eps = np.finfo(dtype).eps
    assert values.dtype == tf.as_dtype(dtype).real_dtype and vectors.dtype == tf.as_dtype(dtype)
    np.testing.assert_allclose(values.numpy(), np.linalg.eigvalsh(matrix), atol=n * eps * 4)
    v = vectors.numpy()
    assert np.abs(v.conj().T @ v - np.eye(n)).max() < 2 * np.sqrt(n) * eps          # TF's test tolerance
    assert np.abs(matrix @ v - v * values.numpy()).max() < n * eps * np.abs(values.numpy()).max()


def test_eigh_tridiagonal_of_a_hermitian_matrix_has_real_eigenvalues():
    values = tf.linalg.eigh_tridiagonal(np.ones(3, np.complex64), (1 + 1j) * np.ones(2, np.complex64))
    assert values.dtype == tf.float32
    np.testing.assert_allclose(values.numpy(), [-1.0, 1.0, 3.0], atol=1e-6)   # TF 2.21: [-1.0000002 0.9999998 3.]


def test_pinv_takes_one_rcond_per_matrix():
    a = np.array([[1., .4, .5], [.4, .2, .25], [.5, .25, .35]])
    batch = np.stack([a + 1., a], axis=0)
    rcond = np.array([0., 0.01])
    expected = np.stack([np.linalg.pinv(batch[i], rcond=rcond[i]) for i in range(2)])
    np.testing.assert_allclose(tf.linalg.pinv(batch, rcond).numpy(), expected, atol=1e-12)
    np.testing.assert_allclose(tf.linalg.pinv(a, 0.01).numpy(), np.linalg.pinv(a, rcond=0.01), atol=1e-12)


def test_lu_solve_broadcasts_the_right_hand_side_over_the_batch():
    x = np.array([[[1, 2], [3, 4]], [[7, 8], [3, 4]], [[0.25, 0.5], [0.75, -2.]]], dtype=np.float32)
    rhs = np.array([[1, 1]], dtype=np.float32).T
    lower_upper, perm = tf.linalg.lu(x)
    assert perm.numpy().tolist() == [[1, 0], [0, 1], [1, 0]]
    solved = tf.linalg.lu_solve(lower_upper, perm, rhs)
    assert solved.shape == (3, 2, 1)
    np.testing.assert_allclose(solved.numpy(), np.linalg.solve(x, rhs[np.newaxis]), rtol=1e-5)
