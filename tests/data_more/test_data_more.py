"""placeflow's tf.data.experimental additions equal TensorFlow 2.21's recorded results (cases.py,
record_tf_data_more.py): floats within 1e-5 (or a case's stated tolerance: rejection_resample's class frequencies,
whose draws are placeflow's), everything else exactly; errors by class. Then what placeflow does differently on
purpose: its own save format (TF's is refused by name), the refusals, and the TF behaviour not copied."""

import json
import pathlib

import numpy as np
import pytest

import placeflow as tf
from tests.helpers import same_as_recorded as _same
from tests.data_more.cases import CASES, TRACED_EXCLUDED
from tests.traced_api import traced_names

HERE = pathlib.Path(__file__).resolve().parent
RECORDING = json.loads((HERE / "tf_2_21.json").read_text())
RECORDED = RECORDING["cases"]




def test_every_case_was_recorded_from_tensorflow_2_21():
    assert RECORDING["tensorflow"] == "2.21.0" and sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(name):
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)


TRACED = json.loads(pathlib.Path(__file__).with_name("tf_2_21_traced.json").read_text())


def test_every_case_was_recorded_in_a_function():
    """Every case here only builds pipelines, files or tables (cases.TRACED_EXCLUDED): none runs in a function."""
    assert TRACED["tensorflow"] == "2.21.0" and TRACED["excluded"] == TRACED_EXCLUDED
    assert sorted(TRACED["cases"]) == traced_names(CASES, TRACED_EXCLUDED) == []



# -- TFRecordWriter: TensorFlow read placeflow's files --------------------------------------------------------------

def test_tensorflow_read_the_files_placeflows_tfrecord_writer_wrote():
    expected = [{"dtype": "string", "shape": [], "values": [v]} for v in ("first", "", "\x00\xff third")]
    assert RECORDING["tf_reads_placeflow"] == {"none": expected, "GZIP": expected, "ZLIB": expected}


def test_tfrecord_writer_refuses_what_tensorflow_accepts_silently(tmp_path):
    """TF 2.21 writes an unknown compression without complaint, and fails with AttributeError on a tuple dataset:
    placeflow raises ValueError and TypeError saying what it expects."""
    records = tf.data.Dataset.from_tensors(b"a")
    with pytest.raises(ValueError, match="BZIP2"):
        tf.data.experimental.TFRecordWriter(str(tmp_path / "x"), "BZIP2").write(records)
    with pytest.raises(TypeError, match="scalar `tf.string`"):
        tf.data.experimental.TFRecordWriter(str(tmp_path / "y")).write(tf.data.Dataset.zip((records, records)))


# -- save, load, snapshot: placeflow's format -----------------------------------------------------------------------

def test_loading_a_directory_tensorflow_saved_is_refused_by_name():
    with pytest.raises(NotImplementedError, match="TensorFlow's tf.data save/snapshot wrote"):
        tf.data.Dataset.load(str(HERE / "fixtures" / "tf_saved_range"))
    with pytest.raises(NotImplementedError, match="snapshot format"):
        list(tf.data.Dataset.range(3).snapshot(str(HERE / "fixtures" / "tf_saved_range")))


def test_save_refusals_and_checks(tmp_path):
    data = tf.data.Dataset.range(4)
    with pytest.raises(ValueError, match="BZIP2"):  # TF 2.21 accepts it silently
        data.save(str(tmp_path / "a"), compression="BZIP2")
    with pytest.raises(NotImplementedError, match="SNAPPY"):
        data.save(str(tmp_path / "a"), compression="SNAPPY")
    with pytest.raises(NotImplementedError, match="checkpoint_args"):
        data.save(str(tmp_path / "a"), checkpoint_args={"checkpoint_interval": 1})
    with pytest.raises(NotImplementedError, match="wait=True"):
        tf.data.Dataset.load(str(tmp_path / "a"), wait=True)
    data.save(str(tmp_path / "b"), compression="GZIP")
    with pytest.raises(tf.errors.DataLossError, match="compression='GZIP'"):
        tf.data.Dataset.load(str(tmp_path / "b"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="shard index"):
        data.save(str(tmp_path / "c"), shard_func=lambda x: x - 2)


def test_save_replaces_an_earlier_save_but_never_other_files(tmp_path):
    tf.data.Dataset.range(3).save(str(tmp_path / "d"))
    tf.data.Dataset.range(2).save(str(tmp_path / "d"))
    assert [int(x) for x in tf.data.Dataset.load(str(tmp_path / "d"))] == [0, 1]
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "keep.txt").write_text("mine")
    with pytest.raises(tf.errors.AlreadyExistsError, match="choose a new directory"):
        tf.data.Dataset.range(2).save(str(tmp_path / "other"))
    assert (tmp_path / "other" / "keep.txt").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d", "other"]


def test_an_interrupted_pass_leaves_no_snapshot(tmp_path):
    path = str(tmp_path / "snap")
    data = tf.data.Dataset.range(5).snapshot(path)
    assert [int(x) for x in data.take(2)] == [0, 1]
    assert not (tmp_path / "snap").exists() and [p.name for p in tmp_path.iterdir()] == []
    assert [int(x) for x in data] == list(range(5)) and (tmp_path / "snap" / "placeflow_dataset.json").exists()
    other = tf.data.Dataset.range(100, 105).snapshot(path)  # placeflow cannot fingerprint pipelines: reads `path`
    assert [int(x) for x in other] == list(range(5))
    floats = tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.float32) / 2).snapshot(path)  # another spec
    assert [float(x) for x in floats] == [0.0, 0.5, 1.0] == [float(x) for x in floats]


