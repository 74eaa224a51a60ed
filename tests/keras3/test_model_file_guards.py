"""Hostile model files (issue 31): `tf.keras` is Keras 3, so Keras's own guards refuse HDF5 external storage,
external links and shape bombs before reading anything; these tests keep them in force for placeflow."""

import shutil
import tracemalloc

import numpy as np
import pytest

import placeflow as tf

h5py = pytest.importorskip("h5py")
keras = tf.keras
KERNEL = "layers/dense/vars/0"


@pytest.fixture
def saved(tmp_path):
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    path = tmp_path / "good.weights.h5"
    model.save_weights(path)
    return model, path


def _tampered(path, tmp_path, make):
    target = tmp_path / "tampered.weights.h5"
    shutil.copy(path, target)
    with h5py.File(target, "r+") as f:
        del f[KERNEL]
        make(f)
    return target


def test_an_external_dataset_cannot_read_a_local_file_into_the_weights(saved, tmp_path):
    model, path = saved
    secret = tmp_path / "secret.bin"
    np.full(8, 1234.5, np.float32).tofile(secret)
    bad = _tampered(path, tmp_path, lambda f: f.create_dataset(KERNEL, shape=(4, 2), dtype="float32",
                                                               external=[(str(secret), 0, 32)]))
    before = model.get_weights()
    with pytest.raises(ValueError):
        model.load_weights(bad)
    assert not np.any(model.get_weights()[0] == 1234.5)
    np.testing.assert_array_equal(model.get_weights()[0], before[0])


def test_an_external_link_is_refused(saved, tmp_path):
    model, path = saved
    other = tmp_path / "other.h5"
    with h5py.File(other, "w") as f:
        f.create_dataset("x", data=np.full((4, 2), 99.0, np.float32))
    bad = _tampered(path, tmp_path, lambda f: f.__setitem__(KERNEL, h5py.ExternalLink(str(other), "x")))
    with pytest.raises(ValueError):
        model.load_weights(bad)
    assert not np.any(model.get_weights()[0] == 99.0)


def test_a_virtual_dataset_mapping_another_file_is_refused(saved, tmp_path):
    model, path = saved
    other = tmp_path / "other.h5"
    with h5py.File(other, "w") as f:
        f.create_dataset("x", data=np.full((4, 2), 77.0, np.float32))

    def virtual(f):
        layout = h5py.VirtualLayout(shape=(4, 2), dtype="float32")
        layout[:] = h5py.VirtualSource(str(other), "x", shape=(4, 2))
        f.create_virtual_dataset(KERNEL, layout)
    bad = _tampered(path, tmp_path, virtual)
    before = model.get_weights()
    with pytest.raises(ValueError):
        model.load_weights(bad)
    assert not np.any(model.get_weights()[0] == 77.0)
    np.testing.assert_array_equal(model.get_weights()[0], before[0])


# What TF 2.21 with Keras 3.15.1 raises for each damage (recorded by running this test's files through it): placeflow
# raises the same. All are ValueErrors naming the problem (JSONDecodeError is one), except a missing config.json,
# for which Keras itself lets zipfile's KeyError through, as under TensorFlow.
MALFORMED = {"truncated": (ValueError, "File not found: filepath="), "not a zip": (ValueError, "File not found"),
             "no config": (KeyError, "There is no item named 'config.json' in the archive"),
             "config not json": (ValueError, "Expecting property name enclosed in double quotes"),
             "unknown layer": (ValueError, "Could not deserialize 'keras.layers.NoSuchLayer'")}


@pytest.mark.parametrize("damage", sorted(MALFORMED))
def test_a_malformed_keras_file_raises_what_tensorflow_raises(tmp_path, damage):
    import zipfile
    good = tmp_path / "good.keras"
    keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)]).save(good)
    bad = tmp_path / "bad.keras"
    if damage == "truncated":
        bad.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    elif damage == "not a zip":
        bad.write_bytes(b"this is not a model file")
    else:
        with zipfile.ZipFile(good) as src, zipfile.ZipFile(bad, "w") as dst:
            for item in src.infolist():
                data = src.read(item)
                if item.filename == "config.json":
                    if damage == "no config":
                        continue
                    data = b"{not json" if damage == "config not json" else \
                        data.replace(b'"class_name": "Dense"', b'"class_name": "NoSuchLayer"')
                dst.writestr(item, data)
    expected, first_words = MALFORMED[damage]
    with pytest.raises(expected) as raised:
        keras.models.load_model(bad)
    assert first_words in str(raised.value)


