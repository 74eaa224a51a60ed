"""placeflow.data.Dataset: slicing, batching (uneven last batch), seeded shuffles, repeat, map, prefetch."""

import numpy as np
import pytest

import placeflow as tf


def values(dataset):
    return [np.asarray(e).tolist() if not isinstance(e, (tuple, dict)) else e for e in dataset.as_numpy_iterator()]


def test_slices_batches_and_the_uneven_last_batch():
    features = np.arange(10, dtype=np.float32).reshape(5, 2)
    labels = np.array([0, 1, 0, 1, 1])
    dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(2)
    batches = list(dataset)
    assert dataset.cardinality() == 3 and len(batches) == 3
    x, y = batches[-1]
    assert x.shape == [1, 2] and y.numpy().tolist() == [1] and x.device.endswith("CPU:0")
    assert tf.data.Dataset.from_tensor_slices(features).batch(2, drop_remainder=True).cardinality() == 2


def test_seeded_shuffle_repeats_and_reshuffles_each_epoch():
    make = lambda: tf.data.Dataset.range(8).shuffle(8, seed=3)  # noqa: E731
    first, again = make(), make()
    epoch1, epoch2 = values(first), values(first)
    assert sorted(epoch1) == list(range(8)) and epoch1 != list(range(8))
    assert epoch1 == values(again) and epoch1 != epoch2
    fixed = tf.data.Dataset.range(8).shuffle(8, seed=3, reshuffle_each_iteration=False)
    assert values(fixed) == values(fixed)


def test_repeat_take_map_and_dicts():
    dataset = tf.data.Dataset.from_tensor_slices({"x": [1.0, 2.0, 3.0]}).repeat(2)
    assert dataset.cardinality() == 6 and [e["x"] for e in dataset.as_numpy_iterator()] == [1, 2, 3, 1, 2, 3]
    doubled = tf.data.Dataset.from_tensor_slices([1.0, 2.0]).map(lambda x: x * 2.0)
    assert [float(t) for t in doubled] == [2.0, 4.0]
    infinite = tf.data.Dataset.range(3).repeat()
    assert infinite.cardinality() == -1 and values(infinite.take(7)) == [0, 1, 2, 0, 1, 2, 0]


