"""Arguments placeflow does not implement are refused by name (never ignored), in eager mode and while
tracing; and get_static_value, which decides when a shape argument is known while a graph is built."""

import numpy as np
import pytest

import placeflow as tf


def test_get_static_value_knows_eager_tensors_constants_and_python_values():
    assert tf.get_static_value(tf.constant([1, 2])).tolist() == [1, 2]
    assert tf.get_static_value([3, 4]).tolist() == [3, 4]
    seen = {}

    @tf.function
    def f(x):
        seen["const"] = tf.get_static_value(tf.constant([5]))
        seen["computed"] = tf.get_static_value(x * 2)
        return x
    f(tf.constant(1))
    assert seen["const"].tolist() == [5] and seen["computed"] is None
    with pytest.raises(NotImplementedError, match=r"partial=True"):
        tf.get_static_value(tf.constant(1), partial=True)


def test_shape_arguments_computed_by_the_graph_are_refused_by_name():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def tile_by_own_shape(x):   # the length is known only when the graph runs
        return tf.tile(x, tf.shape(x))
    with pytest.raises(NotImplementedError, match=r"computed by the graph being built"):
        tile_by_own_shape(tf.constant([1, 2]))

    @tf.function
    def segments(data, ids):
        return tf.math.segment_sum(data, ids)
    with pytest.raises(NotImplementedError, match=r"unsorted_segment_\* with an explicit num_segments"):
        segments(tf.constant([1.0, 2.0]), tf.constant([0, 1]))


def test_gather_batch_dims_outside_what_is_implemented():
    params, indices = tf.ones([2, 3, 4]), tf.constant([[0], [1]])
    with pytest.raises(NotImplementedError, match=r"gather\(axis=2, batch_dims=1\)"):
        tf.gather(params, indices, axis=2, batch_dims=1)
    with pytest.raises(NotImplementedError, match=r"gather_nd\(batch_dims=1\)"):
        tf.gather_nd(params, indices, batch_dims=1)
    assert tf.gather(params, indices, batch_dims=-1).shape == [2, 1, 4]   # -1: rank(indices) - 1


def test_matmul_output_type_and_adjoint_arguments():
    a = tf.constant([[1.0, 2.0]])
    with pytest.raises(NotImplementedError, match=r"output_type"):
        tf.matmul(a, tf.transpose(a), output_type=tf.float64)
    assert tf.matmul(a, tf.transpose(a), output_type=tf.float32).numpy().tolist() == [[5.0]]
    with pytest.raises(ValueError, match=r"Only one of transpose_a and adjoint_a"):
        tf.matmul(a, a, transpose_a=True, adjoint_a=True)
    z = tf.constant([[1 + 2j, 3j]], tf.complex64)
    np.testing.assert_allclose(tf.matmul(z, z, adjoint_b=True).numpy(), [[14 + 0j]])


def test_bincount_refuses_what_tensorflow_refuses():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unsupported axis value 1"):
        tf.math.bincount(tf.constant([[1, 2]]), axis=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="mutually exclusive"):
        tf.math.bincount(tf.constant([1, 2]), weights=[1.0, 1.0], binary_output=True)
    assert tf.math.bincount(tf.constant([1, 2, 2]), binary_output=True).numpy().tolist() == [0, 1, 1]


def test_split_sizes_take_at_most_one_minus_one():
    assert [t.numpy().tolist() for t in tf.split(tf.range(5), [2, -1])] == [[0, 1], [2, 3, 4]]
    with pytest.raises(ValueError, match=r"at most one -1"):
        tf.split(tf.range(5), [-1, -1])
