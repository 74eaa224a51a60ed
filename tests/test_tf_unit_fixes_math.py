"""What TensorFlow's own argmax_op_test and topk_op_test found (tests/tf_unit), fixed: values and messages
checked against TensorFlow 2.21 (the expected values below were printed by it)."""

import numpy as np
import pytest

import placeflow as tf
from placeflow.eager.execute import execute


@pytest.mark.parametrize("op, op_name", [(tf.math.argmax, "ArgMax"), (tf.math.argmin, "ArgMin")])
def test_arg_reduce_refuses_an_empty_axis_with_tf_message(op, op_name):
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Reduction axis 0 is empty in shape \[0\]"):
        op([], 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Reduction axis 1 is empty in shape \[2,0\]"):
        op(tf.zeros([2, 0]), -1)


def test_arg_reduce_over_a_full_axis_of_an_empty_tensor_is_empty():
    result = tf.math.argmax(tf.zeros([2, 0]), 0)
    assert result.shape == (0,) and result.dtype == tf.int64


def test_top_k_errors_quote_tf_messages():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Need k >= 0, got -7"):
        tf.math.top_k([[0.1, 0.2], [0.3, 0.4]], -7)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"input must have at least k columns. Had 2, needed 4"):
        tf.math.top_k([[0.1, 0.2], [0.3, 0.4]], 4)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"input must be >= 1-D, got shape \[\]"):
        tf.math.top_k(1.0, 1)


@pytest.mark.parametrize("index_type", [tf.int16, tf.int32, tf.int64])
def test_top_k_kernel_gives_indices_in_index_type(index_type):
    x = tf.constant([[3, 1, 2]])
    values, indices = execute("TopKV2", (x,), x.dtype, {"k": 2, "sorted": True, "index_type": index_type})
    assert indices.dtype == index_type
    np.testing.assert_array_equal(values.numpy(), [[3, 2]])
    np.testing.assert_array_equal(indices.numpy(), [[0, 2]])


def test_top_k_kernel_refuses_other_index_types():
    x = tf.constant([[3, 1, 2]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="index_type' of uint8 is not in the list"):
        execute("TopKV2", (x,), x.dtype, {"k": 2, "index_type": tf.uint8})


def test_public_top_k_takes_index_type_and_unsorted():
    """TF 2.21: index_type=int16 gives [[5, 4, 3]] at [[1, 3, 2]] as int16; sorted=False gives the same three
    entries in an unspecified order (TF's CPU kernel: [[3, 4, 5]])."""
    ranked = tf.math.top_k([[1., 5., 3., 4.]], k=3, index_type=tf.int16)
    assert ranked.indices.dtype == tf.int16
    np.testing.assert_array_equal(ranked.values.numpy(), [[5., 4., 3.]])
    np.testing.assert_array_equal(ranked.indices.numpy(), [[1, 3, 2]])
    loose = tf.function(lambda x: tf.math.top_k(x, k=3, sorted=False, index_type=tf.int64))(
        tf.constant([[1., 5., 3., 4.]]))
    assert loose.indices.dtype == tf.int64
    pairs = sorted(zip(loose.values.numpy()[0].tolist(), loose.indices.numpy()[0].tolist()))
    assert pairs == [(3.0, 2), (4.0, 3), (5.0, 1)]


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "uint8", "float16"])
def test_reduce_prod_keeps_its_input_dtype(dtype):
    """TF 2.21: reduce_prod of [[1, 2], [3, 4]] keeps the dtype (NumPy's prod widens small ints to int64)."""
    x = tf.constant([[1, 2], [3, 4]], dtype)
    for result in (tf.reduce_prod(x, axis=0), tf.function(lambda y: tf.reduce_prod(y, axis=0))(x)):
        assert result.dtype.name == dtype
        np.testing.assert_array_equal(result.numpy(), [3, 8])
