"""Complex input to tf.linalg's decompositions and solves, as TensorFlow 2.21 takes it (dtypes checked against it:
logdet real, slogdet's both outputs complex, svd's s real but raw Svd's complex, eigh's eigenvalues complex),
values against NumPy, gradients against TF's rules (upstream G given explicitly); MatrixSolveLs (lstsq fast=False)."""

import numpy as np
import pytest

import placeflow as tf

RNG = np.random.RandomState(7)


def _hermitian(n, dtype, batch=()):
    a = RNG.randn(*batch, n, n) + 1j * RNG.randn(*batch, n, n)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def _general(shape, dtype):
    return (RNG.randn(*shape) + 1j * RNG.randn(*shape)).astype(dtype)


def _adjoint(a):
    return np.conj(np.swapaxes(a, -1, -2))


DTYPES = [(np.complex64, 1e-4), (np.complex128, 1e-10)]


@pytest.mark.parametrize("dtype, tol", DTYPES)
def test_determinants_and_inverses(dtype, tol):
    g = _general((2, 3, 3), dtype) + 3 * np.eye(3, dtype=dtype)
    a = _hermitian(3, dtype, (2,))
    real = tf.float32 if dtype == np.complex64 else tf.float64
    logdet = tf.linalg.logdet(a)
    assert logdet.dtype == real
    np.testing.assert_allclose(logdet.numpy(), np.linalg.slogdet(a)[1], rtol=tol, atol=tol)
    sign, log_abs = tf.linalg.slogdet(g)
    assert sign.dtype == log_abs.dtype == tf.as_dtype(dtype)
    np.testing.assert_allclose(sign.numpy(), np.linalg.slogdet(g)[0], rtol=tol, atol=tol)
    np.testing.assert_allclose(log_abs.numpy(), np.linalg.slogdet(g)[1], rtol=tol, atol=tol)
    np.testing.assert_allclose(tf.linalg.det(g).numpy(), np.linalg.det(g), rtol=tol)
    np.testing.assert_allclose(tf.linalg.inv(g).numpy(), np.linalg.inv(g), rtol=tol, atol=tol)
    adjoint_inverse = tf.raw_ops.MatrixInverse(input=g, adjoint=True)
    np.testing.assert_allclose(adjoint_inverse.numpy(), _adjoint(np.linalg.inv(g)), rtol=tol, atol=tol)


@pytest.mark.parametrize("np_dtype, atol", [(np.float32, 0.05), (np.float64, 1e-5), (np.complex64, 0.05),
                                            (np.complex128, 1e-5)])
def test_logdet_and_slogdet_of_an_underflowing_determinant(np_dtype, atol):
    matrix = (np.eye(20) * 1e-6).astype(np_dtype)   # TF's own test: det underflows, log|det| does not
    sign, log_abs = tf.linalg.slogdet(matrix)
    np.testing.assert_allclose(tf.linalg.logdet(matrix).numpy(), np.linalg.slogdet(matrix)[1], atol=atol)
    np.testing.assert_allclose(log_abs.numpy(), np.linalg.slogdet(matrix)[1], atol=atol)
    np.testing.assert_allclose(sign.numpy(), 1.0, atol=atol)


@pytest.mark.parametrize("dtype, tol", DTYPES)
def test_solves(dtype, tol):
    g = _general((2, 3, 3), dtype) + 3 * np.eye(3, dtype=dtype)
    b = _general((2, 3, 2), dtype)
    a = _hermitian(3, dtype, (2,))
    np.testing.assert_allclose(tf.linalg.solve(g, b).numpy(), np.linalg.solve(g, b), rtol=tol, atol=tol)
    np.testing.assert_allclose(tf.linalg.solve(g, b, adjoint=True).numpy(), np.linalg.solve(_adjoint(g), b),
                               rtol=tol, atol=tol)
    for lower in (True, False):
        triangle = np.tril(g) if lower else np.triu(g)
        np.testing.assert_allclose(tf.linalg.triangular_solve(g, b, lower=lower).numpy(),
                                   np.linalg.solve(triangle, b), rtol=tol, atol=tol)
        np.testing.assert_allclose(tf.linalg.triangular_solve(g, b, lower=lower, adjoint=True).numpy(),
                                   np.linalg.solve(_adjoint(triangle), b), rtol=tol, atol=tol)
    factor = tf.linalg.cholesky(a)
    np.testing.assert_allclose(factor.numpy(), np.linalg.cholesky(a), rtol=tol, atol=tol)
    np.testing.assert_allclose(tf.linalg.cholesky_solve(factor, b).numpy(), np.linalg.solve(a, b), rtol=tol,
                               atol=tol)
    np.testing.assert_allclose(tf.einsum("bij,bjk->bik", g, b).numpy(), g @ b, rtol=tol, atol=tol)
    lower_upper, perm = tf.linalg.lu(g)
    np.testing.assert_allclose(tf.linalg.lu_solve(lower_upper, perm, b).numpy(), np.linalg.solve(g, b), rtol=tol,
                               atol=tol)


