"""Record Keras 3 files for the interchange tests, and check that Keras 3 reads placeflow's files.

Run in a scratch venv with TensorFlow 2.21 (never part of `make test`), from the repository root:
    make record-keras     (or: /tmp/tfvenv/bin/python tests/keras/record_keras_files.py)

1. Real Keras builds the models of `interchange_models.py` with fixed weights, writes each as .weights.h5
   and .keras into tests/keras/fixtures/, and records its predictions on fixed inputs (keras_outputs.json).
2. placeflow (imported from src/) builds the same models, writes its own files into a scratch directory,
   and real Keras loads them and predicts: the comparison is written to placeflow_files_in_keras.json.
3. placeflow's TensorBoard callback writes a log that TensorFlow's own event reader must read back.
"""

import json
import os
import pathlib
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1] / "src"))

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import interchange_models  # noqa: E402
import placeflow  # noqa: E402

FIXTURES = HERE / "fixtures"


def _tensorboard_roundtrip() -> bool:
    model = placeflow.keras.Sequential([placeflow.keras.Input(shape=(1,)), placeflow.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(-1, 1)
    with tempfile.TemporaryDirectory() as scratch:
        history = model.fit(x, x, epochs=2, verbose=0, callbacks=[placeflow.keras.callbacks.TensorBoard(scratch)])
        read = []
        for path in sorted(pathlib.Path(scratch, "train").glob("events.out.tfevents.*")):
            for event in tf.compat.v1.train.summary_iterator(str(path)):
                read += [(v.tag, event.step, round(float(tf.make_ndarray(v.tensor) if v.HasField("tensor")
                                                         else v.simple_value), 5)) for v in event.summary.value]
    return read == [("epoch_loss", i, round(v, 5)) for i, v in enumerate(history.history["loss"])]


def main() -> None:
    FIXTURES.mkdir(exist_ok=True)
    outputs, report = {}, {"keras": tf.keras.__version__, "models": {}}
    for name, build in interchange_models.MODELS.items():
        model = build(tf)
        x = interchange_models.INPUTS[name]
        outputs[name] = np.asarray(model.predict(x, verbose=0), np.float64).round(6).tolist()
        model.save_weights(str(FIXTURES / f"{name}.weights.h5"))
        model.save(str(FIXTURES / f"{name}.keras"))
        ours = build(placeflow)
        with tempfile.TemporaryDirectory() as scratch:
            ours.save_weights(os.path.join(scratch, "m.weights.h5"))
            ours.save(os.path.join(scratch, "m.keras"))
            fresh = build(tf)
            for w in fresh.weights:
                w.assign(np.zeros(w.shape, w.dtype.as_numpy_dtype if hasattr(w.dtype, "as_numpy_dtype") else "float32"))
            fresh.load_weights(os.path.join(scratch, "m.weights.h5"))
            loaded = tf.keras.models.load_model(os.path.join(scratch, "m.keras"))
            report["models"][name] = {
                "weights_file": bool(np.allclose(fresh.predict(x, verbose=0), outputs[name], atol=1e-5)),
                "keras_file": bool(np.allclose(loaded.predict(x, verbose=0), outputs[name], atol=1e-5)),
            }
    report["tensorboard_log_read_by_tensorflow"] = _tensorboard_roundtrip()
    (FIXTURES / "keras_outputs.json").write_text(json.dumps(outputs, indent=1) + "\n")
    (FIXTURES / "placeflow_files_in_keras.json").write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")
    print(json.dumps(report, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
