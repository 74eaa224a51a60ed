"""Checkpoint files under faults and on several devices: corrupt or missing files raise TF's error classes
and change nothing; a failed save leaves no partial files; mirrored variables save and restore as one."""

import os

import numpy as np
import pytest

import placeflow as tf
from placeflow.checkpoint import sstable, tensor_bundle


def _saved(tmp_path):
    variables = {"a": tf.Variable([1.0, 2.0, 3.0]), "b": tf.Variable([[1, 2], [3, 4]])}
    return variables, tf.train.Checkpoint(**variables).write(str(tmp_path / "ckpt"))


def test_the_table_round_trips_many_blocks_and_shared_prefixes():
    entries = [(f"layer_{i:05d}/kernel".encode(), bytes([i % 251]) * (i % 700)) for i in range(3000)]
    table = sstable.build_table(entries)
    assert list(sstable.read_table(table)) == entries
    with pytest.raises(ValueError, match="must increase"):
        sstable.build_table([(b"b", b""), (b"a", b"")])


@pytest.mark.parametrize("damage", ["flip_data", "truncate_data", "flip_index", "truncate_index"])
def test_damaged_files_raise_data_loss_and_restore_nothing(tmp_path, damage):
    _, prefix = _saved(tmp_path)
    path = tensor_bundle.index_path(prefix) if "index" in damage else tensor_bundle.data_path(prefix)
    raw = bytearray(open(path, "rb").read())
    if damage.startswith("flip"):
        raw[len(raw) // 3] ^= 0x40
    else:
        raw = raw[:len(raw) // 2]
    open(path, "wb").write(bytes(raw))
    fresh = {"a": tf.Variable([0.0, 0.0, 0.0]), "b": tf.Variable([[0, 0], [0, 0]])}
    with pytest.raises(tf.errors.DataLossError):
        tf.train.Checkpoint(**fresh).restore(prefix)
    assert fresh["a"].numpy().tolist() == [0.0, 0.0, 0.0] and fresh["b"].numpy().tolist() == [[0, 0], [0, 0]]


def test_a_missing_data_file_is_not_found(tmp_path):
    _, prefix = _saved(tmp_path)
    os.remove(tensor_bundle.data_path(prefix))
    with pytest.raises(tf.errors.NotFoundError, match="data file is missing"):
        tf.train.load_checkpoint(prefix).get_tensor("a/.ATTRIBUTES/VARIABLE_VALUE")


def test_a_failed_save_leaves_no_files_and_the_counter_is_usable(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    checkpoint = tf.train.Checkpoint(v=tf.Variable(1.0))
    with pytest.raises(OSError):
        checkpoint.save(str(blocker / "ckpt"))
    assert sorted(os.listdir(tmp_path)) == ["file"]
    assert os.path.basename(checkpoint.save(str(tmp_path / "ok"))) == "ok-2"


def test_checkpoint_calls_inside_a_function_are_refused(tmp_path):
    checkpoint = tf.train.Checkpoint(v=tf.Variable(1.0))

    @tf.function
    def save():
        return checkpoint.write(str(tmp_path / "x"))
    with pytest.raises(RuntimeError, match="inside a tf.function"):
        save()


def test_options_are_refused_by_name_or_honoured():
    with pytest.raises(NotImplementedError, match="experimental_io_device"):
        tf.train.CheckpointOptions(experimental_io_device="/job:localhost")
    with pytest.raises(TypeError, match="CheckpointOptions"):
        tf.train.Checkpoint().save("/tmp/x", options={"enable_async": True})
    assert tf.train.CheckpointOptions(enable_async=True).enable_async


def test_mirrored_variables_save_one_value_and_restore_every_copy(tmp_path, make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    with strategy.scope():
        mirrored = tf.Variable([1.0, 2.0])
    plain_prefix = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).write(str(tmp_path / "plain"))
    mirrored_prefix = tf.train.Checkpoint(v=mirrored).write(str(tmp_path / "mirrored"))
    for suffix in (".index", ".data-00000-of-00001"):
        assert open(plain_prefix + suffix, "rb").read() == open(mirrored_prefix + suffix, "rb").read()
    mirrored.assign([0.0, 0.0])
    tf.train.Checkpoint(v=mirrored).read(plain_prefix).assert_consumed()
    copies = [np.asarray(v.numpy()).tolist() for v in strategy.experimental_local_results(mirrored)]
    assert copies == [[1.0, 2.0], [1.0, 2.0]]


def test_string_variables_and_many_dtypes_round_trip(tmp_path):
    values = {"s": tf.Variable([b"a", b"", "\u00e9".encode()]), "h": tf.Variable(np.float16([1.5, -2])),
              "c": tf.Variable(np.complex128([1 + 2j])), "u": tf.Variable(np.uint64([2**63 + 5])),
              "e": tf.Variable(np.zeros([0, 3], np.float32))}
    prefix = tf.train.Checkpoint(**values).write(str(tmp_path / "many"))
    reader = tf.train.load_checkpoint(prefix)
    for name, variable in values.items():
        saved = reader.get_tensor(f"{name}/.ATTRIBUTES/VARIABLE_VALUE")
        assert saved.dtype == variable.dtype.numpy_dtype or name == "s"
        assert np.array_equal(saved, variable.numpy())
    assert reader.get_variable_to_dtype_map()["u/.ATTRIBUTES/VARIABLE_VALUE"] == tf.uint64


def test_manager_keeps_one_checkpoint_every_n_hours(tmp_path, monkeypatch):
    import time
    clock = [1000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), str(tmp_path), max_to_keep=1,
                                         keep_checkpoint_every_n_hours=1)
    for _ in range(4):
        clock[0] += 1800.0
        manager.save()
    kept = sorted(name for name in os.listdir(tmp_path) if name.endswith(".index"))
    assert kept == ["ckpt-2.index", "ckpt-4.index"]  # ckpt-2 is an hour after the manager started