@pytest.mark.parametrize("dtype, tol", DTYPES)
def test_decompositions(dtype, tol):
    g = _general((2, 4, 3), dtype)
    a = _hermitian(3, dtype, (2,))
    real = tf.float32 if dtype == np.complex64 else tf.float64
    q, r = tf.linalg.qr(g)
    assert q.dtype == r.dtype == tf.as_dtype(dtype)
    np.testing.assert_allclose((q.numpy() @ r.numpy()), g, rtol=tol * 10, atol=tol * 10)
    s, u, v = tf.linalg.svd(g)
    assert s.dtype == real and u.dtype == v.dtype == tf.as_dtype(dtype)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(g, compute_uv=False), rtol=tol, atol=tol)
    np.testing.assert_allclose(u.numpy() * s.numpy()[..., None, :] @ _adjoint(v.numpy()), g, rtol=tol * 10,
                               atol=tol * 10)
    raw = tf.raw_ops.Svd(input=g, compute_uv=False)
    assert raw.s.dtype == tf.as_dtype(dtype)   # the raw op keeps the input's dtype, as TF's
    values, vectors = tf.linalg.eigh(a)
    assert values.dtype == vectors.dtype == tf.as_dtype(dtype)   # TF: complex eigenvalues (zero imaginary part)
    np.testing.assert_allclose(values.numpy().real, np.linalg.eigvalsh(a), rtol=tol, atol=tol)
    np.testing.assert_allclose(a @ vectors.numpy(), vectors.numpy() * values.numpy()[..., None, :], rtol=tol * 10,
                               atol=tol * 10)
    np.testing.assert_allclose(tf.linalg.eigvalsh(a).numpy(), values.numpy(), rtol=tol, atol=tol)
    raw_values = tf.raw_ops.SelfAdjointEigV2(input=a, compute_v=False).e
    np.testing.assert_allclose(raw_values.numpy(), values.numpy(), rtol=tol, atol=tol)
    assert tf.linalg.matrix_rank(g).numpy().tolist() == [3, 3]
    np.testing.assert_allclose(tf.norm(g, ord=2, axis=[-2, -1]).numpy(), np.linalg.norm(g, 2, axis=(-2, -1)),
                               rtol=tol)


@pytest.mark.parametrize("dtype, tol", DTYPES)
def test_gradients_follow_tfs_rules(dtype, tol):
    g = _general((3, 3), dtype) + 3 * np.eye(3, dtype=dtype)
    b = _general((3, 2), dtype)
    upstream = _general((3, 3), dtype)
    scalar_upstream = np.asarray(0.7 + 0.3j, dtype)
    inverse_h = _adjoint(np.linalg.inv(g))

    def gradient(fn, output_gradient, *values):
        xs = [tf.constant(v) for v in values]
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            y = fn(*xs)
        return [t.numpy() for t in tape.gradient(y, xs, output_gradients=tf.constant(output_gradient))]

    np.testing.assert_allclose(gradient(tf.linalg.inv, upstream, g)[0], -inverse_h @ upstream @ inverse_h,
                               rtol=tol * 10, atol=tol * 10)
    np.testing.assert_allclose(gradient(tf.linalg.det, scalar_upstream, g)[0],
                               scalar_upstream * np.linalg.det(g) * inverse_h, rtol=tol * 10, atol=tol * 10)
    np.testing.assert_allclose(gradient(lambda x: tf.linalg.slogdet(x)[1], scalar_upstream, g)[0],
                               scalar_upstream * inverse_h, rtol=tol * 10, atol=tol * 10)
    solve_upstream = _general((3, 2), dtype)
    grad_a, grad_b = gradient(tf.linalg.solve, solve_upstream, g, b)
    expected_b = np.linalg.solve(_adjoint(g), solve_upstream)
    np.testing.assert_allclose(grad_b, expected_b, rtol=tol * 10, atol=tol * 10)
    np.testing.assert_allclose(grad_a, -expected_b @ _adjoint(np.linalg.solve(g, b)), rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_lstsq_fast_and_minimum_norm(dtype):
    tall = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).astype(dtype)
    rhs = np.array([[1.0], [2.0], [4.0]]).astype(dtype)
    expected = np.linalg.lstsq(tall, rhs, rcond=None)[0]
    tol = 1e-4 if dtype == np.complex64 else 1e-10
    np.testing.assert_allclose(tf.linalg.lstsq(tall, rhs).numpy(), expected, rtol=tol, atol=tol)
    np.testing.assert_allclose(tf.linalg.lstsq(tall, rhs, fast=False).numpy(), expected, rtol=tol, atol=tol)
    wide = tall.T   # underdetermined: TF's fast path solves A^H (A A^H)^-1 b, the minimum-norm solution
    np.testing.assert_allclose(tf.linalg.lstsq(wide, rhs[:2]).numpy(), np.linalg.lstsq(wide, rhs[:2], rcond=None)[0],
                               rtol=tol, atol=tol)
    regularized = tf.linalg.lstsq(tall, rhs, l2_regularizer=0.5).numpy()
    np.testing.assert_allclose(regularized, np.linalg.solve(_adjoint(tall) @ tall + 0.5 * np.eye(2),
                                                            _adjoint(tall) @ rhs), rtol=tol, atol=tol)


