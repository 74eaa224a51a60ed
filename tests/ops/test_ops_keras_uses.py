"""Ops and API that Keras 3's layers reach, each checked against NumPy on its own."""

import numpy as np
import pytest

import placeflow as tf


@pytest.mark.parametrize("equation, spelled, x_shape, k_shape", [
    ("bc...,cd->bd...", "bcXY,cd->bdXY", (2, 1, 2, 3), (1, 4)),
    ("...a,abc->...bc", "XYa,abc->XYbc", (2, 3, 4), (4, 2, 5)),
    ("ab...,bcd->acd...", "abX,bcd->acdX", (2, 3, 5), (3, 2, 4))])
def test_einsum_gradients_with_an_ellipsis(equation, spelled, x_shape, k_shape):
    rng = np.random.default_rng(0)
    x, k = rng.random(x_shape).astype(np.float32), rng.random(k_shape).astype(np.float32)
    xt, kt = tf.constant(x), tf.Variable(k)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xt)
        loss = tf.reduce_sum(tf.einsum(equation, xt, kt) ** 2)
    grad_k, grad_x = tape.gradient(loss, [kt, xt])
    y = np.einsum(spelled, x, k)
    inputs, output = spelled.split("->")
    left, right = inputs.split(",")
    np.testing.assert_allclose(grad_k.numpy(), np.einsum(f"{output},{left}->{right}", 2 * y, x), rtol=1e-5)
    np.testing.assert_allclose(grad_x.numpy(), np.einsum(f"{output},{right}->{left}", 2 * y, k), rtol=1e-5)


def test_roll_and_repeat_match_numpy_and_roll_has_a_gradient():
    a = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(tf.roll(a, [1, -1], [0, 1]).numpy(), np.roll(a, [1, -1], [0, 1]))
    np.testing.assert_array_equal(tf.repeat(a, [1, 0, 2], axis=0).numpy(), np.repeat(a, [1, 0, 2], axis=0))
    np.testing.assert_array_equal(tf.repeat(a, 2).numpy(), np.repeat(a, 2))
    v = tf.Variable(np.arange(4.0))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.roll(v, 1, 0) * tf.constant([1.0, 2.0, 3.0, 4.0], tf.float64))
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [2.0, 3.0, 4.0, 1.0])


def test_depthwise_separable_and_transposed_convolutions_match_numpy():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(1, 5, 5, 2)).astype(np.float32)
    w = rng.normal(size=(3, 3, 2, 2)).astype(np.float32)
    out = tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID").numpy()
    expected = np.zeros((1, 3, 3, 4), np.float32)
    for c in range(2):
        for m in range(2):
            for i in range(3):
                for j in range(3):
                    expected[0, i, j, c * 2 + m] = (x[0, i:i + 3, j:j + 3, c] * w[:, :, c, m]).sum()
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    pointwise = rng.normal(size=(1, 1, 4, 3)).astype(np.float32)
    separable = tf.nn.separable_conv2d(x, w, pointwise, [1, 1, 1, 1], "VALID").numpy()
    np.testing.assert_allclose(separable, expected @ pointwise[0, 0], rtol=1e-4, atol=1e-5)
    up = tf.nn.conv_transpose(tf.ones([1, 4, 2]), tf.ones([3, 5, 2]), [1, 8, 5], 2, "SAME")
    assert up.shape == (1, 8, 5)
    dilated = tf.nn.convolution(x, w, padding="VALID", dilations=2).numpy()
    spread = np.zeros((5, 5, 2, 2), np.float32)
    spread[::2, ::2] = w
    np.testing.assert_allclose(dilated, tf.nn.conv2d(x, spread, 1, "VALID").numpy(), rtol=1e-6)


def test_is_tensor_follows_tensorflow():
    assert tf.is_tensor(tf.constant(1.0)) and tf.is_tensor(tf.Variable(1.0))
    assert tf.is_tensor(tf.SparseTensor([[0]], [1.0], [2]))
    assert tf.is_tensor(tf.IndexedSlices(tf.ones([1, 2]), tf.constant([0]), tf.constant([3, 2])))
    assert not tf.is_tensor(np.ones(2)) and not tf.is_tensor(1.0)


def test_map_fn_and_vectorized_map():
    np.testing.assert_array_equal(tf.map_fn(lambda r: tf.reduce_sum(r), tf.ones([3, 4])).numpy(), [4.0] * 3)
    pair = (tf.ones([2, 3]), 2.0 * tf.ones([2, 3]))
    np.testing.assert_array_equal(tf.vectorized_map(lambda p: p[0] + p[1], pair).numpy(), np.full((2, 3), 3.0))
    with pytest.raises(TypeError, match="fn_output_signature"):
        tf.map_fn(lambda r: r * 2, tf.ones([2]), fn_output_signature=tf.int32)


