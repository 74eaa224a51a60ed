"""CentralStorageStrategy's placement on simulated GPUs, the options it honours or refuses, and Keras training
equal to MirroredStrategy's (numbers against TensorFlow 2.21: test_recorded.py)."""

import numpy as np
import pytest

import placeflow as tf
from tests.distribute_more.cases import fit_model

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
GPU = "/job:localhost/replica:0/task:0/device:GPU:{}"


def logical_cpus(make_context, count=2):
    make_context()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * count)


def test_two_gpus_compute_and_the_cpu_stores(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    strategy = tf.distribute.experimental.CentralStorageStrategy()
    assert strategy.extended.worker_devices == (GPU.format(0), GPU.format(1))
    assert strategy.extended.parameter_devices == (CPU0,)
    with strategy.scope():
        w = tf.Variable([1.0, 2.0])
        counter = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                              aggregation=tf.VariableAggregation.SUM)
    assert w.device == CPU0 and [v.device for v in strategy.experimental_local_results(w)] == [CPU0]
    assert [v.device for v in counter.values] == [GPU.format(0), GPU.format(1)]  # one copy per replica

    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * x)
        grad = tape.gradient(loss, w)
        counter.assign_add(1.0)

        def apply(strategy, grad):
            total = strategy.extended.reduce_to(tf.distribute.ReduceOp.SUM, grad, destinations=w)
            assert total.device == CPU0  # gradients meet on the parameter device
            strategy.extended.update(w, lambda var, g: var.assign_sub(g), args=(total,))
        tf.distribute.get_replica_context().merge_call(apply, args=(grad,))
        return loss
    data = tf.data.Dataset.from_tensor_slices(np.arange(8, dtype=np.float32).reshape(4, 2)).batch(4)
    for batch in strategy.experimental_distribute_dataset(data):
        assert [p.device for p in batch.values] == [GPU.format(0), GPU.format(1)]
        losses = strategy.run(step, args=(batch,))
    assert [p.device for p in losses.values] == [GPU.format(0), GPU.format(1)]
    np.testing.assert_allclose(w.numpy(), [1.0 - 12.0, 2.0 - 16.0])
    assert float(counter.read_value()) == 2.0  # summed over the replicas when read


def test_one_gpu_holds_its_own_variables(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=1)
    strategy = tf.distribute.experimental.CentralStorageStrategy()
    assert strategy.extended.parameter_devices == (GPU.format(0),)
    with strategy.scope():
        v = tf.Variable(3.0)
    assert v.device == GPU.format(0) and type(v) is not tf.distribute.experimental.CentralStorageStrategy
    assert float(strategy.run(lambda: v * 2.0)) == 6.0


def test_an_explicit_parameter_device(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    strategy = tf.distribute.experimental.CentralStorageStrategy(["/gpu:0", "/gpu:1"], parameter_device="/gpu:1")
    with strategy.scope():
        v = tf.Variable(1.0)
    assert v.device == GPU.format(1)
    with pytest.raises(ValueError, match="Unknown device"):
        tf.distribute.experimental.CentralStorageStrategy(["/gpu:0", "/gpu:7"])


def test_input_options_are_honoured_or_refused(make_context):
    logical_cpus(make_context)
    strategy = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    data = tf.data.Dataset.range(8).batch(4)
    on_host = tf.distribute.InputOptions(experimental_fetch_to_device=False, experimental_per_replica_buffer_size=3)
    for batch in strategy.experimental_distribute_dataset(data, on_host):
        assert [p.device for p in batch.values] == [CPU0, CPU0]
    on_device = [p.device for b in strategy.experimental_distribute_dataset(data, tf.distribute.InputOptions())
                 for p in b.values]
    assert on_device[1].endswith("CPU:1")
    mode = tf.distribute.InputReplicationMode.PER_REPLICA
    with pytest.raises(NotImplementedError, match="PER_REPLICA"):
        strategy.experimental_distribute_dataset(data, tf.distribute.InputOptions(experimental_replication_mode=mode))
    with pytest.raises(NotImplementedError, match="PER_REPLICA"):
        strategy.distribute_datasets_from_function(lambda c: data,
                                                   tf.distribute.InputOptions(experimental_replication_mode=mode))
    with pytest.raises(NotImplementedError, match="experimental_place_dataset_on_device"):
        strategy.experimental_distribute_dataset(
            data, tf.distribute.InputOptions(experimental_place_dataset_on_device=True))
    with pytest.raises(TypeError, match="InputOptions"):
        strategy.experimental_distribute_dataset(data, {"experimental_fetch_to_device": False})


def test_run_options_beyond_the_defaults_are_refused(make_context):
    logical_cpus(make_context)
    strategy = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    with pytest.raises(NotImplementedError, match="experimental_bucketizing_dynamic_shape"):
        strategy.run(lambda: 1.0, options=tf.distribute.RunOptions(experimental_bucketizing_dynamic_shape=True))
    with pytest.raises(TypeError, match="RunOptions"):
        strategy.run(lambda: 1.0, options=tf.distribute.InputOptions())


def test_variables_cannot_be_made_inside_run(make_context):
    logical_cpus(make_context)
    strategy = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope(), pytest.raises(ValueError, match="inside `?(CentralStorageStrategy.|strategy.)run"):
        strategy.run(lambda: tf.Variable(1.0))


def test_keras_fit_equals_mirrored_strategy(make_context):
    logical_cpus(make_context)
    central, central_history = fit_model(tf, tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"]))
    mirrored, mirrored_history = fit_model(tf, tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]))
    for got, expected in zip(central.get_weights(), mirrored.get_weights()):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    for key in ("loss", "accuracy"):
        np.testing.assert_allclose(central_history.history[key], mirrored_history.history[key], rtol=1e-5)
    assert all(w.value.device == CPU0 for w in central.weights)


def test_set_strategy_enters_and_leaves(make_context):
    logical_cpus(make_context)
    strategy = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    tf.distribute.experimental_set_strategy(strategy)
    try:
        v = tf.Variable(1.0)  # made by the strategy that is set
        assert type(v).__name__ == "CentralVariable"
    finally:
        tf.distribute.experimental_set_strategy(None)
    assert not tf.distribute.has_strategy()
    with pytest.raises(TypeError, match="Strategy or None"):
        tf.distribute.experimental_set_strategy("mirrored")


def test_central_variables_save_and_restore(make_context, tmp_path):
    logical_cpus(make_context)
    strategy = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])
    path = tf.train.Checkpoint(v=v).save(str(tmp_path / "c"))
    v.assign([5.0, 6.0])
    tf.train.Checkpoint(v=v).restore(path)
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
    assert ("v/.ATTRIBUTES/VARIABLE_VALUE", [2]) in tf.train.list_variables(str(tmp_path))
