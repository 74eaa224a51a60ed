"""tf.nest treats a TensorShape as a leaf, and DType has real_dtype, as in TensorFlow 2.21."""

import placeflow as tf


def test_tensor_shapes_are_leaves_of_nested_structures():
    shapes = (tf.TensorShape([None]), {"a": tf.TensorShape([None, 3])})
    assert tf.nest.flatten(shapes) == [tf.TensorShape([None]), tf.TensorShape([None, 3])]
    assert tf.nest.map_structure(lambda s: s.rank, shapes) == (1, {"a": 2})
    assert not tf.nest.is_nested(tf.TensorShape([2]))


def test_real_dtype():
    assert tf.complex64.real_dtype == tf.float32 and tf.complex128.real_dtype == tf.float64
    assert tf.float16.real_dtype == tf.float16 and tf.int32.real_dtype == tf.int32
