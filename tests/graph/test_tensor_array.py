"""tf.TensorArray in graphs beyond the conformance cases: Session graphs, loop shapes, refusals."""

import numpy as np
import pytest

import placeflow as tf


def test_tensor_array_in_a_session_while_loop(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    graph = tf.Graph()
    with graph.as_default():
        n = tf.compat.v1.placeholder(tf.int32, [])
        array = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        _, array = tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, a.write(i, tf.cast(i, tf.float32) * 0.5)),
                                 [0, array])
        stacked = array.stack()
    with tf.compat.v1.Session(graph=graph) as session:
        assert session.run(stacked, {n: 3}).tolist() == [0.0, 0.5, 1.0]
        assert session.run(stacked, {n: 1}).tolist() == [0.0]


def test_a_loop_variable_whose_size_the_body_changes_is_never_folded_to_its_entry_size(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")

    @tf.function
    def grow(n):
        def body(i, buffer):  # boolean_mask leaves the size unknown: the loop must not fix it at 0
            return i + 1, tf.concat([buffer, tf.boolean_mask(tf.fill([1], tf.cast(i, tf.float32)), [True])], 0)
        return tf.while_loop(lambda i, b: i < n, body, [tf.constant(0), tf.zeros([0])])[1]

    assert grow(tf.constant(3)).numpy().tolist() == [0.0, 1.0, 2.0]


def test_a_tensor_array_element_shape_comes_from_its_first_write(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    array = tf.TensorArray(tf.float32, size=2)
    assert array.element_shape is None
    array = array.write(0, [1.0, 2.0])
    assert array.element_shape == [2] and str(array.element_shape) == "(2,)"
    with pytest.raises(ValueError, match=r"Incompatible shape for value \(\(3,\)\), expected \(\(2,\)\)"):
        array.write(1, [1.0, 2.0, 3.0])
    assert np.array_equal(array.stack().numpy(), [[1.0, 2.0], [0.0, 0.0]])


@pytest.mark.parametrize("make, error, text", [
    (lambda: tf.TensorArray(tf.float32, size=2, handle=object()), NotImplementedError, "handle"),
    (lambda: tf.TensorArray(tf.float32), ValueError, "Size must be provided"),
    (lambda: tf.TensorArray(tf.float32, size=1).read(1), tf.errors.OutOfRangeError, "Tried to read from index 1"),
    (lambda: tf.TensorArray(tf.float32, size=1).write(0, tf.constant(1)), tf.errors.InvalidArgumentError,
     "TensorArray dtype is float32 but Op is trying to write dtype int32"),
    (lambda: tf.TensorArray(tf.float32, size=2).read(1), tf.errors.InvalidArgumentError, "never written"),
])
def test_tensor_array_errors_teach(make, error, text, make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    with pytest.raises(error, match=text):
        make()


def test_an_eager_tensor_array_cannot_enter_a_traced_loop(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    outside = tf.TensorArray(tf.float32, size=1)

    @tf.function
    def f(n):
        return tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, a), [0, outside])[0]

    with pytest.raises(TypeError, match="create it inside the function"):
        f(tf.constant(2))
