"""tf.map_fn's checks and empty results as TensorFlow 2.21 gives them (TF's map_fn_test; values from TF)."""

import numpy as np
import pytest

import placeflow as tf


@pytest.mark.parametrize("elems", [[1, 2], 1])
def test_scalar_elements_are_refused(elems):
    with pytest.raises(ValueError, match="must be .* Tensor.* not scalar"):
        tf.map_fn(lambda x: x, elems)


def test_elements_without_tensors_are_refused():
    with pytest.raises(ValueError, match="elems must be a Tensor or"):
        tf.map_fn(lambda e: e, [])


def test_a_signature_of_another_structure_is_a_type_error():
    with pytest.raises(TypeError, match="two structures don't have the same nested structure"):
        tf.map_fn(lambda x: ((x + 3) * 2, -(x + 3) * 2), np.arange(6), dtype=[tf.int64, tf.int64])
    first, second = tf.map_fn(lambda x: ((x + 3) * 2, -(x + 3) * 2), np.arange(3), dtype=(tf.int64, tf.int64))
    assert first.numpy().tolist() == [6, 8, 10] and second.numpy().tolist() == [-6, -8, -10]


def test_zero_elements_give_empty_results_of_the_signature():
    result = tf.map_fn(lambda x: tf.constant(""), tf.constant([]), dtype=tf.string)
    assert result.dtype == tf.string and result.shape == (0,)
    pair = tf.map_fn(lambda x: (x, x), tf.constant([]), fn_output_signature=(tf.TensorSpec([2], tf.float32), tf.int32))
    assert (pair[0].shape, pair[0].dtype, pair[1].shape, pair[1].dtype) == ((0, 2), tf.float32, (0,), tf.int32)
    with pytest.raises(NotImplementedError, match="without fn_output_signature"):
        tf.map_fn(lambda x: x, tf.constant([]))
