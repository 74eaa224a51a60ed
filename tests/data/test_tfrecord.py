"""TFRecord files interchangeable with TensorFlow 2.21: placeflow reads TF's files (fixtures written by TF,
record_tf_tfrecords.py), TF read placeflow's (recorded in tf_reads_tfrecords.json), corruption is DataLossError."""

import json
import pathlib

import pytest

import placeflow as tf

HERE = pathlib.Path(__file__).resolve().parent
RECORDS = [b"", b"record one", bytes(range(256)) * 3, "héllo wörld".encode("utf-8")]  # as the recorder writes
KINDS = {"none": None, "gzip": "GZIP", "zlib": "ZLIB"}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_reads_the_files_tensorflow_wrote(kind):
    path = str(HERE / "fixtures" / f"tf_written_{kind}.tfrecord")
    dataset = tf.data.TFRecordDataset(path, compression_type=KINDS[kind])
    assert dataset.element_spec == tf.TensorSpec([], tf.string)
    assert [r.numpy() for r in dataset] == RECORDS


def test_tensorflow_read_the_files_placeflow_wrote():
    recorded = json.loads((HERE / "tf_reads_tfrecords.json").read_text())
    assert recorded["tensorflow"] == "2.21.0"
    assert recorded["tf_read_placeflow_files"] == {"none": True, "gzip": True, "zlib": True}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_placeflow_writes_what_it_reads_and_tensorflow_wrote(kind, tmp_path):
    path = str(tmp_path / f"{kind}.tfrecord")
    with tf.io.TFRecordWriter(path, tf.io.TFRecordOptions(compression_type=KINDS[kind])) as writer:
        for item in RECORDS:
            writer.write(item)
    assert [r.numpy() for r in tf.data.TFRecordDataset([path, path], compression_type=KINDS[kind])] == RECORDS * 2
    if kind == "none":  # uncompressed, the bytes are TensorFlow's exactly
        assert pathlib.Path(path).read_bytes() == (HERE / "fixtures" / "tf_written_none.tfrecord").read_bytes()


def test_a_dataset_of_records_maps_inside_a_function(tmp_path):
    path = str(tmp_path / "words.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        for word in (b"ab", b"cde", b""):
            writer.write(word)
    lengths = tf.data.TFRecordDataset(path).map(lambda r: tf.strings.length(r))
    assert [int(n) for n in lengths] == [2, 3, 0]


def test_corrupted_and_truncated_records_are_data_loss(tmp_path):
    data = (HERE / "fixtures" / "tf_written_none.tfrecord").read_bytes()
    truncated, corrupted = tmp_path / "truncated.tfrecord", tmp_path / "corrupted.tfrecord"
    truncated.write_bytes(data[:-3])
    corrupted.write_bytes(data[:30] + bytes([data[30] ^ 0xFF]) + data[31:])
    for path in (truncated, corrupted):
        with pytest.raises(tf.errors.DataLossError, match="record at"):
            list(tf.data.TFRecordDataset(str(path)))
    with pytest.raises(tf.errors.NotFoundError):
        list(tf.data.TFRecordDataset(str(tmp_path / "missing.tfrecord")))
    with pytest.raises(ValueError, match="Unsupported compression type"):
        tf.io.TFRecordOptions(compression_type="LZ4")


def test_the_crc_fallback_equals_google_crc32c():
    import numpy as np

    from placeflow.framework import record_framing as records
    data = np.random.default_rng(0).integers(0, 256, size=4096, dtype=np.uint8).tobytes()
    assert records._table_crc32c(b"123456789") == 0xE3069283  # the check value of CRC-32C
    assert records._table_crc32c(data) == records.crc32c(data)


def test_text_lines_and_fixed_length_records(tmp_path):
    lines = tmp_path / "lines.txt"
    lines.write_bytes(b"first line\nsecond\r\n\nlast no newline")
    assert [l.numpy() for l in tf.data.TextLineDataset(str(lines))] == [b"first line", b"second", b"",
                                                                          b"last no newline"]  # TF 2.21's lines
    packed = tmp_path / "lines.txt.gz"
    import gzip
    packed.write_bytes(gzip.compress(b"a\nb\n"))
    assert [l.numpy() for l in tf.data.TextLineDataset([str(packed)] * 2, compression_type="GZIP")] == [b"a", b"b"] * 2
    fixed = tmp_path / "fixed.bin"
    fixed.write_bytes(b"HDRabcdefghijkFT")
    with pytest.raises(tf.errors.InvalidArgumentError, match="not an exact multiple of the record length"):
        list(tf.data.FixedLengthRecordDataset(str(fixed), 4, header_bytes=3, footer_bytes=2))
    fixed.write_bytes(b"HDRabcdefghFT")
    assert [r.numpy() for r in tf.data.FixedLengthRecordDataset(str(fixed), 4, header_bytes=3, footer_bytes=2)] == \
        [b"abcd", b"efgh"]
