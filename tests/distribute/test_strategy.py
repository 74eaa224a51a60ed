"""MirroredStrategy and friends: devices, logging, mirrored variables, run/merge_call, reduce, input splitting."""

import threading

import numpy as np
import pytest

import placeflow as tf
from placeflow.distribute import cross_device_ops, input_lib

GPU = "/job:localhost/replica:0/task:0/device:GPU:{}"
CPU = "/job:localhost/replica:0/task:0/device:CPU:{}"


def logical_cpus(make_context, count):
    make_context()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * count)


def test_devices_default_to_every_gpu_and_are_logged(make_context, capsys):
    make_context(PLACEFLOW_SIMULATED_GPUS=4)
    strategy = tf.distribute.MirroredStrategy()
    names = tuple(GPU.format(i) for i in range(4))
    assert strategy.extended.worker_devices == names
    assert strategy.num_replicas_in_sync == 4
    err = capsys.readouterr().err
    assert f"INFO:placeflow:Using MirroredStrategy with devices {names}\n" in err
    assert "simulated" in err and isinstance(strategy.cross_device_ops, tf.distribute.HierarchicalCopyAllReduce)


def test_without_gpus_every_logical_cpu_is_a_replica(make_context, capsys):
    logical_cpus(make_context, 2)
    strategy = tf.distribute.MirroredStrategy()
    assert strategy.extended.worker_devices == (CPU.format(0), CPU.format(1))
    err = capsys.readouterr().err
    assert "There are non-GPU devices in `tf.distribute.Strategy`, not using nccl allreduce." in err
    assert isinstance(strategy.cross_device_ops, tf.distribute.ReductionToOneDevice)


def test_device_lists_accept_logical_devices_and_reject_bad_input(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    strategy = tf.distribute.MirroredStrategy(tf.config.list_logical_devices("GPU"))
    assert strategy.extended.worker_devices == (GPU.format(0), GPU.format(1))
    with pytest.raises(ValueError, match="appears twice"):
        tf.distribute.MirroredStrategy(["/gpu:0", "/device:GPU:0"])
    with pytest.raises(ValueError, match="Unknown device '/gpu:7'"):
        tf.distribute.MirroredStrategy(["/gpu:7"])


def test_all_reduce_choice_and_reasons(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    from placeflow.config import context
    from placeflow.runtime import registry
    devices = registry.devices(context.context())
    gpus = [d for d in devices if d.device_type == "GPU"]
    assert isinstance(cross_device_ops.choose(gpus), tf.distribute.HierarchicalCopyAllReduce)
    mixed = cross_device_ops.choose(devices)
    assert isinstance(mixed, tf.distribute.ReductionToOneDevice) and "non-GPU" in mixed.reason


def test_variables_under_scope_are_mirrored_with_tensorflow_names(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        v = tf.Variable(1.0)
    assert isinstance(v, tf.distribute.MirroredVariable) and isinstance(v, tf.Variable)
    assert [c.device for c in v.values] == [GPU.format(0), GPU.format(1)]
    assert repr(v) == ("MirroredVariable:{\n  0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>,\n"
                       "  1: <tf.Variable 'Variable/replica_1:0' shape=() dtype=float32, numpy=1.0>\n}")
    v.assign(3.0)  # cross-replica: every copy
    assert [float(c.numpy()) for c in v.values] == [3.0, 3.0]
    assert float((v * 2.0).numpy()) == 6.0
    with pytest.raises(ValueError, match="`NONE` variable synchronization"):
        with strategy.scope():
            tf.Variable(1.0, synchronization=tf.VariableSynchronization.NONE)


def test_replica_context_updates_combine_by_aggregation(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        plain = tf.Variable(0.0)
        summed = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)
        first = tf.Variable(0.0, aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)

    def bump(var):
        replica = tf.distribute.get_replica_context().replica_id_in_sync_group
        var.assign_add(tf.constant(1.0) + float(replica))

    strategy.run(bump, args=(plain,))
    strategy.run(bump, args=(summed,))
    strategy.run(bump, args=(first,))
    assert [float(c.numpy()) for c in summed.values] == [3.0, 3.0]
    assert [float(c.numpy()) for c in first.values] == [1.0, 1.0]
    assert [float(c.numpy()) for c in plain.values] == [1.0, 2.0]  # NONE: each replica its own copy, as TF 2.21


def test_run_returns_per_replica_values_and_reduce_combines_them(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    strategy = tf.distribute.MirroredStrategy()
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([1.0, 105.0][ctx.replica_id_in_sync_group]))
    result = strategy.run(lambda v: (v, tf.distribute.get_replica_context().replica_id_in_sync_group), args=(values,))
    per_replica, ids = result
    assert isinstance(per_replica, tf.distribute.PerReplica)
    assert str(per_replica) == ("PerReplica:{\n  0: tf.Tensor(1.0, shape=(), dtype=float32),\n"
                                "  1: tf.Tensor(105.0, shape=(), dtype=float32)\n}")
    assert [t.device for t in strategy.experimental_local_results(per_replica)] == [GPU.format(0), GPU.format(1)]
    assert ids.values == (0, 1)
    assert float(strategy.reduce("SUM", per_replica, axis=None).numpy()) == 106.0
    mean = strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None)
    assert float(mean.numpy()) == 53.0 and mean.device == CPU.format(0)
    batches = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]][: 2 + ctx.replica_id_in_sync_group]))
    assert float(strategy.reduce("MEAN", batches, axis=0).numpy()[0]) == pytest.approx((1 + 3 + 1 + 3 + 5) / 5)
    with pytest.raises(ValueError, match="cannot be reduced"):
        strategy.reduce("SUM", tf.constant(1.0), axis=None)


