"""Graph steps spend memory as TensorFlow's executor does: each value is freed after its last reader, an
elementwise op writes into a dying input (forwarding), and nothing of a step outlives it but its outputs
and state. One test per runner (inline step, per-device programs, dataflow runner) and for loop and
branch bodies; measured on simulated GPUs, whose BFC books count every buffer."""

import gc

import numpy as np
import pytest

import placeflow as tf
from placeflow.config.context import context
from placeflow.runtime import registry

MIB = 1 << 20
SIDE = 1024                      # a 1024x1024 float32 tensor: 4 MiB
BUFFER = SIDE * SIDE * 4


def _chain(x, ops=10):
    for i in range(ops):
        x = x * 1.0001 if i % 2 == 0 else x + 0.0001
    return x


def _chain_numpy(x, ops=10):
    for i in range(ops):
        x = x * np.float32(1.0001) if i % 2 == 0 else x + np.float32(0.0001)
    return x


def _step_figures(step, devices):
    """{device: (peak above resident, bytes held by the result, bytes left after dropping it)} of the third call."""
    for _ in range(2):
        result = step()
        del result
    gc.collect()
    resident = {d: tf.config.experimental.get_memory_info(d)["current"] for d in devices}
    for d in devices:
        tf.config.experimental.reset_memory_stats(d)
    result = step()
    figures = {d: [tf.config.experimental.get_memory_info(d)["peak"] - resident[d],
                   tf.config.experimental.get_memory_info(d)["current"] - resident[d]] for d in devices}
    del result
    gc.collect()
    for d in devices:
        figures[d].append(tf.config.experimental.get_memory_info(d)["current"] - resident[d])
    return {d: tuple(v) for d, v in figures.items()}


def _data(seed=0):
    return np.random.RandomState(seed).rand(SIDE, SIDE).astype(np.float32)


