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
