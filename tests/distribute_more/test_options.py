"""CollectiveHints reach MultiWorkerMirroredStrategy's collectives as CommunicationOptions; the option tuples
behave as TensorFlow's (values: test_recorded.py)."""

import pytest

import placeflow as tf


def test_collective_hints_configure_multi_worker_collectives(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    hints = tf.distribute.experimental.CollectiveHints(bytes_per_pack=64, timeout_seconds=0)  # 0: no timeout
    strategy = tf.distribute.MultiWorkerMirroredStrategy(communication_options=hints)
    options = strategy._communication_options
    assert (options.bytes_per_pack, options.timeout_seconds) == (64, None)
    assert options.implementation == tf.distribute.experimental.CommunicationImplementation.AUTO


def test_option_tuples_are_immutable_and_comparable():
    options = tf.distribute.InputOptions(experimental_per_replica_buffer_size=2)
    assert options == tf.distribute.InputOptions(experimental_per_replica_buffer_size=2)
    assert options._replace(experimental_fetch_to_device=False).experimental_fetch_to_device is False
    with pytest.raises(AttributeError):
        options.experimental_fetch_to_device = False
    assert tf.distribute.InputReplicationMode("PER_REPLICA") is tf.distribute.InputReplicationMode.PER_REPLICA
    assert tf.distribute.RunOptions() == tf.distribute.RunOptions(experimental_enable_dynamic_batch_size=True)


def test_value_context_is_what_value_functions_receive(make_context):
    make_context()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    strategy = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    seen = []
    strategy.experimental_distribute_values_from_function(lambda context: seen.append(context) or 0.0)
    assert all(isinstance(c, tf.distribute.experimental.ValueContext) for c in seen)
    assert [(c.replica_id_in_sync_group, c.num_replicas_in_sync) for c in seen] == [(0, 2), (1, 2)]


def test_mirrored_strategy_refuses_options_it_does_not_read():
    """MirroredStrategy's input pipeline prefetches nothing and always copies to the replicas' devices: InputOptions
    set otherwise, and RunOptions set away from their defaults, are refused by name rather than ignored."""
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    assert strategy.run(lambda: 3, options=tf.distribute.RunOptions()) == 3
    data = tf.data.Dataset.range(4).batch(2)
    for options in (tf.distribute.InputOptions(experimental_fetch_to_device=False),
                    tf.distribute.InputOptions(experimental_per_replica_buffer_size=4)):
        with pytest.raises(NotImplementedError, match="InputOptions"):
            strategy.experimental_distribute_dataset(data, options)
    with pytest.raises(NotImplementedError, match="PER_REPLICA"):
        strategy.distribute_datasets_from_function(lambda ctx: data, tf.distribute.InputOptions(
            experimental_replication_mode=tf.distribute.InputReplicationMode.PER_REPLICA))
    with pytest.raises(TypeError, match="RunOptions"):
        strategy.run(lambda: 3, options="fast")
