"""What TensorFlow's own repeat_test found (tests/tf_unit), fixed: checked against TensorFlow 2.21."""

import pytest

import placeflow as tf


@pytest.mark.parametrize("count", [None, -1, -2])
def test_random_access_into_an_infinite_dataset_is_refused(count):
    dataset = tf.data.Dataset.range(3).repeat(count)
    with pytest.raises(tf.errors.FailedPreconditionError, match="infinite cardinality, which does not support "
                                                                "random access"):
        tf.data.experimental.at(dataset, 0)


def test_random_access_into_a_finite_repeat_still_works():
    dataset = tf.data.Dataset.range(3).repeat(2)
    assert int(tf.data.experimental.at(dataset, 4)) == 1
    with pytest.raises(tf.errors.OutOfRangeError):
        tf.data.experimental.at(dataset, 6)


def test_repeat_takes_a_name():
    dataset = tf.data.Dataset.from_tensors(42).repeat(2, name="repeat")
    assert [int(x) for x in dataset] == [42, 42]
    assert int(dataset.cardinality()) == 2
