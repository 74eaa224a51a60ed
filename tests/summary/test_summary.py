"""tf.summary writes TensorBoard event files that real TensorFlow reads (tf_reads.json, recorded by
record_tf_reads.py from the same program): this test decodes placeflow's file on its own (framing, CRCs,
messages) and compares with what TensorFlow read."""

import json
import pathlib
import struct
import zlib

import numpy as np
import pytest

import placeflow as tf
from placeflow.summary.records import masked_crc

from .summary_program import write_summaries

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_reads.json").read_text())["values"]
DTYPES = {1: np.float32, 2: np.float64, 3: np.int32, 9: np.int64}


def _fields(data):
    """(field number, value) pairs of one protobuf message (varint, 64-bit and length-delimited fields)."""
    position = 0
    while position < len(data):
        key, position = _varint(data, position)
        number, kind = key >> 3, key & 7
        if kind == 0:
            value, position = _varint(data, position)
        elif kind == 1:
            value, position = struct.unpack("<d", data[position:position + 8])[0], position + 8
        elif kind == 2:
            length, position = _varint(data, position)
            value, position = data[position:position + length], position + length
        else:
            raise AssertionError(f"unexpected wire type {kind}")
        yield number, value


def _varint(data, position):
    result = shift = 0
    while True:
        byte = data[position]
        position += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, position


def _records(path):
    data = path.read_bytes()
    position = 0
    while position < len(data):
        header = data[position:position + 8]
        (length,) = struct.unpack("<Q", header)
        assert struct.unpack("<I", data[position + 8:position + 12])[0] == masked_crc(header)
        body = data[position + 12:position + 12 + length]
        assert struct.unpack("<I", data[position + 12 + length:position + 16 + length])[0] == masked_crc(body)
        position += 16 + length
        yield body


def _decode(tensor):
    fields = list(_fields(tensor))
    dtype = dict(fields)[1]
    shape = [dict(_fields(dim))[1] for number, value in fields if number == 2 for n, dim in _fields(value) if n == 2]
    if dtype == 7:
        return [v.decode("latin-1") for n, v in fields if n == 8], shape
    content = dict(fields)[4]
    return np.frombuffer(content, DTYPES[dtype]).tolist(), shape


def _values(logdir):
    out = []
    (path,) = pathlib.Path(logdir).glob("events.out.tfevents.*")
    for body in _records(path):
        event = dict(_fields(body))
        if 5 not in event:
            assert event[3] == b"brain.Event:2"
            continue
        for number, value in _fields(event[5]):
            fields = dict(_fields(value))
            plugin_data = dict(_fields(fields.get(9, b""))).get(1, b"")
            plugin = dict(_fields(plugin_data)).get(1, b"").decode()
            values, shape = _decode(fields[8])
            out.append({"step": event[2], "tag": fields[1].decode(), "plugin": plugin, "shape": shape,
                        "values": values})
    return out


def test_event_files_hold_what_tensorflow_reads(tmp_path):
    write_summaries(tf, str(tmp_path))
    ours = _values(tmp_path)
    expected = [{k: v for k, v in entry.items() if k != "dtype"} for entry in RECORDED]
    assert [(v["step"], v["tag"], v["plugin"], v["shape"]) for v in ours] == \
        [(v["step"], v["tag"], v["plugin"], v["shape"]) for v in expected]
    for got, want in zip(ours, expected):
        if got["plugin"] in ("text", "images"):
            assert got["values"] == want["values"]
        else:
            np.testing.assert_allclose(got["values"], want["values"], rtol=1e-6)


def test_images_are_pngs_of_the_pixels(tmp_path):
    write_summaries(tf, str(tmp_path))
    (picture,) = [v for v in _values(tmp_path) if v["tag"] == "picture"]
    width, height, first = picture["values"][0], picture["values"][1], picture["values"][2].encode("latin-1")
    assert (width, height) == ("4", "3") and first.startswith(b"\x89PNG")
    idat = first[first.index(b"IDAT") + 4:first.index(b"IEND") - 8]
    rows = zlib.decompress(idat)
    pixels = np.frombuffer(rows, np.uint8).reshape(3, 1 + 4 * 3)[:, 1:].reshape(3, 4, 3)
    np.testing.assert_array_equal(pixels, (np.arange(2 * 3 * 4 * 3).reshape(2, 3, 4, 3) % 256)[0])


def test_without_a_writer_or_a_step_summaries_say_so(tmp_path):
    assert tf.summary.scalar("x", 1.0, step=0) is False  # no default writer: nothing written
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        tf.summary.experimental.set_step(None)
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.scalar("x", 1.0)
        with pytest.raises(ValueError, match="needs a scalar"):
            tf.summary.scalar("x", [1.0, 2.0], step=0)
    writer.close()
    with pytest.raises(ValueError, match="is not tf.Graph"):  # graph() is in summary/trace.py (misc-names)
        tf.summary.graph(None)

    @tf.function
    def traced():
        with writer.as_default():
            return tf.summary.scalar("x", tf.constant(1.0), step=0)
    with pytest.raises(NotImplementedError, match="inside a traced"):
        traced()


def test_keras_tensorboard_callback_writes_the_logged_epochs(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(-1, 1)
    history = model.fit(x, 2 * x, batch_size=4, epochs=3, verbose=0, validation_split=0.25,
                        callbacks=[tf.keras.callbacks.TensorBoard(str(tmp_path), histogram_freq=1)])
    train = [v for v in _values(tmp_path / "train") if v["tag"] == "epoch_loss"]
    assert [v["step"] for v in train] == [0, 1, 2]
    np.testing.assert_allclose([v["values"][0] for v in train], history.history["loss"], rtol=1e-6)
    assert any(v["plugin"] == "histograms" for v in _values(tmp_path / "train"))
    validation = [v for v in _values(tmp_path / "validation") if v["tag"] == "epoch_mae"]
    np.testing.assert_allclose([v["values"][0] for v in validation], history.history["val_mae"], rtol=1e-6)
