"""Variable updates write in place when no read is alive (TensorFlow's copy-on-write), readers never see a
half-written buffer, and gradient tapes keep only what gradients read."""

import gc
import threading

import numpy as np

import placeflow as tf

MIB = 1 << 20


def test_an_update_writes_in_place_unless_a_read_is_alive(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    v = tf.Variable(np.ones((512, 512), np.float32))
    buffer = v._value.__array_interface__["data"][0]
    v.assign_sub(tf.ones([512, 512]))
    assert v._value.__array_interface__["data"][0] == buffer          # written into its own buffer
    read = v.read_value()
    v.assign_add(tf.fill([512, 512], 3.0))                             # a live read: a new buffer
    assert v._value.__array_interface__["data"][0] != buffer
    np.testing.assert_array_equal(read.numpy(), np.zeros((512, 512), np.float32))
    np.testing.assert_array_equal(v.numpy(), np.full((512, 512), 3.0, np.float32))


def test_an_update_inside_a_function_follows_the_same_rule(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    v = tf.Variable(np.ones((512, 512), np.float32))

    @tf.function
    def step():
        before = v.read_value() * 1.0   # the read dies at the Mul, before the update: in place
        v.assign_sub(before * 0.5)
        return v.read_value()

    buffer = v._value.__array_interface__["data"][0]
    out = step()
    np.testing.assert_array_equal(out.numpy(), np.full((512, 512), 0.5, np.float32))
    assert v._value.__array_interface__["data"][0] == buffer
    kept = out                          # the returned read is alive: the next update copies
    step()
    np.testing.assert_array_equal(kept.numpy(), np.full((512, 512), 0.5, np.float32))
    np.testing.assert_array_equal(v.numpy(), np.full((512, 512), 0.25, np.float32))


def test_readers_never_see_a_half_written_update(make_context):
    make_context()
    v = tf.Variable(np.zeros(1 << 20, np.float32))   # 4 MiB: NumPy releases the GIL while it adds
    torn, done = [], threading.Event()

    def read():
        while not done.is_set():
            value = v.numpy()
            if value[0] != value[-1]:
                torn.append((value[0], value[-1]))

    readers = [threading.Thread(target=read) for _ in range(2)]
    for thread in readers:
        thread.start()
    for _ in range(200):
        v.assign_add(tf.ones([1 << 20]))
    done.set()
    for thread in readers:
        thread.join(60)
    assert torn == [] and float(v.numpy()[0]) == 200.0


def test_a_tape_keeps_only_the_values_gradients_read(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    x = tf.Variable(np.full((1024, 1024), 0.5, np.float32))            # 4 MiB each below
    gc.collect()
    base = tf.config.experimental.get_memory_info("GPU:0")["current"]
    with tf.GradientTape() as tape:
        y = tf.tanh(x * 2.0 + 1.0)      # Mul and AddV2 read no values for their gradients; Tanh its output
        loss = tf.reduce_sum(y)
    held = tf.config.experimental.get_memory_info("GPU:0")["current"] - base
    assert held <= 4 * MIB + 1024       # y alone (x * 2.0 and x * 2.0 + 1.0 are gone), and scalars
    grad = tape.gradient(loss, x)
    expected = (1 - np.tanh(np.float32(2.0))**2) * 2.0
    np.testing.assert_allclose(grad.numpy(), np.full((1024, 1024), expected, np.float32), rtol=1e-6)
    assert tape._keys == {} and tape._entries == []                     # a used non-persistent tape holds nothing
