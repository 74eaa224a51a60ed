"""An out-of-memory error inside a variable update (its copy-on-write copy, while a read of the variable is
still live) on the dataflow executor (two devices in one step) is a ResourceExhaustedError naming the update's
node, and the variable keeps its value."""

import numpy as np
import pytest

import placeflow as tf

MIB = 1 << 20


def _step_fn(v):
    @tf.function
    def step():
        with tf.device("/GPU:0"):
            read = v.read_value()
            with tf.control_dependencies([read]):
                v.assign_add(tf.ones([10, MIB // 4]))
        with tf.device("/GPU:1"):
            other = tf.ones([2, MIB // 4]) * 2.0
        return read, other
    return step


def test_an_oom_in_a_variable_update_in_a_function_names_the_node(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:36MiB")
    with tf.device("/GPU:0"):
        v = tf.Variable(tf.zeros([10, MIB // 4]))
    with pytest.raises(tf.errors.ResourceExhaustedError, match="AssignAddVariableOp"):
        _step_fn(v)()
    assert float(tf.reduce_sum(v)) == 0.0


def test_an_oom_in_a_variable_update_in_a_session_names_the_node(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:32MiB")
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/GPU:0"):
            v = tf.compat.v1.Variable(tf.zeros([10, MIB // 4]))
            read = v.read_value()
            with tf.control_dependencies([read]):
                update = v.assign_add(tf.ones([10, MIB // 4]))
        with tf.device("/GPU:1"):
            other = tf.ones([2, MIB // 4]) * 2.0
        init = tf.compat.v1.global_variables_initializer()
    with tf.compat.v1.Session(graph=graph) as session:
        session.run(init)
        with pytest.raises(tf.errors.ResourceExhaustedError, match="AssignAdd"):
            session.run([update, read, other])
        np.testing.assert_array_equal(session.run(v), np.zeros([10, MIB // 4], np.float32))


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_an_output_larger_than_the_machine_is_refused_before_it_is_allocated(mode):
    """(issue 31: Dense(units=2**31) allocated 32 GiB lazily and filled it) A kernel whose output size is known
    beforehand is refused when it exceeds the machine's memory, before anything is allocated."""
    make = lambda: tf.zeros([1 << 25, 1 << 25])  # noqa: E731 - 4 PiB
    with pytest.raises(tf.errors.ResourceExhaustedError, match="more than this machine's"):
        make() if mode == "eager" else tf.function(make)()


def test_a_keras_layer_too_large_for_the_machine_is_refused_quickly():
    from placeflow.runtime import device
    units = max(2 ** 31, device._HOST_MEMORY // 8 + 1)  # a 4 x units float32 kernel exceeds this machine
    with pytest.raises(tf.errors.ResourceExhaustedError):
        tf.keras.layers.Dense(units)(tf.ones([2, 4]))
