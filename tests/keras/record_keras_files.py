"""Record Keras 3 files for the interchange tests, and check that Keras 3 reads placeflow's files.

Run in a scratch venv with TensorFlow 2.21 (never part of `make test`), from the repository root:
    make record-keras     (or: /tmp/tfvenv/bin/python tests/keras/record_keras_files.py)

1. Real Keras builds the models of `interchange_models.py` with fixed weights, writes each as .weights.h5
   and .keras into tests/keras/fixtures/, and records its predictions on fixed inputs (keras_outputs.json).
2. placeflow (imported from src/) builds the same models, writes its own files into a scratch directory,
   and real Keras loads them and predicts: the comparison is written to placeflow_files_in_keras.json.
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
    (FIXTURES / "keras_outputs.json").write_text(json.dumps(outputs, indent=1) + "\n")
    (FIXTURES / "placeflow_files_in_keras.json").write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")
    print(json.dumps(report, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