def test_a_small_file_declaring_an_8_gib_dataset_is_refused_without_allocating_it(saved, tmp_path):
    model, path = saved
    bad = _tampered(path, tmp_path, lambda f: f.create_dataset(KERNEL, shape=(1 << 31,), dtype="float32",
                                                               chunks=(1 << 20,)))
    assert bad.stat().st_size < 1 << 20
    tracemalloc.start()
    try:
        with pytest.raises(ValueError):
            model.load_weights(bad)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20


def _zip_member(name: bytes, data: bytes, declared: int, offset: int) -> tuple:
    """(local header + data, central directory entry) of a deflated ZIP member whose central directory declares
    `declared` uncompressed bytes (a ZIP64 field when that is 4 GiB or more), whatever it really holds."""
    import struct
    import zlib
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    stored = packer.compress(data) + packer.flush()
    crc = zlib.crc32(data)
    big = declared >= 0xFFFFFFFF
    extra = struct.pack("<HHQ", 1, 8, declared) if big else b""
    size32 = 0xFFFFFFFF if big else declared
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 8, 0, 0x21, crc, len(stored), size32, len(name),
                        len(extra)) + name + extra + stored
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 8, 0, 0x21, crc, len(stored), size32,
                          len(name), len(extra), 0, 0, 0, 0, offset) + name + extra
    return local, central


def _keras_file_declaring(path, config_bytes: int) -> None:
    """A `.keras` archive of a few hundred bytes whose config.json declares `config_bytes` bytes (ZIP64)."""
    import struct
    members = [(b"metadata.json", b'{"keras_version": "3.15.1"}', None), (b"config.json", b"{}", config_bytes)]
    body, directory = b"", b""
    for name, data, declared in members:
        local, central = _zip_member(name, data, len(data) if declared is None else declared, len(body))
        body, directory = body + local, directory + central
    end64 = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, 2, 2, len(directory), len(body))
    locator = struct.pack("<IIQI", 0x07064B50, 0, len(body) + len(directory), 1)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 2, 2, len(directory), len(body), 0)
    path.write_bytes(body + directory + end64 + locator + end)


def test_a_keras_file_declaring_a_4_5_gib_config_is_refused_without_reading_it(tmp_path):
    import zipfile
    path = tmp_path / "bomb.keras"
    _keras_file_declaring(path, 9 << 29)          # 4.5 GiB declared, a few hundred bytes on disk
    assert path.stat().st_size < 1024
    assert zipfile.ZipFile(path).getinfo("config.json").file_size == 9 << 29
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="decompression bomb"):
            keras.models.load_model(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20


def test_an_absurd_layer_or_input_is_refused_or_stays_symbolic_without_allocating(make_context):
    make_context()
    tracemalloc.start()
    try:
        with pytest.raises(tf.errors.ResourceExhaustedError, match="OOM when allocating tensor"):
            keras.layers.Dense(2**31)(tf.zeros([2, 4]))       # a 32 GiB kernel: refused before it is made
        with pytest.raises(ValueError, match="Negative dimensions are not allowed"):
            keras.Input(batch_shape=(-5, 3))
        with pytest.raises(ValueError, match="expected a positive integer"):
            keras.layers.Dense(-3)
        symbolic = keras.Input(batch_shape=(2**40, 3))      # a description: nothing is allocated for it
        model = keras.Model(symbolic, keras.layers.Dense(2)(symbolic))
        out = model(tf.zeros([2, 3]))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert tuple(symbolic.shape) == (2**40, 3) and tuple(out.shape) == (2, 2)
    assert peak < 64 << 20
