"""Loops over datasets inside `function`: elements are pulled when the graph runs, passes never pile up."""

import pytest

import placeflow as tf
from placeflow.ops import iterators


def test_a_loop_left_by_break_never_piles_up_unfinished_passes(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    ds = tf.data.Dataset.range(100)

    @tf.function
    def first_over(ds, limit):
        found = tf.constant(-1, tf.int64)
        for x in ds:
            if x > limit:
                found = x
                break
        return found

    results = [int(first_over(ds, tf.constant(k, tf.int64))) for k in range(80)]
    assert results == list(range(1, 81))
    assert len(iterators._live) <= iterators.MAX_LIVE


def test_iterating_a_dataset_in_python_while_tracing_refuses_to_freeze_it(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")

    @tf.function(autograph=False)
    def total(ds):
        return sum(x for x in ds)

    with pytest.raises(NotImplementedError, match="freeze its elements into the graph"):
        total(tf.data.Dataset.range(3))


def test_mapped_elements_of_varying_sizes_fit_the_learned_spec(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0]).map(lambda x: tf.fill([tf.cast(x, tf.int32)], x))

    @tf.function
    def total(ds):
        s = tf.constant(0.0)
        for x in ds:
            s += tf.reduce_sum(x)
        return s

    assert float(total(ds)) == 5.0  # map's element_spec is learned with unknown dimensions: both sizes fit
