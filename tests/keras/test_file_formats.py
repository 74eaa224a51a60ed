"""Keras 3's .weights.h5 and .keras files: placeflow reads files real Keras wrote (fixtures recorded by
record_keras_files.py) and predicts Keras's numbers; Keras reads placeflow's (checked by that script, whose
report is committed); placeflow round-trips its own; ModelCheckpoint saves them."""

import json
import pathlib

import numpy as np
import pytest

import placeflow as tf

h5py = pytest.importorskip("h5py")

from tests.keras import interchange_models  # noqa: E402

FIXTURES = pathlib.Path(__file__).with_name("fixtures")
OUTPUTS = json.loads((FIXTURES / "keras_outputs.json").read_text())


def _zeroed(model):
    for weight in model.weights:
        weight.assign(np.zeros(tuple(weight.shape), weight.dtype))
    return model


@pytest.mark.parametrize("name", sorted(interchange_models.MODELS))
def test_weights_written_by_keras_load_and_predict_kerass_numbers(name, make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    model = _zeroed(interchange_models.MODELS[name](tf))
    model.load_weights(FIXTURES / f"{name}.weights.h5")
    np.testing.assert_allclose(model.predict(interchange_models.INPUTS[name], verbose=0), OUTPUTS[name], atol=2e-5)


@pytest.mark.parametrize("name", sorted(interchange_models.MODELS))
def test_keras_archives_written_by_keras_load_as_models(name, make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    model = tf.keras.models.load_model(FIXTURES / f"{name}.keras")
    np.testing.assert_allclose(model.predict(interchange_models.INPUTS[name], verbose=0), OUTPUTS[name], atol=2e-5)
    original = interchange_models.MODELS[name](tf)
    assert [type(layer).__name__ for layer in model.layers] == [type(layer).__name__ for layer in original.layers]
    assert [layer.name for layer in model.layers] == [layer.name for layer in original.layers]


def test_keras_reads_what_placeflow_writes():
    report = json.loads((FIXTURES / "placeflow_files_in_keras.json").read_text())
    assert set(report["models"]) == set(interchange_models.MODELS)
    assert all(entry == {"keras_file": True, "weights_file": True} for entry in report["models"].values())
    assert report["tensorboard_log_read_by_tensorflow"] is True


def test_placeflow_round_trips_its_own_files(tmp_path, make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    model = interchange_models.cnn(tf)
    model.compile(optimizer="adam", loss="mse", metrics=["mae", tf.keras.metrics.Precision(name="p")])
    x = interchange_models.INPUTS["cnn"]
    model.save(tmp_path / "m.keras")
    model.save_weights(tmp_path / "m.weights.h5")
    again = tf.keras.models.load_model(tmp_path / "m.keras")
    np.testing.assert_allclose(again.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)
    assert type(again.optimizer).__name__ == "Adam" and again.loss == "mse"
    assert [m.name for m in again.metrics] == ["loss", "compile_metrics"]  # Keras 3's names, as with TF
    fresh = _zeroed(interchange_models.cnn(tf))
    fresh.load_weights(tmp_path / "m.weights.h5")
    np.testing.assert_allclose(fresh.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)


def test_file_errors_teach(tmp_path, make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    model = interchange_models.functional(tf)
    with pytest.raises(ValueError, match="must end in `.weights.h5`"):
        model.save_weights(tmp_path / "m.h5")
    with pytest.raises(ValueError, match="Invalid filepath extension"):
        model.save(tmp_path / "m.npz")
    other = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.LayerNormalization()])
    with pytest.raises(ValueError, match="could not be loaded"):
        other.load_weights(FIXTURES / "cnn.weights.h5")
    with pytest.raises(ValueError, match="expected 2 variables|must match"):
        tf.keras.Sequential([tf.keras.Input(shape=(6, 6, 2)), tf.keras.layers.Conv2D(4, 3)]).load_weights(
            FIXTURES / "cnn.weights.h5")


def test_model_checkpoint_saves_the_best_epochs(tmp_path, make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(1.4), loss="mse")  # diverges after two epochs
    model.set_weights([np.array([[0.5]], np.float32), np.array([0.0], np.float32)])
    x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(-1, 1)
    best = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "best-{epoch}.weights.h5"), monitor="loss",
                                              save_best_only=True, save_weights_only=True)
    every = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "all-{epoch:02d}.keras"))
    model.fit(x, 3 * x + 1, batch_size=16, epochs=4, verbose=0, callbacks=[best, every])
    assert sorted(p.name for p in tmp_path.glob("best-*")) == ["best-1.weights.h5", "best-2.weights.h5"]
    assert sorted(p.name for p in tmp_path.glob("all-*")) == [f"all-0{i}.keras" for i in range(1, 5)]
    with pytest.raises(ValueError, match="must end in `.weights.h5`"):
        tf.keras.callbacks.ModelCheckpoint("x.keras", save_weights_only=True)
