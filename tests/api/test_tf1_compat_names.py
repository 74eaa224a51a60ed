"""TensorFlow public names TF's own tests use that placeflow lacked (tests/tf_unit found them), with TF 2.21's
values: tf.compat.v1's value classes, seeds, data output views and multinomial names, tf.compat's
forward-compatibility date, and tf.test.TestCase's test_session and composite evaluate()."""

import numpy as np
import pytest

import placeflow as tf


def test_sparse_and_ragged_value_classes():
    value = tf.compat.v1.SparseTensorValue([[0]], [1], [2])
    assert (value.indices, value.values, value.dense_shape) == ([[0]], [1], [2])
    ragged = tf.compat.v1.ragged.RaggedTensorValue(np.array([1, 2, 3]), np.array([0, 2, 3]))
    assert ragged.to_list() == [[1, 2], [3]] and ragged.ragged_rank == 1 and ragged.shape == (2, None)
    assert tf.compat.v1.ragged.constant is tf.ragged.constant


def test_set_random_seed_is_the_global_seed():
    tf.compat.v1.set_random_seed(5)
    first = tf.random.uniform([3]).numpy()
    tf.random.set_seed(5)
    assert np.array_equal(first, tf.random.uniform([3]).numpy())
    assert tf.compat.v1.random.set_random_seed is tf.compat.v1.set_random_seed


def test_legacy_output_views_of_a_dataset():
    ds = tf.data.Dataset.range(3).map(lambda x: (x, {"a": tf.cast(x, tf.float32)}))
    assert tf.compat.v1.data.get_output_types(ds) == (tf.int64, {"a": tf.float32})
    assert tf.compat.v1.data.get_output_shapes(ds) == (tf.TensorShape([]), {"a": tf.TensorShape([])})
    assert tf.compat.v1.data.get_output_classes(ds) == (tf.Tensor, {"a": tf.Tensor})
    with pytest.raises(TypeError, match="element_spec"):
        tf.compat.v1.data.get_output_types([1, 2])


def test_v1_multinomial_names_take_output_dtype():
    logits = tf.math.log([[0.5, 0.5]])
    drawn = tf.compat.v1.random.stateless_multinomial(logits, 3, seed=[1, 2], output_dtype=tf.int32)
    assert drawn.dtype == tf.int32 and drawn.numpy().tolist() == [[1, 1, 0]]   # TF 2.21's values
    assert tf.compat.v1.random.multinomial(logits, 4, seed=1, output_dtype=tf.int32).dtype == tf.int32


def test_forward_compatibility_date():
    assert tf.compat.forward_compatible(2026, 1, 15) and not tf.compat.forward_compatible(2026, 1, 16)
    with tf.compat.forward_compatibility_horizon(2030, 1, 1):
        assert tf.compat.forward_compatible(2029, 1, 1)
    assert not tf.compat.forward_compatible(2029, 1, 1)
    with tf.compat.forward_compatibility_horizon(2020, 10, 24):  # before the horizon: ignored, as in TF
        assert tf.compat.forward_compatible(2026, 1, 15)


class _Case(tf.test.TestCase):
    __test__ = False  # used by the test below, not collected itself

    def runTest(self):  # noqa: N802 - unittest's name
        pass


def test_test_session_run_as_a_test_skips_as_in_tensorflow():
    case = _Case("test_session")
    result = case.run()
    assert len(result.skipped) == 1 and "reserved for creating sessions" in result.skipped[0][1]


def test_test_case_test_session_and_composite_evaluate():
    case = _Case()
    with case.test_session() as session:
        assert session is None                                    # eagerly, as cached_session
    sparse = tf.sparse.SparseTensor(indices=[[0, 1]], values=[2.0], dense_shape=[2, 2])
    value = case.evaluate(sparse)
    assert isinstance(value, tf.compat.v1.SparseTensorValue)
    assert value.indices.tolist() == [[0, 1]] and value.values.tolist() == [2.0] and value.dense_shape.tolist() == [2, 2]
    assert case.evaluate(None) is None and case.evaluate(lambda: tf.constant(3)) == 3
    ragged = case.evaluate(tf.ragged.constant([[1, 2], [3]]))
    assert ragged.to_list() == [[1, 2], [3]]
    case.assertAllEqual([[1, 2], [3]], tf.ragged.constant([[1, 2], [3]]))
    case.assertAllClose([[1.0, 2.0], [3.0]], tf.ragged.constant([[1.0, 2.0000001], [3.0]]))
    with pytest.raises(AssertionError):
        case.assertAllEqual([[1, 2], [4]], tf.ragged.constant([[1, 2], [3]]))
