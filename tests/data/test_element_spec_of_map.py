"""A mapped dataset's element_spec comes from tracing the map function on the input spec, as tf.data does: the
static dimensions the function makes are known (Keras's adapt() reads them)."""

import placeflow as tf


def test_map_keeps_the_static_dimensions_its_function_makes():
    batches = tf.data.Dataset.from_tensor_slices({"a": [1.0, 2.0, 3.0, 4.0]}).batch(2)
    column = batches.map(lambda d: d["a"])
    assert column.element_spec == tf.TensorSpec([None], tf.float32)
    expanded = column.map(lambda x: tf.expand_dims(x, -1))
    assert expanded.element_spec == tf.TensorSpec([None, 1], tf.float32)
    pairs = expanded.map(lambda x: (x, tf.cast(tf.reduce_sum(x), tf.int64)))
    assert pairs.element_spec == (tf.TensorSpec([None, 1], tf.float32), tf.TensorSpec([], tf.int64))
    assert [x.numpy().tolist() for x, _ in pairs] == [[[1.0], [2.0]], [[3.0], [4.0]]]


def test_a_function_that_cannot_be_traced_still_maps_and_its_spec_comes_from_an_element():
    def eager_only(x):
        return tf.constant(x.numpy() * 2)  # .numpy() works eagerly only

    doubled = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(eager_only)
    assert doubled.element_spec == tf.TensorSpec([], tf.int32)
    assert [int(x) for x in doubled] == [2, 4, 6]
