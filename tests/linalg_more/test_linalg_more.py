"""placeflow's linalg-fft additions equal TensorFlow 2.21's recorded results (cases.py, record_tf_linalg_more.py):
floats within 1e-5 (relative or absolute; looser where a case says), everything else exactly; errors by class.
TF 2.21 has no CPU kernels for the FFTND family nor for approx_min_k (NotFoundError): their values are checked
here against NumPy's transforms and sorts instead."""

import json
import pathlib

import numpy as np
import pytest

import placeflow as tf
from tests.helpers import same_as_recorded as _same
from tests.linalg_more.cases import CASES, COMPLEX, NONSYM, TRACED_DIVERGENT, TRACED_EXCLUDED
from tests.traced_api import traced_tests

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["cases"]




def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(name):
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)


test_every_case_was_recorded_in_a_function, test_case_in_a_function_equals_tensorflow = traced_tests(
    __file__, CASES, TRACED_EXCLUDED, TRACED_DIVERGENT, _same)


Z = np.random.RandomState(3).randn(3, 4, 5) + 1j * np.random.RandomState(4).randn(3, 4, 5)
R = np.random.RandomState(6).randn(3, 4, 5)


@pytest.mark.parametrize("lengths, axes", [([3, 4, 5], [0, 1, 2]), ([4, 5], [1, 2]), ([2, 6], [-1, 0]),
                                           ([8], [1]), ([3, 2], [2, 0])])
def test_fftnd_family_equals_numpy(lengths, axes):
    z = tf.constant(Z)
    np.testing.assert_allclose(tf.fftnd(z, lengths, axes).numpy(), np.fft.fftn(Z, lengths, axes), atol=1e-10)
    np.testing.assert_allclose(tf.ifftnd(z, lengths, axes).numpy(), np.fft.ifftn(Z, lengths, axes), atol=1e-12)
    spectrum = tf.rfftnd(tf.constant(R), lengths, axes, Tcomplex=tf.complex128)
    np.testing.assert_allclose(spectrum.numpy(), np.fft.rfftn(R, lengths, axes), atol=1e-10)
    back = tf.irfftnd(spectrum, lengths, axes, Treal=tf.float64)
    np.testing.assert_allclose(back.numpy(), np.fft.irfftn(np.fft.rfftn(R, lengths, axes), lengths, axes), atol=1e-12)


def test_fftnd_family_dtypes_shapes_and_tracing():
    spectrum = tf.rfftnd(tf.constant(R, tf.float32), [4, 6], [0, 2])
    assert spectrum.dtype == tf.complex64 and spectrum.shape == (4, 4, 4)
    assert tf.irfftnd(spectrum, [4, 6], [0, 2]).dtype == tf.float32
    traced = tf.function(lambda z: tf.fftnd(z, [3, 2], [0, 1]))
    assert traced.get_concrete_function(tf.TensorSpec([3, 4, 5], tf.complex128)).structured_outputs.shape == (3, 2, 5)
    np.testing.assert_allclose(traced(tf.constant(Z)).numpy(), np.fft.fftn(Z, [3, 2], [0, 1]), atol=1e-10)


def test_fftnd_bad_axes_and_runtime_lengths_are_refused():
    z = tf.constant(Z)
    for lengths, axes in (([3, 4], [0]), ([3], [3]), ([3, 3], [1, 1]), ([-1], [0])):
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.fftnd(z, lengths, axes)
    traced = tf.function(lambda z, n: tf.fftnd(z, n, [0]))
    with pytest.raises(NotImplementedError, match="fft_length"):
        traced(z, tf.constant([3]))


def test_fftnd_family_has_no_gradient_as_in_tensorflow():
    z = tf.constant(Z)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.fftnd(z, [3, 4], [0, 1])
    with pytest.raises(LookupError, match="FFTND"):
        tape.gradient(y, z)


def test_approx_min_k_under_nn_is_exact():
    """TF 2.21 has no CPU kernel for approx_min_k (NotFoundError); placeflow's is exact, as its approx_max_k."""
    x = np.array([[1.0, 5.0, 3.0, 5.0], [4.0, 2.0, 6.0, -1.0]], np.float32)
    values, indices = tf.nn.approx_min_k(tf.constant(x), 2)
    np.testing.assert_array_equal(values.numpy(), np.sort(x, axis=1)[:, :2])
    np.testing.assert_array_equal(indices.numpy(), np.argsort(x, axis=1, kind="stable")[:, :2])


