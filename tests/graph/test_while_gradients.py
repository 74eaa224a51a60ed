"""Gradients through tf.while_loop in graphs: what they refuse, and loops that write the variables they read."""

import pytest

import placeflow as tf


def test_a_loop_that_writes_a_variable_reads_it_fresh_each_iteration(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    v = tf.Variable(1.0)

    @tf.function
    def doubling(n):
        def body(i):
            v.assign(v * 2.0)  # the read sees the previous iteration's write: not hoisted out of the loop
            return [i + 1]
        tf.while_loop(lambda i: i < n, body, [0])
        return v.read_value()

    assert float(doubling(tf.constant(3))) == 8.0


def test_a_loop_that_writes_variables_has_no_gradient(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    v, w = tf.Variable(1.0), tf.Variable(2.0)

    @tf.function
    def f():
        with tf.GradientTape() as tape:
            def body(y):
                v.assign_add(1.0)
                return [y * w]
            y = tf.while_loop(lambda y: y < 10.0, body, [tf.constant(1.0)])[0]
        return tape.gradient(y, w)

    with pytest.raises(LookupError, match="whose body writes variables"):
        f()


def test_a_loop_whose_variables_change_shape_has_no_gradient(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            grown = tf.while_loop(lambda b: tf.size(b) < 4, lambda b: [tf.concat([b, b], 1)], [x],
                                  shape_invariants=[tf.TensorShape([1, None])])[0]
            total = tf.reduce_sum(grown)
        return tape.gradient(total, x)

    with pytest.raises(LookupError, match=r"changes shape beyond its first dimension \(shape \(1, None\)\)"):
        f(tf.constant([[1.0]]))  # a growing first dimension (a TensorArray's rows) is supported


def test_a_loop_gradient_reaches_a_variable_read_in_the_condition_and_the_body(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    scale, limit = tf.Variable(3.0), tf.Variable(20.0)

    @tf.function
    def f():
        with tf.GradientTape() as tape:
            y = tf.while_loop(lambda y: y < limit, lambda y: [y * scale], [tf.constant(1.0)])[0]
        return y, tape.gradient(y, [scale, limit])

    y, (d_scale, d_limit) = f()
    assert float(y) == 27.0 and float(d_scale) == 27.0 and float(d_limit) == 0.0  # y = scale**3; TF 2.21: 0 for the bound


def _caching_loop_gradients(tf, traced: bool):
    """d/dw of a loop whose body caches a tensor it made in its first trace (as Keras's RNN cells cache their
    dropout masks): the gradient loops must not call the Python body again (the cache holds a tensor of the
    forward loop's body graph)."""
    w = tf.Variable([[0.5, -0.25], [0.125, 1.0]])
    cache = {}

    def body(i, h):
        if "mask" not in cache:
            cache["mask"] = tf.ones_like(h) * tf.constant([0.5, 2.0])
        return i + 1, tf.tanh(tf.matmul(h, w)) * cache["mask"] + h

    def grads():
        with tf.GradientTape() as tape:
            _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), tf.constant([[1.0, -1.0]])])
            loss = tf.reduce_sum(h * h)
        return tape.gradient(loss, w)

    return (tf.function(grads)() if traced else grads()).numpy()


def test_gradient_of_a_loop_whose_body_caches_a_tensor_of_its_first_trace(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    import numpy as np
    np.testing.assert_allclose(_caching_loop_gradients(tf, traced=True), _caching_loop_gradients(tf, traced=False),
                               rtol=1e-6)