def test_inline_step_holds_one_buffer_for_a_ten_op_chain(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    data = _data()
    x = tf.constant(data)
    chain = tf.function(_chain)
    peak, held, left = _step_figures(lambda: chain(x), ["GPU:0"])["GPU:0"]
    assert (peak, held, left) == (BUFFER, BUFFER, 0)   # TF: 16 MiB for the 16 MiB chain (the recording)
    np.testing.assert_array_equal(chain(x).numpy(), _chain_numpy(data))
    np.testing.assert_array_equal(x.numpy(), data)       # the caller's tensor is never written into
    plan = chain.get_concrete_function(x)._plan
    assert not plan.parallel and "; del v" in plan.inline.source


def test_forwarding_never_writes_a_buffer_anything_else_holds(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    data = _data(1)
    x = tf.constant(data)
    v = tf.Variable(data)
    const = tf.constant(data * 2)

    @tf.function
    def step(x):
        inner = x * 2.0                 # fetched below: must keep its value
        from_var = v * 1.0 + 1.0        # the read dies at the Mul: the variable's buffer must not be written
        with_const = const * 3.0        # a captured constant
        return inner, inner + 1.0, from_var, with_const, x + 0.0

    for _ in range(3):
        inner, plus, from_var, with_const, same = step(x)
        np.testing.assert_array_equal(inner.numpy(), data * 2)
        np.testing.assert_array_equal(plus.numpy(), data * 2 + 1)
        np.testing.assert_array_equal(from_var.numpy(), data * np.float32(1.0) + np.float32(1.0))
        np.testing.assert_array_equal(with_const.numpy(), (data * 2) * np.float32(3.0))
        np.testing.assert_array_equal(same.numpy(), data)
    np.testing.assert_array_equal(v.numpy(), data)
    np.testing.assert_array_equal(x.numpy(), data)
    np.testing.assert_array_equal(const.numpy(), data * 2)


def test_the_dataflow_runner_never_writes_a_buffer_anything_else_holds(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    data = _data(8)
    x = tf.constant(data)
    v = tf.Variable(data)

    @tf.function
    def step(x):
        busy = tf.matmul(x, x), tf.matmul(x, x * 0.5)  # two expensive nodes: the dataflow runner takes the step
        doubled = x * 2.0
        flat = tf.reshape(doubled, [-1])             # a view of doubled's buffer, fetched
        plus = doubled + 1.0                         # doubled dies here, but the view still holds its buffer
        from_var = v * 1.0 + 1.0                     # the read dies at the Mul: the variable's buffer stays
        inner = x * 3.0
        return busy, flat, plus, from_var, inner, inner - 1.0, x + 0.0

    for _ in range(3):
        _, flat, plus, from_var, inner, less, same = step(x)
        np.testing.assert_array_equal(flat.numpy(), (data * 2).reshape(-1))
        np.testing.assert_array_equal(plus.numpy(), data * 2 + 1)
        np.testing.assert_array_equal(from_var.numpy(), data * np.float32(1.0) + np.float32(1.0))
        np.testing.assert_array_equal(inner.numpy(), data * 3)
        np.testing.assert_array_equal(less.numpy(), data * 3 - 1)
        np.testing.assert_array_equal(same.numpy(), data)
    plan = step.get_concrete_function(x)._plan
    assert plan.parallel and not plan.per_device
    np.testing.assert_array_equal(v.numpy(), data)
    np.testing.assert_array_equal(x.numpy(), data)


def test_session_step_frees_at_last_use_and_forwards(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    data = _data(2)
    with tf.compat.v1.Graph().as_default():
        feed = tf.compat.v1.placeholder(tf.float32, [SIDE, SIDE])
        with tf.device("/GPU:0"):
            out = tf.reduce_sum(_chain(tf.identity(feed)))
        sess = tf.compat.v1.Session()
        peak, held, left = _step_figures(lambda: sess.run(out, feed_dict={feed: data}), ["GPU:0"])["GPU:0"]
    # the fed value copied to the GPU, then one buffer the chain writes in place (and the scalar sum's chunk)
    assert 2 * BUFFER <= peak <= 2 * BUFFER + 256 and held == 0 and left == 0


def test_per_device_programs_free_values_on_each_device(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    with tf.device("/GPU:0"):
        x0 = tf.constant(_data(3))
    with tf.device("/GPU:1"):
        x1 = tf.constant(_data(4))

    @tf.function
    def towers(x0, x1):
        with tf.device("/GPU:0"):
            a = _chain(tf.matmul(x0, x0))
        with tf.device("/GPU:1"):
            b = _chain(tf.matmul(x1, x1))
        return a, b

    figures = _step_figures(lambda: towers(x0, x1), ["GPU:0", "GPU:1"])
    plan = towers.get_concrete_function(x0, x1)._plan
    assert plan.per_device
    for device in ("GPU:0", "GPU:1"):
        assert figures[device] == (BUFFER, BUFFER, 0), device  # the product, written in place by the chain


def test_dataflow_runner_drops_each_value_after_its_last_reader_and_forwards(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    x = tf.constant(_data(5))

    @tf.function
    def branches(x):
        left = _chain(tf.matmul(x, x), 6)
        right = _chain(tf.matmul(x, x * 0.5), 6)
        return tf.reduce_sum(left) + tf.reduce_sum(right)

    peak, held, left = _step_figures(lambda: branches(x), ["GPU:0"])["GPU:0"]
    plan = branches.get_concrete_function(x)._plan
    assert plan.parallel and not plan.per_device
    # each branch holds at most its input and its output at a time
    assert peak <= 5 * BUFFER and left == 0
    allocator = registry.find(context(), "/job:localhost/replica:0/task:0/device:GPU:0").memory.allocator
    before = allocator.stats()["num_allocs"]
    branches(x)
    # x * 0.5, the two products, 2 scalar sums, their sum: each chain writes into its product (forwarding)
    assert allocator.stats()["num_allocs"] - before == 6
    expected = 0.0
    for y in (_data(5) @ _data(5), _data(5) @ (_data(5) * np.float32(0.5))):
        expected += float(_chain_numpy(y, 6).sum(dtype=np.float64))
    assert float(branches(x)) == pytest.approx(expected, rel=1e-5)


def test_loop_and_branch_bodies_free_at_last_use(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    data = _data(6)
    x = tf.constant(data)

    @tf.function
    def loop(x):
        return tf.while_loop(lambda i, y: i < 20, lambda i, y: (i + 1, _chain(y)), (tf.constant(0), x))[1]

    @tf.function
    def branch(x, p):
        return tf.cond(p > 0, lambda: _chain(x), lambda: x * 2.0)

    expected = data
    for _ in range(20):
        expected = _chain_numpy(expected)
    np.testing.assert_allclose(loop(x).numpy(), expected, rtol=1e-6)
    for step in (lambda: loop(x), lambda: branch(x, tf.constant(1.0))):
        figures = _step_figures(step, ["CPU:0", "GPU:0"])
        # 20 iterations of a 10-op chain made 200 buffers; each device holds at most two at a time
        for device, (peak, _, left) in figures.items():
            assert peak <= 2 * BUFFER + MIB and left == 0, (device, figures)


def test_a_function_fits_where_the_same_code_fits_eagerly(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:24MiB")
    x = tf.constant(_data(7))                                   # 4 MiB resident
    eager = _chain(x, 40)                                       # fits eagerly: at most three buffers at once
    traced = tf.function(lambda x: _chain(x, 40))(x)            # 40 intermediates of 4 MiB would be 160 MiB
    np.testing.assert_array_equal(traced.numpy(), eager.numpy())


def test_a_tape_inside_a_function_frees_forward_values_after_their_last_backward_use(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    w = tf.Variable(_data(8) * 0.01)
    x = tf.constant(_data(9))

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            h = x
            for _ in range(6):
                h = tf.nn.relu(tf.matmul(h, w))
            loss = tf.reduce_sum(h)
        w.assign_sub(0.001 * tape.gradient(loss, w))
        return loss

    peak, held, left = _step_figures(lambda: step(x), ["GPU:0"])["GPU:0"]
    assert left == 0
    # The step makes 31 buffers of 4 MiB. Alive at the peak: the six ReLU outputs the backward pass reads, the
    # six partial gradients of w (summed by one AddN, TF's default aggregation) and two in flight.
    assert peak <= 14 * BUFFER