def test_merge_call_runs_once_in_cross_replica_context(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=3)
    strategy = tf.distribute.MirroredStrategy()
    calls = []

    def merge(strategy_arg, value):
        calls.append(tf.distribute.in_cross_replica_context())
        return strategy_arg.extended.batch_reduce_to("SUM", [(value, value)])[0]

    def fn():
        ctx = tf.distribute.get_replica_context()
        mine = tf.constant(float(ctx.replica_id_in_sync_group + 1))
        return ctx.merge_call(merge, args=(mine,))

    result = strategy.run(fn)
    assert calls == [True]
    assert [float(t.numpy()) for t in result.values] == [6.0, 6.0, 6.0]
    assert [t.device for t in result.values] == [GPU.format(i) for i in range(3)]
    all_reduced = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("MEAN", tf.constant(
        float(tf.distribute.get_replica_context().replica_id_in_sync_group))))
    assert [float(t.numpy()) for t in all_reduced.values] == [1.0, 1.0, 1.0]


def _finishes(fn, seconds=30):
    """fn() finished within `seconds` (a deadlock would leave its thread waiting); its result or error."""
    outcome = {}

    def target():
        try:
            outcome["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            outcome["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{fn} did not finish in {seconds} s: deadlock"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def test_merge_calls_inside_traced_functions_do_not_deadlock(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        counter = tf.Variable(0, dtype=tf.int64, aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)

    @tf.function
    def step():
        counter.assign_add(1)
        ctx = tf.distribute.get_replica_context()
        return ctx.all_reduce("SUM", tf.constant(float(ctx.replica_id_in_sync_group + 1)))

    assert [float(v) for v in _finishes(lambda: strategy.run(step)).values] == [3.0, 3.0]
    assert step.experimental_get_tracing_count() == 0  # run traced its own every-replica clone, once
    _finishes(lambda: strategy.run(step))
    assert int(counter.numpy()) == 2  # TF 2.21: one increment per run
    with pytest.raises(RuntimeError, match="`merge_call` called while defining a new graph or a tf.function"):
        _finishes(lambda: strategy.run(lambda: step()))  # each replica would trace `step` itself: TF refuses too

    @tf.function
    def replica_value():
        return tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32) + 1.0

    per_replica = _finishes(lambda: strategy.run(lambda: replica_value()))  # no merge call: one trace each
    assert [float(v) for v in per_replica.values] == [1.0, 2.0]