def test_lstsq_of_a_rank_deficient_matrix():
    singular = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 1.0, 1.0]])
    rhs = np.array([[1.0], [2.0], [4.0]])
    assert np.isnan(tf.linalg.lstsq(singular, rhs).numpy()).all()   # TF: the Cholesky factor is NaN
    np.testing.assert_allclose(tf.linalg.lstsq(singular, rhs, fast=False).numpy(),
                               [[4.833333333], [1.333333333], [-2.166666667]], atol=1e-8)   # TF 2.21's values
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank deficient or ill-conditioned"):
        tf.raw_ops.MatrixSolveLs(matrix=singular, rhs=rhs, l2_regularizer=tf.constant(0.0, tf.float64))


def test_matrix_solve_ls_errors_and_gradient():
    a, b = np.ones((3, 2)), np.ones((3, 1))
    l2 = tf.constant(0.0, tf.float64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix and rhs are incompatible"):
        tf.raw_ops.MatrixSolveLs(matrix=a, rhs=b[:2], l2_regularizer=l2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"l2_regularizer must be scalar, got shape \[1\]"):
        tf.raw_ops.MatrixSolveLs(matrix=a, rhs=b, l2_regularizer=tf.constant([0.0], tf.float64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a double tensor"):
        tf.raw_ops.MatrixSolveLs(matrix=a, rhs=b, l2_regularizer=tf.constant(0.0, tf.float32))
    with pytest.raises(tf.errors.NotFoundError):
        tf.linalg.lstsq(a.astype(np.float16), b.astype(np.float16), fast=False)
    with pytest.raises(NotImplementedError, match="disabled for complex128 and l2_regularizer != 0"):
        tf.linalg.lstsq(a.astype(np.complex128), b.astype(np.complex128), l2_regularizer=0.1)
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.linalg.lstsq(x, b, fast=False))
    with pytest.raises(ValueError, match="Gradient not defined for fast=False"):
        tape.gradient(y, x)


def test_complex_inputs_tf_refuses():
    with pytest.raises(TypeError, match=r"Input `a` must have `float`-like `dtype` \(saw complex64\)"):
        tf.linalg.pinv(_general((2, 2), np.complex64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of complex128 is not in the list"):
        tf.linalg.cross(tf.constant([1j, 2, 3]), tf.constant([1j, 2, 3]))
    with pytest.raises(TypeError, match="Value passed to parameter 'a' has DataType complex128"):
        tf.function(lambda: tf.linalg.cross(tf.constant([1j, 2, 3]), tf.constant([1j, 2, 3])))()


def test_complex_linalg_inside_a_function():
    a = _hermitian(3, np.complex128)
    traced = tf.function(lambda m: (tf.linalg.logdet(m), tf.linalg.eigvalsh(m), tf.linalg.svd(m, compute_uv=False)))
    logdet, values, singular = traced(tf.constant(a))
    assert logdet.dtype == tf.float64 and values.dtype == tf.complex128 and singular.dtype == tf.float64
    np.testing.assert_allclose(logdet.numpy(), np.linalg.slogdet(a)[1], rtol=1e-10)
    np.testing.assert_allclose(np.sort(singular.numpy()), np.sort(values.numpy().real), rtol=1e-10)


def test_the_gradient_of_an_adjoint_inverse_is_tensorflows():
    """TF 2.21: d/dA sum(inv(A, adjoint=True) * W) for A = [[2, 1], [0.5, 3]], W = [[1, 2], [3, 4]]. (The adjoint
    inverse is what the determinants' gradients emit: their second derivatives depend on this rule.)"""
    a = tf.Variable(np.array([[2., 1.], [0.5, 3.]]))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.inv(a, adjoint=True) * [[1., 2.], [3., 4.]])
    np.testing.assert_allclose(tape.gradient(y, a).numpy(), [[0.03305785, -0.42975207], [-0.1322314, -0.28099174]],
                               rtol=1e-6)
