"""Errors inside a tf.data pipeline behave as in TensorFlow 2.21 (each case checked against TF by hand with
the same program): an element's error costs that element only, the elements before a failing generator
arrive first, user errors take TF's classes, and threads may share one iterator."""

import threading

import numpy as np
import pytest

import placeflow as tf


def _drain(iterator) -> list:
    """Every element of `iterator` as an int (or list), and each error's class name in its place."""
    out = []
    while True:
        try:
            value = next(iterator)
        except StopIteration:
            return out
        except Exception as error:  # noqa: BLE001 - recorded in its place
            out.append(type(error).__name__)
        else:
            out.append(np.asarray(value).tolist())


def _fails_at_two(x):
    if x == 2:
        raise ValueError("two")
    return x


def _mapped():
    return tf.data.Dataset.range(5).map(lambda x: tf.numpy_function(_fails_at_two, [x], tf.int64))


def test_a_failing_generator_delivers_its_elements_through_a_parallel_map_and_prefetch_first():
    def gen():
        yield from range(1, 6)
        raise ValueError("boom")
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int64))
    ds = ds.map(lambda x: x * 1, num_parallel_calls=4).prefetch(2)
    assert _drain(iter(ds)) == [1, 2, 3, 4, 5, "InvalidArgumentError"]  # TF: the same


def test_after_an_error_in_map_the_iterator_goes_on_with_the_next_element():
    assert _drain(iter(_mapped())) == [0, 1, "InvalidArgumentError", 3, 4]
    assert _drain(iter(_mapped().prefetch(2))) == [0, 1, "InvalidArgumentError", 3, 4]
    assert _drain(iter(_mapped().filter(lambda x: x >= 0))) == [0, 1, "InvalidArgumentError", 3, 4]


def test_a_batch_holding_a_failed_element_is_that_error_and_the_next_batch_follows():
    assert _drain(iter(_mapped().batch(2))) == [[0, 1], "InvalidArgumentError", [4]]


def test_parallel_map_errors_keep_their_position():
    ds = tf.data.Dataset.range(6).map(lambda x: tf.numpy_function(_fails_at_two, [x], tf.int64),
                                      num_parallel_calls=3)
    assert _drain(iter(ds)) == [0, 1, "InvalidArgumentError", 3, 4, 5]


def test_user_errors_take_tensorflows_classes():
    def raises(kind):
        def fn(x):
            raise kind("bad")
        return lambda x: tf.numpy_function(fn, [x], tf.int64)
    for kind, name in [(ValueError, "InvalidArgumentError"), (TypeError, "InvalidArgumentError"),
                       (ZeroDivisionError, "UnknownError"), (NotImplementedError, "UnimplementedError"),
                       (KeyError, "UnknownError")]:
        got = _drain(iter(tf.data.Dataset.range(1).map(raises(kind))))
        assert got == [name], (kind, got)
    with pytest.raises(tf.errors.InvalidArgumentError, match="ValueError: bad"):
        list(tf.data.Dataset.range(1).map(raises(ValueError)))


def test_an_error_raised_by_placeflow_keeps_its_class():
    ds = tf.data.Dataset.range(2).map(lambda x: tf.reshape(x, [5]))
    assert _drain(iter(ds)) == ["InvalidArgumentError", "InvalidArgumentError"]


def test_one_iterator_shared_by_four_threads_serves_each_element_once():
    for ds in (tf.data.Dataset.range(1000), tf.data.Dataset.range(1000).map(lambda x: x + 1).prefetch(4)):
        iterator = iter(ds)
        seen, failures = [], []

        def work():
            while True:
                try:
                    seen.append(int(next(iterator)))
                except StopIteration:
                    return
                except Exception as error:  # noqa: BLE001 - a failure of the test
                    failures.append(error)
                    return
        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert failures == [] and sorted(seen) == sorted(set(seen)) and len(seen) == 1000


def test_get_next_and_get_next_as_optional():
    iterator = iter(tf.data.Dataset.range(2))
    assert int(iterator.get_next()) == 0
    optional = iterator.get_next_as_optional()
    assert bool(optional.has_value()) and int(optional.get_value()) == 1
    assert not bool(iterator.get_next_as_optional().has_value())
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        iterator.get_next()
    assert iterator.element_spec == tf.TensorSpec([], tf.int64)


def test_a_map_functions_arity_is_checked_for_every_part_count_it_meets():
    """The check is remembered per function and part count (data/dataset.py _check_arity): a function that takes
    one part is still refused, with TF's TypeError, for two."""
    takes_one = lambda x: x * 2  # noqa: E731
    assert [int(v) for v in tf.data.Dataset.range(3).map(takes_one)] == [0, 2, 4]
    assert [int(v) for v in tf.data.Dataset.range(2).map(takes_one)] == [0, 2]
    pairs = tf.data.Dataset.zip((tf.data.Dataset.range(2), tf.data.Dataset.range(2)))
    with pytest.raises(TypeError, match="too many positional arguments"):
        list(pairs.map(takes_one))


def test_elements_keep_their_arrays_or_copies_as_before():
    """A writeable array a map returns is copied into its tensor; the dataset's own read-only copy is not."""
    source = np.arange(6, dtype=np.float32).reshape(3, 2)
    dataset = tf.data.Dataset.from_tensor_slices(source).map(lambda row: row + 1.0)
    rows = [r.numpy() for r in dataset]
    source[:] = -1.0
    assert [r.tolist() for r in rows] == [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    assert [r.numpy().tolist() for r in tf.data.Dataset.from_tensors(np.ones(2, np.float32))] == [[1.0, 1.0]]