def test_errors_in_a_replica_reach_the_caller_and_merge_calls_must_match(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    strategy = tf.distribute.MirroredStrategy()

    def broken():
        if tf.distribute.get_replica_context().replica_id_in_sync_group == 1:
            raise KeyError("replica 1 failed")
        return tf.distribute.get_replica_context().merge_call(lambda s: 1)

    with pytest.raises(KeyError, match="replica 1 failed"):
        strategy.run(broken)

    def uneven():
        if tf.distribute.get_replica_context().replica_id_in_sync_group == 0:
            tf.distribute.get_replica_context().merge_call(lambda s: 1)

    with pytest.raises(RuntimeError, match="same number of times"):
        strategy.run(uneven)
    assert float(strategy.run(lambda: tf.constant(2.0)).values[1].numpy()) == 2.0  # still usable


@pytest.mark.parametrize("replicas, sizes", [
    (2, {5: [3, 2], 7: [4, 3], 6: [3, 3], 1: [1, 0], 3: [2, 1]}),
    (3, {5: [2, 2, 1], 7: [3, 3, 1], 8: [3, 3, 2], 6: [2, 2, 2], 1: [1, 0, 0], 3: [1, 1, 1]}),
    (4, {5: [2, 2, 1, 0], 7: [2, 2, 2, 1], 8: [2, 2, 2, 2], 6: [2, 2, 2, 0], 3: [1, 1, 1, 0]}),
])
def test_global_batches_split_like_tensorflow(replicas, sizes):
    for rows, expected in sizes.items():
        assert input_lib.split_sizes(rows, replicas) == expected


def test_distributed_dataset_places_each_chunk_on_its_device(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    strategy = tf.distribute.MirroredStrategy()
    x = np.arange(14, dtype=np.float32).reshape(7, 2)
    dataset = tf.data.Dataset.from_tensor_slices((x, np.arange(7))).batch(5)
    batches = list(strategy.experimental_distribute_dataset(dataset))
    (first_x, first_y), (last_x, _) = batches
    assert [t.shape[0] for t in first_x.values] == [3, 2] and [t.shape[0] for t in last_x.values] == [1, 1]
    assert [t.device for t in first_y.values] == [GPU.format(0), GPU.format(1)]
    np.testing.assert_array_equal(np.concatenate([t.numpy() for t in first_x.values]), x[:5])
    unbatched = tf.data.Dataset.from_tensor_slices(x[:, 0])
    with pytest.raises(ValueError, match="Call the `batch` method on the input Dataset in order to be able to split "
                                         "your input across 2 replicas."):
        list(strategy.experimental_distribute_dataset(unbatched))


def test_datasets_from_function_and_input_context(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    strategy = tf.distribute.MirroredStrategy()
    seen = []

    def dataset_fn(context):
        seen.append((context.num_input_pipelines, context.input_pipeline_id, context.num_replicas_in_sync))
        return tf.data.Dataset.range(8).batch(context.get_per_replica_batch_size(4))

    batches = list(strategy.distribute_datasets_from_function(dataset_fn))
    assert seen == [(1, 0, 2)]
    assert [[t.numpy().tolist() for t in b.values] for b in batches] == [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]
    with pytest.raises(ValueError, match="The `global_batch_size` 8 is not divisible by `num_replicas_in_sync` 3"):
        tf.distribute.InputContext(num_replicas_in_sync=3).get_per_replica_batch_size(8)


def test_one_device_and_default_strategies(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    one = tf.distribute.OneDeviceStrategy("/gpu:1")
    with one.scope():
        v = tf.Variable(2.0)
    assert v.device == GPU.format(1) and not isinstance(v, tf.distribute.MirroredVariable)
    assert one.run(lambda: tf.constant(1.0) + 1.0).device == GPU.format(1)
    default = tf.distribute.get_strategy()
    assert default.num_replicas_in_sync == 1 and not tf.distribute.has_strategy()
    assert float(default.run(lambda x: x * 2, args=(tf.constant(3.0),)).numpy()) == 6.0
    with one.scope():
        assert tf.distribute.get_strategy() is one and tf.distribute.in_cross_replica_context()
        with pytest.raises(RuntimeError, match="Mixing different tf.distribute.Strategy objects"):
            with tf.distribute.MirroredStrategy().scope():
                pass


def test_phase_timer_splits_a_traced_step(make_context):
    logical_cpus(make_context, 2)
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        w = tf.Variable(np.ones((4, 4), np.float32))
        optimizer = tf.keras.optimizers.SGD(0.1)

    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul(x, w))
        optimizer.apply_gradients([(tape.gradient(loss, w), w)])
        return loss

    train = tf.function(lambda x: strategy.run(step, args=(x,)))
    batch = next(iter(strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensors(np.ones((4, 4), np.float32)))))
    with tf.distribute.experimental.PhaseTimer() as timer:
        for _ in range(3):
            train(batch)
    per_step = timer.per_step_ms()
    assert timer.steps == 3 and per_step["compute"] > 0 and per_step["all-reduce"] > 0
    assert "3 steps; per step: compute" in timer.summary()


def test_concurrent_calls_of_a_traced_collective_step_neither_mix_nor_deadlock(make_context):
    from placeflow.graph import partition
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    strategy = tf.distribute.MirroredStrategy(cross_device_ops=tf.distribute.NcclAllReduce())
    w1, w2 = np.eye(64, dtype=np.float32), 2 * np.eye(64, dtype=np.float32)

    @tf.function
    def step(x):
        def body(x):  # two independent matmuls per device: parallel within a device, not only across
            both = tf.matmul(x, w1) + tf.matmul(x, w2)
            return tf.distribute.get_replica_context().all_reduce("SUM", both)
        return strategy.run(body, args=(x,))

    inputs = [tf.constant(np.full([64, 64], float(i), np.float32)) for i in range(6)]
    concrete = step.get_concrete_function(inputs[0])
    _finishes(lambda: step(inputs[0]))
    plan = concrete._plan
    assert plan.has_collectives and plan.per_device and not partition._parallel_only_across_devices(plan)
    wrong = []

    def caller(i):
        for _ in range(10):
            values = [float(v.numpy()[0, 0]) for v in step(inputs[i]).values]
            if values != [6.0 * i, 6.0 * i]:  # (x + 2x) on each of two replicas, summed
                wrong.append((i, values))

    threads = [threading.Thread(target=caller, args=(i,), daemon=True) for i in range(6)]
    for thread in threads:
        thread.start()
    _finishes(lambda: [thread.join() for thread in threads], seconds=60)
    assert wrong == []
