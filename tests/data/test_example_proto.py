"""tf.train.Example with TensorFlow's encoding, and tf.io.parse_single_example /
parse_example of TF-written records (tests/data/fixtures/tf_written_examples.tfrecord, written by TF 2.21 with
record_tf_tfrecords.py, which also checked that TF parses placeflow's examples as its own)."""

import json
import pathlib

import numpy as np
import pytest

import placeflow as tf
from tests.data.record_tf_tfrecords import example

HERE = pathlib.Path(__file__).resolve().parent
SPEC = {"label": tf.io.FixedLenFeature([2], tf.int64), "score": tf.io.VarLenFeature(tf.float32),
        "name": tf.io.FixedLenFeature([2], tf.string),
        "missing": tf.io.FixedLenFeature([], tf.float32, default_value=7.0)}


def _tf_records():
    return [r.numpy() for r in tf.data.TFRecordDataset(str(HERE / "fixtures" / "tf_written_examples.tfrecord"))]


def test_examples_round_trip_and_read_tensorflows():
    # protobuf leaves the order of map entries open (TF's own serializations differ run to run): compare messages
    assert [tf.train.Example.FromString(r) for r in _tf_records()] == [example(tf, i) for i in range(3)]
    ours = example(tf, 1).SerializeToString()
    assert tf.train.Example.FromString(ours) == example(tf, 1) and ours == example(tf, 1).SerializeToString()
    assert json.loads((HERE / "tf_reads_tfrecords.json").read_text())["tf_parsed_placeflow_examples"] is True


def test_parse_single_example():
    parsed = tf.io.parse_single_example(_tf_records()[2], SPEC)  # values recorded from TF 2.21
    assert parsed["label"].numpy().tolist() == [2, -2 ** 40] and parsed["label"].dtype == tf.int64
    assert parsed["name"].numpy().tolist() == [b"abc", "héllo".encode()]
    assert float(parsed["missing"]) == 7.0
    score = parsed["score"]
    assert score.indices.numpy().tolist() == [[0], [1], [2]] and score.dense_shape.numpy().tolist() == [3]
    np.testing.assert_array_equal(score.values.numpy(), np.float32([1.0, -1.25, 3.1]))


def test_parse_example_of_a_batch_and_inside_a_dataset_map():
    parsed = tf.io.parse_example(tf.constant(_tf_records()), SPEC)
    assert parsed["label"].shape == (3, 2) and parsed["missing"].numpy().tolist() == [7.0] * 3
    score = parsed["score"]
    assert score.dense_shape.numpy().tolist() == [3, 3]
    assert score.indices.numpy().tolist() == [[0, 0], [1, 0], [1, 1], [2, 0], [2, 1], [2, 2]]
    labels = tf.data.TFRecordDataset(str(HERE / "fixtures" / "tf_written_examples.tfrecord")).map(
        lambda r: tf.io.parse_single_example(r, {"label": tf.io.FixedLenFeature([2], tf.int64)})["label"][0])
    assert [int(v) for v in labels] == [0, 1, 2]


def test_parse_errors_are_tensorflows():
    record = _tf_records()[0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Data types don't match"):
        tf.io.parse_single_example(record, {"label": tf.io.FixedLenFeature([2], tf.float32)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="is required but could not be found"):
        tf.io.parse_single_example(record, {"absent": tf.io.FixedLenFeature([], tf.int64)})
    with pytest.raises(NotImplementedError, match="parse_single_example inside a function"):
        tf.function(lambda r: tf.io.parse_single_example(r, SPEC)["label"])(tf.constant(record))