def test_a_compressed_snapshot_reads_back(tmp_path):
    data = tf.data.Dataset.from_tensor_slices([b"x", b"yy"]).snapshot(str(tmp_path / "s"), compression="GZIP")
    assert [x.numpy() for x in data] == [b"x", b"yy"] == [x.numpy() for x in data]
    with pytest.raises(NotImplementedError, match="SNAPPY"):
        tf.data.Dataset.range(2).snapshot(str(tmp_path / "t"), compression="SNAPPY")


def test_classes_outside_the_target_distribution_are_refused():
    data = tf.data.Dataset.from_tensor_slices(np.array([0, 1, 5], np.int64))
    resampled = data.apply(tf.data.experimental.rejection_resample(lambda c: c, [0.5, 0.5], [0.4, 0.6], seed=1))
    with pytest.raises(tf.errors.InvalidArgumentError, match="class 5, outside"):
        list(resampled)


def test_save_keeps_strings_bools_and_shapes(tmp_path):
    data = tf.data.Dataset.from_tensor_slices((np.array([[1, 2], [3, 4]], np.int32), [True, False])).map(
        lambda x, b: {"x": x, "b": b, "s": tf.strings.as_string(x)})
    tf.data.experimental.save(data, str(tmp_path / "d"))
    loaded = tf.data.experimental.load(str(tmp_path / "d"))
    assert loaded.element_spec == data.element_spec
    for ours, theirs in zip(loaded.as_numpy_iterator(), data.as_numpy_iterator()):
        assert sorted(ours) == sorted(theirs) and all(np.array_equal(ours[k], theirs[k]) for k in ours)


# -- RandomDataset, rejection_resample, parse_example_dataset ------------------------------------------------------

def test_random_dataset_is_tensorflows_stream_for_a_global_seed_pair():
    first = [int(x) for x in tf.data.experimental.RandomDataset(seed=42).take(300)]
    assert first[:3] == [2985944072, 4132877644, 929418493] and all(0 <= v < 2 ** 32 for v in first)
    assert len(set(first)) == 300  # across the 256-value refills


def test_rejection_resample_keeps_the_element_structure_and_counts_classes():
    data = tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 1] * 500, np.int64))
    out = data.apply(tf.data.experimental.rejection_resample(lambda c: c, [0.5, 0.5], [0.25, 0.75], seed=5))
    pairs = [(int(c), int(e)) for c, e in out.take(1000)]
    assert all(c == e for c, e in pairs)
    share = sum(c for c, _ in pairs) / len(pairs)
    assert abs(share - 0.5) < 0.06


def test_sparse_features_are_refused_by_name():
    with pytest.raises(NotImplementedError, match="VarLenFeature"):
        tf.data.experimental.parse_example_dataset({"v": tf.io.VarLenFeature(tf.int64)})
    with pytest.raises(NotImplementedError, match="VarLenFeature"):
        tf.data.experimental.make_batched_features_dataset("*.none", 2, {"v": tf.io.VarLenFeature(tf.int64)})


# -- refusals ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, args", [
    ("dense_to_sparse_batch", (2, [3])), ("get_model_proto", (None,)), ("from_variant", (None, None)),
    ("to_variant", (None,)), ("distributed_save", (None, "p", "addr")), ("make_saveable_from_iterator", (None,)),
])
def test_refused_names_raise_not_implemented_error_naming_them(name, args):
    with pytest.raises(NotImplementedError, match=rf"tf\.data\.experimental\.{name} is not implemented"):
        getattr(tf.data.experimental, name)(*args)


@pytest.mark.parametrize("name", ["CrossTrainerCache", "DispatchServer", "DispatcherConfig", "ShardingPolicy",
                                  "WorkerConfig", "WorkerServer", "distribute", "from_dataset_id",
                                  "register_dataset"])
def test_the_data_service_is_refused_as_a_whole(name):
    with pytest.raises(NotImplementedError, match=rf"service\.{name} is not implemented in placeflow: placeflow "
                                                  rf"has no tf\.data service"):
        getattr(tf.data.experimental.service, name)()


def test_dataset_initializer_refuses_a_list_with_type_error():
    """TF 2.21 raises AttributeError ('list' object has no attribute 'element_spec'): placeflow a TypeError."""
    with pytest.raises(TypeError, match="tf.data.Dataset of \\(key, value\\) pairs"):
        tf.data.experimental.DatasetInitializer([(1, 2)])


def test_dataset_random_and_rejection_resample_methods_are_the_experimental_ones():
    """Dataset.random(seed=4) gives TF 2.21's values (recorded by hand), as RandomDataset does; the method form
    of rejection_resample has TF's element structure."""
    assert [int(v) for v in tf.data.Dataset.random(seed=4).take(3)] == [3128586565, 2023892699, 452966358]
    pairs = tf.data.Dataset.range(20).map(lambda x: (x % 2, x)).rejection_resample(lambda c, x: c, [0.5, 0.5],
                                                                                   seed=1)
    assert [s.dtype for s in tf.nest.flatten(pairs.element_spec)] == [tf.int64] * 3
    classes = [int(c) for c, _ in pairs.take(10)]
    assert set(classes) <= {0, 1}
