"""Shape arguments the graph knows while it is built (TensorFlow's constant_value): a traced tensor's static
shape, size and rank, and small pure ops of them, serve where a value is needed at trace time."""

import numpy as np

import placeflow as tf


def test_random_and_fill_ops_take_shapes_from_traced_tensors():
    uniform = tf.function(lambda x: tf.random.uniform(tf.shape(x)) * 0.0 + x)
    assert uniform(tf.ones([2, 3])).numpy().tolist() == [[1.0] * 3] * 2
    assert tf.function(lambda x: tf.random.normal([tf.shape(x)[0], 4]))(tf.ones([3, 2])).shape == (3, 4)
    filled = tf.function(lambda x: tf.zeros(tf.shape(x)[1:]) + tf.cast(tf.size(x), tf.float32))(tf.ones([3, 2]))
    assert filled.numpy().tolist() == [6.0, 6.0]
    assert tf.function(lambda x: tf.tile(x, tf.shape(x)))(tf.constant([1, 2])).numpy().tolist() == [1, 2, 1, 2]
    assert tf.function(lambda x: tf.reshape(x, [tf.shape(x)[0] * 2, -1]))(tf.ones([3, 2])).shape == (6, 1)


def test_get_static_value_of_traced_shapes_and_their_arithmetic():
    seen = []

    @tf.function
    def probe(x):
        seen.append([tf.get_static_value(tf.shape(x)), tf.get_static_value(tf.rank(x)),
                     tf.get_static_value(tf.shape(x)[0] * 3), tf.get_static_value(x)])
        return x

    probe(tf.ones([5, 2]))
    shape, rank, tripled, unknown = seen[0]
    np.testing.assert_array_equal(shape, [5, 2])
    assert int(rank) == 2 and int(tripled) == 15 and unknown is None   # a fed value is known only when run


def test_a_slice_of_a_partly_known_shape_is_known_where_its_dimensions_are():
    import placeflow as tf

    seen = {}

    @tf.function(input_signature=[tf.TensorSpec([None, 5, 7, 3], tf.float32)])
    def f(x):
        seen["height_width"] = tf.get_static_value(tf.shape(x)[1:3])
        seen["batch"] = tf.get_static_value(tf.shape(x)[0:1])
        seen["channels"] = tf.get_static_value(tf.shape(x)[-1])
        return tf.zeros(tf.shape(x)[1:3])

    assert f(tf.ones([2, 5, 7, 3])).shape == (5, 7)
    assert seen["height_width"].tolist() == [5, 7] and seen["batch"] is None and int(seen["channels"]) == 3


def test_fills_whose_shape_is_known_only_when_the_graph_runs():
    import placeflow as tf

    shapes = {}

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        zeros, ones = tf.zeros([tf.shape(x)[0], 4]), tf.ones(tf.shape(x), tf.int32)
        sevens = tf.fill([tf.shape(x)[0]], 7.0)
        shapes.update(zeros=zeros.shape.as_list(), ones=ones.shape.as_list(), sevens=sevens.shape.as_list())
        return zeros, ones, sevens

    zeros, ones, sevens = f(tf.ones([2, 3]))
    assert shapes == {"zeros": [None, 4], "ones": [None, 3], "sevens": [None]}  # what TF's shape inference knows
    assert zeros.numpy().tolist() == [[0.0] * 4] * 2 and ones.dtype == tf.int32 and sevens.numpy().tolist() == [7.0] * 2


def test_a_relaxed_retrace_that_needs_a_known_dimension_traces_the_exact_shapes():
    import placeflow as tf

    @tf.function(reduce_retracing=True)
    def rows(x):
        array = tf.TensorArray(tf.float32, size=3, element_shape=x.shape)  # needs the batch known while building
        for i in tf.range(3):
            array = array.write(i, x * tf.cast(i, tf.float32))
        return array.stack()

    assert rows(tf.ones([2, 2])).shape == (3, 2, 2)
    assert rows(tf.ones([1, 2])).shape == (3, 1, 2)  # relaxed to [None, 2] would leave the element shape unknown