def test_inputs_the_iterations_cannot_do_accurately_are_refused():
    """Singular matrices (TF: NaN or inf) and negative real eigenvalues of complex inputs are refused by name."""
    with pytest.raises(tf.errors.UnimplementedError, match="sqrtm"):
        tf.linalg.sqrtm(tf.constant([[0.0, 1.0], [0.0, 0.0]]))
    with pytest.raises(tf.errors.UnimplementedError, match="logm"):
        tf.linalg.logm(tf.constant([[-1.0, 0.0], [0.0, 2.0]], tf.complex128))
    with pytest.raises(tf.errors.UnimplementedError, match="logm"):
        tf.linalg.logm(tf.constant([[0.0, 0.0], [0.0, 2.0]], tf.complex128))
    with pytest.raises(tf.errors.UnimplementedError, match="sqrtm"):
        tf.linalg.sqrtm(tf.constant([[-1.0, 0.0], [0.0, 2.0]], tf.complex128))


def test_sqrtm_and_logm_invert_expm():
    root = tf.linalg.sqrtm(tf.constant(NONSYM)).numpy()
    np.testing.assert_allclose(root @ root, NONSYM, atol=1e-12)
    log = tf.linalg.logm(tf.constant(COMPLEX)).numpy()
    np.testing.assert_allclose(tf.linalg.expm(tf.constant(log)).numpy(), COMPLEX, atol=1e-10)


def test_complex_sqrtm_gradient_follows_tensorflows_convention():
    """TF's convention for complex inputs is the conjugate derivative (tf.square's gradient is 2 conj(z) g), and
    placeflow's sqrtm gradient follows it. TF 2.21's own MatrixSquareRoot gradient does not (it returns the
    unconjugated derivative, recorded by hand: imaginary parts of the opposite sign): not copied."""
    w = np.arange(1, 10).reshape(3, 3) / 7.0
    a = tf.constant(COMPLEX)
    with tf.GradientTape() as tape:
        tape.watch(a)
        total = tf.reduce_sum(tf.linalg.sqrtm(a) * tf.constant(w.astype(np.complex128)))
    ours = tape.gradient(total, a).numpy()
    eps, derivative = 1e-6, np.zeros((3, 3), complex)
    for i, j in np.ndindex(3, 3):
        step = np.zeros((3, 3))
        step[i, j] = eps
        high = np.sum(w * tf.linalg.sqrtm(tf.constant(COMPLEX + step)).numpy())
        low = np.sum(w * tf.linalg.sqrtm(tf.constant(COMPLEX - step)).numpy())
        derivative[i, j] = (high - low) / (2 * eps)
    np.testing.assert_allclose(ours, np.conj(derivative), atol=1e-7)


def test_rfftnd_output_dtypes_must_be_of_their_kind():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tcomplex"):
        tf.rfftnd(tf.constant(R), [3], [0], Tcomplex=tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Treal"):
        tf.irfftnd(tf.constant(Z), [3], [0], Treal=tf.complex64)


def test_parallel_stack_runs_in_a_tf1_session():
    with tf.Graph().as_default():
        stacked = tf.parallel_stack([tf.constant([1, 2]), tf.constant([3, 4])])
        with tf.compat.v1.Session() as session:
            np.testing.assert_array_equal(session.run(stacked), [[1, 2], [3, 4]])


def test_approx_top_k_returns_tf_namedtuple_and_refuses_integers_as_tf():
    """TF 2.21 (recorded by hand): an ApproxTopK(values, indices) namedtuple; int32 operands raise
    InvalidArgumentError (ApproxTopK is defined for half, bfloat16 and float)."""
    result = tf.math.approx_max_k(tf.constant([[1.0, 5.0, 3.0]]), 2)
    assert type(result).__name__ == "ApproxTopK" and result._fields == ("values", "indices")
    assert result.values.numpy().tolist() == [[5.0, 3.0]] and result.indices.numpy().tolist() == [[1, 2]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="half, bfloat16, float"):
        tf.math.approx_max_k(tf.constant([[1, 5, 3]]), 2)
