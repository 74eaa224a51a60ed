"""The APIs added in stops 35-36 give inside placeflow.function what they give eagerly (their eager results are
recorded from TF 2.21 in their own test directories; together this covers "eager and in function")."""

import numpy as np
import pytest

import placeflow as tf

RNG = np.random.RandomState(0)
M = RNG.rand(3, 3) + 3 * np.eye(3)
VOLUME = RNG.rand(1, 4, 4, 4, 2).astype(np.float32)
SIGNAL = (RNG.rand(4, 4) + 1j * RNG.rand(4, 4)).astype(np.complex64)
SCORES = RNG.rand(2, 5).astype(np.float32)
IMAGE = RNG.rand(1, 4, 4, 1).astype(np.float32)
FILTER = RNG.rand(2, 2, 1, 1).astype(np.float32)


def _jvp(x):
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = tf.tanh(x) * x
    return acc.jvp(y)


def _hessian_through_max_pool(x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.nn.max_pool2d(x, 2, 1, "SAME") ** 2)
        g = inner.gradient(y, x)
    return outer.gradient(tf.reduce_sum(g * x), x)


CASES = {
    "linalg.sqrtm": lambda: tf.linalg.sqrtm(tf.constant(M)),
    "linalg.logm": lambda: tf.linalg.logm(tf.constant(M.astype(np.complex128))),
    "fftnd": lambda: tf.fftnd(tf.constant(SIGNAL), fft_length=[4, 4], axes=[0, 1]),
    "irfftnd(rfftnd)": lambda: tf.irfftnd(tf.rfftnd(tf.constant(SIGNAL.real), fft_length=[4, 4], axes=[0, 1]),
                                          fft_length=[4, 4], axes=[0, 1]),
    "extract_volume_patches": lambda: tf.extract_volume_patches(tf.constant(VOLUME), [1, 2, 2, 2, 1],
                                                                [1, 1, 1, 1, 1], "VALID"),
    "math.approx_max_k": lambda: tf.math.approx_max_k(tf.constant(SCORES), 2),
    "random.stateless_shuffle": lambda: tf.random.experimental.stateless_shuffle(tf.range(6), [1, 2]),
    "random.stateless_gamma": lambda: tf.random.stateless_gamma([4], [1, 2], alpha=2.0),
    "random.stateless_poisson": lambda: tf.random.stateless_poisson([3], [1, 2], lam=3.0),
    "math.sobol_sample": lambda: tf.math.sobol_sample(3, 4, skip=2),
    "audio.decode_wav(encode_wav)": lambda: tf.audio.decode_wav(tf.audio.encode_wav(tf.constant([[0.5], [-0.25]]),
                                                                                    8000)).audio,
    "sparse.sampled_addmm": lambda: tf.sparse.sampled_addmm([[0, 0], [1, 1]], tf.constant([1.0, 2.0]), [2, 2],
                                                             tf.ones([2, 3]), tf.ones([3, 2])),
    "conv": lambda: tf.conv(tf.constant(IMAGE), tf.constant(FILTER), [1, 1], "SAME"),
    "conv2d_backprop_filter_v2": lambda: tf.conv2d_backprop_filter_v2(
        tf.constant(IMAGE), tf.constant(FILTER), tf.ones([1, 4, 4, 1]), [1, 1, 1, 1], "SAME"),
    "autodiff.ForwardAccumulator": lambda: _jvp(tf.constant([0.5, -1.0, 2.0])),
    "Hessian through max_pool2d": lambda: _hessian_through_max_pool(tf.constant(IMAGE.astype(np.float64))),
    "strings.lower (ASCII)": lambda: tf.strings.lower(tf.constant(["ÀB c"])),
    "linalg.matrix_transpose(conjugate)": lambda: tf.linalg.matrix_transpose(tf.constant(SIGNAL), conjugate=True),
}


def _leaves(value):
    return [np.asarray(v.numpy() if hasattr(v, "numpy") else v) for v in tf.nest.flatten(value)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_traced_equals_eager(name):
    eager, traced = _leaves(CASES[name]()), _leaves(tf.function(CASES[name])())
    assert len(eager) == len(traced)
    for a, b in zip(eager, traced):
        assert a.dtype == b.dtype and a.shape == b.shape
        if a.dtype.kind in "fc":
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
        else:
            assert a.tolist() == b.tolist()


def test_parallel_stack_is_graph_only_as_in_tensorflow():
    with pytest.raises(RuntimeError, match="not compatible with eager execution"):
        tf.parallel_stack([tf.constant([1.0]), tf.constant([2.0])])
    stacked = tf.function(lambda: tf.parallel_stack([tf.constant([1.0]), tf.constant([2.0])]))()
    assert stacked.numpy().tolist() == [[1.0], [2.0]]
