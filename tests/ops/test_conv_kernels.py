"""The host convolution and pooling kernels' fast paths against their general ones: im2col tap by tap for few
channels (ops/conv.py _columns_by_tap) and MaxPoolGrad in at most four passes a tile, ties included."""

import numpy as np
import pytest

from placeflow.framework.errors import InvalidArgumentError
from placeflow.ops import conv

RNG = np.random.default_rng(7)


def _general_columns(monkeypatch):
    monkeypatch.setattr(conv, "NARROW", 0)


@pytest.mark.parametrize("channels,groups", [(1, 1), (3, 1), (4, 2), (8, 1)])
@pytest.mark.parametrize("strides,padding", [((1, 1, 1, 1), "VALID"), ((1, 2, 2, 1), "SAME"), ((1, 2, 1, 1), "VALID"),
                                             ((1, 1, 1, 1), "SAME")])
@pytest.mark.parametrize("window", [(3, 2), (1, 1), (5, 8)])
def test_narrow_convolutions_and_filter_gradients_equal_the_general_im2col(monkeypatch, channels, groups, strides,
                                                                             padding, window):
    x = RNG.normal(size=(3, 9, 8, channels)).astype(np.float32)
    w = RNG.normal(size=window + (channels // groups, 4)).astype(np.float32)
    fast = conv._conv2d(np, x, w, strides=strides, padding=padding)
    g = RNG.normal(size=fast.shape).astype(np.float32)
    fast_filter = conv._conv2d_backprop_filter(np, x, g, filter_sizes=w.shape, strides=strides, padding=padding)
    _general_columns(monkeypatch)
    np.testing.assert_allclose(fast, conv._conv2d(np, x, w, strides=strides, padding=padding), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(fast_filter, conv._conv2d_backprop_filter(np, x, g, filter_sizes=w.shape,
                                                                         strides=strides, padding=padding),
                               rtol=1e-5, atol=1e-5)
    assert fast.dtype == np.float32 and fast_filter.shape == w.shape


def test_an_integer_convolution_with_few_channels_stays_exact():
    x = RNG.integers(-5, 5, size=(2, 5, 5, 2)).astype(np.int32)
    w = RNG.integers(-3, 3, size=(2, 2, 2, 3)).astype(np.int32)
    out = conv._conv2d(np, x, w)
    expected = sum(x[:, i:i + 4, j:j + 4, :] @ w[i, j] for i in range(2) for j in range(2))
    assert out.dtype == np.int32 and np.array_equal(out, expected)


def _first_maximum_grad(x, g, k):
    """MaxPoolGrad by loops: each k x k window's gradient to its first maximum in row-major order."""
    out = np.zeros_like(x)
    for n in range(x.shape[0]):
        for r in range(g.shape[1]):
            for c in range(g.shape[2]):
                for ch in range(x.shape[3]):
                    window = x[n, r * k:(r + 1) * k, c * k:(c + 1) * k, ch].reshape(-1)
                    first = int(np.argmax(window)) if not np.isnan(window).any() else int(np.argmax(np.isnan(window)))
                    out[n, r * k + first // k, c * k + first % k, ch] += g[n, r, c, ch]
    return out


def _pool_grad(x, g, given_output, **attrs):
    """MaxPoolGrad as MaxPool's gradient runs it, (x, MaxPool(x), g), or as tf.raw_ops does, (x, g)."""
    if given_output:
        return conv._max_pool_grad(np, x, conv._max_pool(np, x, **attrs), g, **attrs)
    return conv._max_pool_grad(np, x, g, **attrs)


@pytest.mark.parametrize("given_output", [True, False])
@pytest.mark.parametrize("size", [8, 9])
@pytest.mark.parametrize("strides", [(1, 2, 2, 1), (1, 1, 1, 1)])
def test_max_pool_grad_gives_each_window_to_its_first_maximum(size, given_output, strides):
    x = RNG.normal(size=(2, size, size, 3)).astype(np.float32)
    x[:, :4, :4] = np.maximum(x[:, :4, :4], 0)   # ties of ReLU's zeros, and a margin at size 9
    attrs = dict(ksize=(1, 2, 2, 1), strides=strides, padding="VALID")
    g = RNG.normal(size=conv._max_pool(np, x, **attrs).shape).astype(np.float32)
    expected = _first_maximum_grad(x, g, 2) if strides[1] == 2 else _pool_grad(x, g, False, **attrs)
    np.testing.assert_array_equal(_pool_grad(x, g, given_output, **attrs), expected)


def test_max_pool_grad_refuses_a_wrong_number_of_inputs():
    x = np.zeros((1, 2, 2, 1), np.float32)
    with pytest.raises(InvalidArgumentError, match=r"\(orig_input, orig_output, grad\), got 4 inputs"):
        conv._max_pool_grad(np, x, x, x, x, ksize=(1, 2, 2, 1), strides=(1, 2, 2, 1), padding="VALID")


@pytest.mark.parametrize("given_output", [True, False])
def test_ties_give_the_gradient_to_the_first_maximum_and_a_nan_window_to_none(given_output):
    """ReLU's zeros tie whole windows: only the first entry of each takes the window's gradient."""
    x = RNG.normal(size=(1, 4, 4, 1)).astype(np.float32)
    x[0, 0, 0, 0] = x[0, 0, 1, 0] = 5.0       # a tie in the first window
    x[0, 2, 2, 0] = np.nan                     # a NaN in the last
    attrs = dict(ksize=(1, 2, 2, 1), strides=(1, 2, 2, 1), padding="VALID")
    g = np.arange(1, 5, dtype=np.float32).reshape(1, 2, 2, 1)
    out = _pool_grad(x, g, given_output, **attrs)
    assert out[0, 0, 0, 0] == 1.0 and out[0, 0, 1, 0] == 0.0   # the first of the tied maxima only
    assert out[0, :2, :2].sum() == 1.0 and out[0, :2, 2:].sum() == 2.0 and out[0, 2:, :2].sum() == 3.0
    assert out[0, 2:, 2:].sum() == 0.0
    zeros = np.maximum(RNG.normal(size=(2, 6, 6, 3)), 0).astype(np.float32)   # ReLU's output: tied zero windows
    zeros[:, :2, :2] = 0.0
    g = RNG.normal(size=(2, 3, 3, 3)).astype(np.float32)
    np.testing.assert_array_equal(_pool_grad(zeros, g, given_output, **attrs), _first_maximum_grad(zeros, g, 2))


@pytest.mark.parametrize("given_output", [True, False])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64"])
def test_max_pool_grad_passes_inf_and_nan_gradients_only_to_the_maxima(dtype, given_output):
    import ml_dtypes  # noqa: F401 - registers bfloat16 with NumPy
    x = np.array([[1, 2], [3, 4]], np.float32).reshape(1, 2, 2, 1).astype(dtype)
    g = np.array([np.inf], np.float32).reshape(1, 1, 1, 1).astype(dtype)
    out = _pool_grad(x, g, given_output, ksize=(1, 2, 2, 1), strides=(1, 2, 2, 1), padding="VALID")
    assert out.dtype == x.dtype
    assert np.isinf(out.astype(np.float32)[0, 1, 1, 0]) and not np.isnan(out.astype(np.float32)).any()
    assert (out.astype(np.float32).reshape(-1)[:3] == 0).all()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64"])
def test_max_pool_grad_keeps_a_finite_gradient_of_every_float_dtype(dtype):
    import ml_dtypes  # noqa: F401 - registers bfloat16 with NumPy
    x = RNG.normal(size=(2, 4, 4, 3)).astype(dtype)
    g = RNG.normal(size=(2, 2, 2, 3)).astype(dtype)
    out = conv._max_pool_grad(np, x, g, ksize=(1, 2, 2, 1), strides=(1, 2, 2, 1), padding="VALID")
    expected = _first_maximum_grad(x.astype(np.float64), g.astype(np.float64), 2)
    assert out.dtype == x.dtype
    np.testing.assert_array_equal(out.astype(np.float64), expected)


def test_max_pools_gradient_reads_the_pools_output_as_tensorflows_does():
    """MaxPoolGrad's inputs are TF's (orig_input, orig_output, grad): the pool's own output, not found again."""
    import placeflow as tf

    @tf.function
    def grad_of_pool(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            pooled = tf.nn.max_pool2d(x, 2, 2, "VALID")
            total = tf.reduce_sum(pooled * pooled)
        return tape.gradient(total, x)

    x = tf.constant(RNG.normal(size=(2, 4, 4, 3)).astype(np.float32))
    graph = grad_of_pool.get_concrete_function(x).graph
    (grad_op,) = [op for op in graph.get_operations() if op.type == "MaxPoolGrad"]
    (pool_op,) = [op for op in graph.get_operations() if op.type == "MaxPool"]
    assert len(grad_op.inputs) == 3 and grad_op.inputs[0] is pool_op.inputs[0]
    assert grad_op.inputs[1] is pool_op.outputs[0]
    pooled = conv._max_pool(np, x.numpy(), (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    np.testing.assert_array_equal(grad_of_pool(x).numpy(), _first_maximum_grad(x.numpy(), 2 * pooled, 2))
