"""tf.data behaviours TensorFlow's own dataset tests check (tests/tf_unit found them): a map's traced element
spec reaches the datasets built on it, batch's error for differing shapes, composite sources held as composites."""

import numpy as np
import pytest

import placeflow as tf


def test_a_map_spec_is_inherited_by_later_transformations():
    components = (np.arange(7), np.ones((7, 3), np.int64), np.arange(7.0))
    mapped = tf.data.Dataset.from_tensor_slices(components).map(lambda x, y, z: (x * x, y * y, z * z))
    repeated = mapped.repeat(14)                 # built before anyone asked the map for its spec
    assert repeated.element_spec[1].shape == (3,)
    empty = mapped.repeat(0).batch(14, drop_remainder=True)
    assert [s.as_list() for s in tf.nest.flatten(tf.compat.v1.data.get_output_shapes(empty))] == \
        [[14], [14, 3], [14]]


def test_batching_elements_of_different_shapes_fails_at_that_batch():
    def generator():
        yield [1.0, 2.0, 3.0]
        yield [4.0, 5.0, 6.0]
        yield [7.0, 8.0, 9.0, 10.0]
    batches = iter(tf.data.Dataset.from_generator(generator, tf.float32, output_shapes=[None]).batch(3))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cannot batch tensors with different shapes in component 0\. First element had shape "
                             r"\[3\] and element 2 had shape \[4\]\."):
        next(batches)


def test_composite_sources_are_held_as_composites_not_turned_into_strings():
    sparse = tf.sparse.SparseTensor(indices=[[0]], values=[1.0], dense_shape=[2])
    dataset = tf.data.Dataset.from_tensors(sparse)
    assert dataset.element_spec == tf.SparseTensorSpec([2], tf.float32)
    (element,) = list(dataset)
    assert isinstance(element, tf.sparse.SparseTensor) and element.dense_shape.numpy().tolist() == [2]


def test_a_map_returning_a_sparse_value_batches_into_one_sparse_tensor_not_dense_parts():
    dataset = tf.data.Dataset.range(4).map(
        lambda i: tf.compat.v1.SparseTensorValue(indices=[[0]], values=i * [1], dense_shape=[1])).batch(2)
    first = next(iter(dataset))
    assert first.indices.numpy().tolist() == [[0, 0], [1, 0]] and first.values.numpy().tolist() == [0, 1]
    assert first.dense_shape.numpy().tolist() == [2, 1]
