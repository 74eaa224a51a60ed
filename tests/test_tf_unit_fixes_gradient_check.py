"""What TensorFlow's own cholesky_op_test found (tests/tf_unit), fixed: tf.test.compute_gradient lays complex
values out as TF 2.21 does (each as its real and imaginary parts, real Jacobians). Expected values were printed
by TensorFlow 2.21 for the same calls."""

import numpy as np

import placeflow as tf


def _both(f, x):
    theoretical, numerical = tf.test.compute_gradient(f, [x])
    return theoretical[0], numerical[0]


def test_real_jacobian_is_size_of_y_by_size_of_x():
    theoretical, numerical = _both(lambda x: x[:2] * tf.constant([1.0, 2.0]), np.array([1.0, 2.0, 3.0], np.float32))
    expected = [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]]
    np.testing.assert_allclose(theoretical, expected)
    np.testing.assert_allclose(numerical, expected, atol=1e-3)
    assert theoretical.dtype == np.float32


def test_a_complex_output_gives_a_row_per_real_and_imaginary_part():
    def f(x):
        return tf.cast(x[:2], tf.complex64) * tf.constant([1 + 1j, 2], tf.complex64)
    theoretical, numerical = _both(f, np.array([1.0, 2.0, 3.0], np.float32))
    expected = [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 0.0]]
    np.testing.assert_allclose(theoretical, expected)
    np.testing.assert_allclose(numerical, expected, atol=1e-3)


def test_a_complex_input_gives_a_column_per_real_and_imaginary_part():
    theoretical, numerical = _both(lambda x: x * x, np.array([1 + 2j], np.complex64))
    np.testing.assert_allclose(theoretical, [[2.0, -4.0], [4.0, 2.0]])
    np.testing.assert_allclose(numerical, [[2.0, -4.0], [4.0, 2.0]], atol=1e-3)
    assert theoretical.dtype == np.float32 and numerical.dtype == np.float32


def test_a_non_holomorphic_function_matches_tf():
    theoretical, numerical = _both(lambda x: tf.math.conj(x) * x, np.array([1 + 2j], np.complex64))
    np.testing.assert_allclose(theoretical, [[2.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(numerical, [[2.0, 4.0], [0.0, 0.0]], atol=1e-3)


def test_the_complex_cholesky_gradient_agrees_with_differences():
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))).astype(np.complex128)

    def cholesky_of_gram(x):
        return tf.linalg.cholesky(tf.linalg.matmul(x, tf.math.conj(tf.linalg.matrix_transpose(x))) / 3.0)
    theoretical, numerical = _both(cholesky_of_gram, a)
    assert theoretical.shape == (2 * 9, 2 * 12)
    np.testing.assert_allclose(theoretical, numerical, atol=1e-6)
