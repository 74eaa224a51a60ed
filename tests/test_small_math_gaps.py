"""tf.raw_ops.ApproximateEqual and tf.math.scalar_mul of IndexedSlices, as TensorFlow 2.21 (values, error classes
and texts recorded from it)."""

import numpy as np
import pytest

import placeflow as tf


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_approximate_equal_is_a_strict_tolerance(dtype):
    equal = tf.raw_ops.ApproximateEqual
    assert not equal(x=dtype(1), y=dtype(1.00009)).numpy()    # default tolerance 1e-5
    assert equal(x=dtype(1), y=dtype(1.000009)).numpy()
    x = np.array([[[[-1, 2.00009999], [-3, 4.01]]]], dtype=dtype)
    y = np.array([[[[-1.001, 2], [-3.00009, 4]]]], dtype=dtype)
    result = equal(x=x, y=y, tolerance=0.0001)
    assert result.dtype == tf.bool and result.numpy().tolist() == [[[[False, True], [True, False]]]]
    assert not equal(x=dtype(1), y=dtype(2), tolerance=1.0).numpy()          # |x - y| < tolerance, strictly
    assert not equal(x=np.inf, y=np.inf).numpy() and not equal(x=1.0, y=np.nan).numpy()
    assert not equal(x=1.0, y=1.0, tolerance=-1.0).numpy()


def test_approximate_equal_errors():
    equal = tf.raw_ops.ApproximateEqual
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"x and y must be of the same shape. x shape: \[2\]. y shape: \[1,2\]"):
        equal(x=[1.0, 2.0], y=[[1.0, 2.0]])
    with pytest.raises(tf.errors.NotFoundError, match="ApproximateEqual"):
        equal(x=[1, 2], y=[1, 3])          # TF admits the integer types but has float and double kernels only
    with pytest.raises(TypeError, match="Expected float for argument 'tolerance' not 'a'"):
        equal(x=[1.0], y=[1.0], tolerance="a")
    with pytest.raises(TypeError):
        equal([1.0], [1.0])                # keyword arguments only
    assert equal(x=[1.0, 2.0], y=[1, 2]).numpy().tolist() == [True, True]   # y converted to x's dtype


def test_approximate_equal_in_a_function_checks_shapes_while_tracing():
    traced = tf.function(lambda a, b: tf.raw_ops.ApproximateEqual(x=a, y=b, tolerance=0.5))
    assert traced(tf.constant([1.0, 2.0]), tf.constant([1.2, 3.0])).numpy().tolist() == [True, False]
    concrete = traced.get_concrete_function(tf.TensorSpec([None], tf.float32), tf.TensorSpec([3], tf.float32))
    assert concrete.structured_outputs.shape.as_list() == [None]   # TF: the first input's shape
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are 2 and 3"):
        traced.get_concrete_function(tf.TensorSpec([2], tf.float32), tf.TensorSpec([3], tf.float32))
    with pytest.raises(ValueError, match="Shapes must be equal rank, but are 1 and 2"):
        traced.get_concrete_function(tf.TensorSpec([2], tf.float32), tf.TensorSpec([1, 2], tf.float32))


def test_scalar_mul_keeps_indexed_slices_sparse():
    values = tf.constant([2, 3, 5, 7, 0, -1], shape=[3, 2])
    indices = tf.constant([0, 2, 5])
    scaled = tf.math.scalar_mul(-3, tf.IndexedSlices(values, indices))   # no dense_shape: never densified
    assert isinstance(scaled, tf.IndexedSlices)
    assert scaled.values.numpy().tolist() == [[-6, -9], [-15, -21], [0, 3]]
    assert scaled.indices.numpy().tolist() == [0, 2, 5] and scaled.dense_shape is None
    shaped = tf.math.scalar_mul(2.0, tf.IndexedSlices(tf.ones([2, 2]), tf.constant([0, 2]), tf.constant([4, 2])))
    assert shaped.dense_shape.numpy().tolist() == [4, 2]


def test_scalar_mul_errors():
    with pytest.raises(ValueError, match=r"The input scalar must be a 0-D value. Received shape \(1,\)."):
        tf.math.scalar_mul(tf.constant([2.0]), tf.ones([2, 2]))
    with pytest.raises(ValueError, match=r"The input scalar must be a 0-D value. Received shape \(1,\)."):
        tf.math.scalar_mul(tf.constant([2.0]), tf.IndexedSlices(tf.ones([2, 2]), tf.constant([0, 2])))
    with pytest.raises(TypeError):
        tf.math.scalar_mul(2.5, tf.constant([[1, 2], [3, 4]]))
    assert tf.math.scalar_mul(2, tf.constant([[1.0, 2.0]])).numpy().tolist() == [[2.0, 4.0]]


def test_unsorted_segment_counts_known_only_when_the_graph_runs_are_refused_by_name():
    """A count placeflow knows while building (a constant, a static shape) works in a function; one computed by
    the graph is refused with NotImplementedError naming it, not a TypeError from int()."""

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def segments(x):
        return tf.math.unsorted_segment_sum(x, tf.zeros_like(x, tf.int32), tf.shape(x)[0])

    with pytest.raises(NotImplementedError, match="num_segments=.*computed by the graph being built"):
        segments.get_concrete_function()