def test_prefetch_and_prefetch_to_device(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    dataset = tf.data.Dataset.from_tensor_slices(np.arange(6.0)).batch(2).prefetch(tf.data.AUTOTUNE)
    assert [t.numpy().tolist() for t in dataset] == [[0, 1], [2, 3], [4, 5]]
    on_gpu = dataset.apply(tf.data.experimental.prefetch_to_device("/gpu:0"))
    batches = list(on_gpu)
    assert all(b.device.endswith("GPU:0") for b in batches) and batches[2].numpy().tolist() == [4, 5]


def test_errors_in_the_pipeline_reach_the_consumer():
    def bad(x):
        raise ValueError("broken element")

    # TF would raise the ValueError while .map() traces `bad`; placeflow runs map functions per element, and
    # reports a user function's error as TF reports run-time errors of Python code in a pipeline
    with pytest.raises(tf.errors.InvalidArgumentError, match="ValueError: broken element"):
        list(tf.data.Dataset.range(3).map(bad).prefetch(2))
    with pytest.raises(ValueError, match="must agree"):
        tf.data.Dataset.from_tensor_slices((np.ones(3), np.ones(4)))


def test_prefetch_reuses_its_worker_threads_across_passes():
    import threading
    dataset = tf.data.Dataset.range(20).prefetch(2)
    for _ in range(3):
        assert [int(x) for x in dataset] == list(range(20))
    import time
    before = threading.active_count()
    for _ in range(10):
        assert len(list(dataset.take(3))) == 3  # passes left early too
        time.sleep(0.15)  # (a worker of a pass left early notices within 0.1 s and goes back to the pool)
    assert threading.active_count() <= before + 1  # each pass took the idle worker: none was started per pass


def test_parallel_map_runs_calls_at_once_and_keeps_the_order():
    import threading
    import time

    meet = threading.Barrier(2, timeout=60)   # passes only when two calls run at the same time (the pool has 2+)

    def timed(x):
        if int(x) < 2:
            meet.wait()
        time.sleep(0.001 * (8 - int(x)))      # later elements finish first: the order is kept anyway
        return x

    out = [int(x) for x in tf.data.Dataset.range(8).map(timed, num_parallel_calls=4)]
    assert out == list(range(8))
    unordered = sorted(int(x) for x in tf.data.Dataset.range(8).map(timed, num_parallel_calls=4,
                                                                     deterministic=False))
    assert unordered == list(range(8))


def test_a_file_cache_is_written_by_a_complete_pass_and_read_by_later_datasets(tmp_path):
    calls = [0]

    def gen():
        calls[0] += 1
        yield from ([1.0, 2.0], [3.0, 4.0])

    spec = tf.TensorSpec([2], tf.float32)
    path = str(tmp_path / "cache")
    first = tf.data.Dataset.from_generator(gen, output_signature=spec).cache(path)
    assert [x.numpy().tolist() for x in first] == [[1.0, 2.0], [3.0, 4.0]]
    again = tf.data.Dataset.from_generator(gen, output_signature=spec).cache(path)
    assert [x.numpy().tolist() for x in again] == [[1.0, 2.0], [3.0, 4.0]] and calls[0] == 1


def test_options_refuse_what_placeflow_does_not_act_on():
    options = tf.data.Options()
    with pytest.raises(NotImplementedError, match="experimental_no_such_option is not implemented"):
        options.experimental_no_such_option = True
    with pytest.raises(TypeError, match="must be a OptimizationOptions"):
        options.experimental_optimization = object()
    with pytest.raises(AttributeError, match="no option 'map_fusionn'"):
        options.experimental_optimization.map_fusionn = True


def test_performance_options_are_kept_and_read_back():
    options = tf.data.Options()
    options.experimental_optimization.apply_default_optimizations = False
    options.threading.private_threadpool_size = 1
    options.autotune.enabled = False
    options.experimental_external_state_policy = tf.data.experimental.ExternalStatePolicy.IGNORE
    assert options.experimental_optimization.apply_default_optimizations is False
    assert options.threading.private_threadpool_size == 1 and options.autotune.enabled is False
    assert options.experimental_external_state_policy == tf.data.experimental.ExternalStatePolicy.IGNORE
    data = tf.data.Dataset.range(4).with_options(options)
    assert [int(x) for x in data] == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        options.experimental_distribute.auto_shard_policy = 7


def test_a_dataset_holds_its_own_copy_of_its_source_and_elements_never_change_it():
    source = np.ones((256, 256), np.float32)  # 256 KiB: large enough for ops to write into dying inputs
    dataset = tf.data.Dataset.from_tensors(source)
    source[:] = 5.0  # as in TensorFlow, the dataset copied its source when it was made
    for _ in range(2):
        (element,) = list(dataset)
        assert float(element.numpy()[0, 0]) == 1.0
        out = tf.exp(tf.negative(element) * 2.0)  # elementwise ops that reuse a dying input's buffer
        del element
        assert float(out.numpy()[0, 0]) == pytest.approx(np.exp(-2.0))
    mapped = tf.data.Dataset.from_tensor_slices(np.arange(4.0, dtype=np.float32)).map(lambda x: x * 2.0)
    assert [float(x) for x in mapped] == [0.0, 2.0, 4.0, 6.0] == [float(x) for x in mapped]


def test_debug_mode_runs_parallel_maps_and_prefetching_in_the_iterating_thread_one_element_at_a_time():
    """tf.data.experimental.enable_debug_mode, as in TF: no asynchrony or parallelism in any pipeline after it."""
    import threading
    threads, produced = set(), []

    def source():
        for i in range(6):
            produced.append(i)
            yield i

    tf.data.experimental.enable_debug_mode()
    data = (tf.data.Dataset.from_generator(source, output_signature=tf.TensorSpec([], tf.int64))
            .map(lambda x: tf.py_function(lambda v: (threads.add(threading.current_thread()), v * 2)[1], [x],
                                          tf.int64), num_parallel_calls=4)
            .prefetch(3))
    seen = []
    for value in data:
        seen.append((int(value.numpy()), len(produced)))
    assert seen == [(0, 1), (2, 2), (4, 3), (6, 4), (8, 5), (10, 6)]
    assert threads == {threading.current_thread()}


def test_a_map_output_reaches_the_consumer_without_copies_and_stays_unwritable_inside(make_context):
    """A map function's host tensor leaves it as a read-only view of its buffer, and the iterator gives it back
    as a tensor over that same buffer (a batch gathered by Keras's data adapter was copied twice more)."""
    from placeflow.data import dataset as dataset_module
    make_context()
    produced = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4)) * 2.0
    held = dataset_module._to_host(produced)
    assert np.shares_memory(held, produced._value) and not held.flags.writeable
    again = dataset_module._as_tensors(held)
    assert np.shares_memory(again._value, produced._value)
    mine = again.numpy()
    mine[0, 0] = -1.0                                     # the consumer's numpy() is its own copy
    assert produced.numpy()[0, 0] == 0.0 and mine.flags.writeable
    assert dataset_module._to_host(tf.constant(3.0)) == 3.0   # a scalar as numpy() gives it
    data = tf.data.Dataset.range(3).map(lambda i: tf.fill([2, 2], tf.cast(i, tf.float32)))
    assert [x.numpy().tolist() for x in data] == [[[float(i)] * 2] * 2 for i in range(3)]


def test_a_dataset_function_runs_its_ops_on_the_host_cpu_even_beside_a_gpu(make_context):
    """As in TF (tf.data runs its functions on the CPU): a map's ops take no GPU memory, the GPU keeps none."""
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    devices = []

    def double(i):
        value = tf.fill([256, 256], tf.cast(i, tf.float32)) * 2.0
        devices.append(value.device)
        return value

    for element in tf.data.Dataset.range(2).map(double):
        assert element.device.endswith("CPU:0")
    assert devices and all(d.endswith("device:CPU:0") for d in devices)
    assert tf.config.experimental.get_memory_info("GPU:0")["peak"] == 0