def test_small_tensorflow_helpers_keras_reaches():
    assert tf.sequence_mask([1, 3], 4).numpy().tolist() == [[True, False, False, False], [True, True, True, False]]
    assert tf.sequence_mask([1, 2], dtype=tf.float32).numpy().tolist() == [[1.0, 0.0], [1.0, 1.0]]
    assert tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([3])) == [2, 3]
    assert tf.broadcast_dynamic_shape([2, 1], [3]).numpy().tolist() == [2, 3]
    with pytest.raises(ValueError, match="Incompatible shapes"):
        tf.broadcast_static_shape(tf.TensorShape([2]), tf.TensorShape([3]))
    assert tf.ensure_shape(tf.ones([2, 3]), [None, 3]).shape == (2, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not compatible"):
        tf.ensure_shape(tf.ones([2, 3]), [None, 4])
    assert int(tf.math.mod(-7, 3)) == 2 and float(tf.math.softsign(1.0)) == 0.5
    np.testing.assert_array_equal(tf.linalg.adjoint(tf.constant([[1.0, 2.0], [3.0, 4.0]])).numpy(), [[1, 3], [2, 4]])
    assert tf.as_string(tf.constant([1.5])).numpy().tolist() == [b"1.500000"]
    counts = tf.math.bincount(tf.constant([[1, 1, 3], [0, 0, 0]]), axis=-1, minlength=5)  # recorded from TF 2.21
    assert counts.numpy().tolist() == [[0, 2, 0, 1, 0], [3, 0, 0, 0, 0]]
    binary = tf.math.bincount(tf.constant([[1, 1, 3], [0, 0, 0]]), axis=-1, binary_output=True, maxlength=3)
    assert binary.numpy().tolist() == [[0, 1, 0], [1, 0, 0]]


def test_image_resize_is_linear_per_axis_with_gradients_and_tf_dtypes():
    images = tf.constant(np.arange(24, dtype=np.float32).reshape(1, 4, 3, 2))
    with tf.GradientTape() as tape:
        tape.watch(images)
        out = tf.image.resize(images, (8, 6))
        total = tf.reduce_sum(out)
    assert out.shape == (1, 8, 6, 2) and out.dtype == tf.float32
    # enlarging by 2 with half-pixel centres spreads each input pixel over 4 outputs: every gradient is 4
    np.testing.assert_allclose(tape.gradient(total, images).numpy(), np.full((1, 4, 3, 2), 4.0), rtol=1e-6)
    assert tf.image.resize(np.zeros((3, 4, 1), np.uint8), (6, 2), method="nearest").dtype == tf.uint8
    assert tf.image.resize(np.zeros((3, 4, 1), np.uint8), (6, 2)).dtype == tf.float32
    with pytest.raises(NotImplementedError, match="lanczos3"):
        tf.image.resize(images, (2, 2), method=tf.image.ResizeMethod.LANCZOS3)


def test_projective_transform_identity_and_shift_with_fill():
    images = np.arange(12, dtype=np.float32).reshape(1, 3, 4, 1)
    identity = [[1, 0, 0, 0, 1, 0, 0, 0]]
    same = tf.raw_ops.ImageProjectiveTransformV3(images=images, transforms=tf.constant(identity, tf.float32),
                                                 output_shape=[3, 4], fill_value=0.0, interpolation="NEAREST")
    np.testing.assert_array_equal(same.numpy(), images)
    shifted = tf.raw_ops.ImageProjectiveTransformV3(  # output (x, y) reads input (x + 1, y): a shift left
        images=images, transforms=tf.constant([[1, 0, 1, 0, 1, 0, 0, 0]], tf.float32), output_shape=[3, 4],
        fill_value=-1.0, interpolation="BILINEAR", fill_mode="CONSTANT")
    assert shifted.numpy()[0, :, :, 0].tolist() == [[1, 2, 3, -1], [5, 6, 7, -1], [9, 10, 11, -1]]
    for layer in (tf.keras.layers.RandomRotation(0.2, seed=1), tf.keras.layers.RandomZoom(0.2, seed=1)):
        assert layer(np.ones((2, 8, 8, 3), np.float32), training=True).shape == (2, 8, 8, 3)


@pytest.mark.parametrize("traced", [False, True])
def test_matmul_gradient_sums_over_the_batch_a_matrix_was_broadcast_along(traced):
    rng = np.random.default_rng(0)
    a, b = rng.random((2, 7, 3)).astype(np.float32), rng.random((3, 5)).astype(np.float32)
    at, bt = tf.constant(a), tf.Variable(b)

    def grads():
        with tf.GradientTape() as tape:
            tape.watch(at)
            loss = tf.reduce_sum(tf.matmul(at, bt) ** 2)
        return tape.gradient(loss, [at, bt])
    grad_a, grad_b = (tf.function(grads) if traced else grads)()
    y = a @ b
    assert grad_b.shape == (3, 5)  # Keras's EinsumDense multiplies a batch by a kernel this way
    np.testing.assert_allclose(grad_b.numpy(), np.einsum("bij,bik->jk", a, 2 * y), rtol=1e-5)
    np.testing.assert_allclose(grad_a.numpy(), 2 * y @ b.T, rtol=1e-5)
