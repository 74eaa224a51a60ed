"""Record, with TensorFlow 2.21, what the loaded module of saved_model_programs.py computes (TF saving and
loading its own), and how far TF reads a SavedModel that placeflow wrote (its variables: a TF checkpoint).

    PLACEFLOW_PYTHON=.venv/bin/python /tmp/placeflow-tf-venv/bin/python tests/saved_model/record_tf_saved_model.py
(`make record-tf` runs it). Writes tests/saved_model/tf_saved_model.json."""

import json
import os
import pathlib
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))

import tensorflow as tf  # noqa: E402

import saved_model_programs as programs  # noqa: E402


def main():
    python = os.environ.get("PLACEFLOW_PYTHON")
    if not python:
        raise SystemExit("Set PLACEFLOW_PYTHON to the placeflow venv's python (e.g. .venv/bin/python).")
    out = {}
    with tempfile.TemporaryDirectory() as scratch:
        programs.build_and_save(tf, f"{scratch}/tf")
        out["tf_loads_its_own"] = programs.loaded_results(tf, f"{scratch}/tf")
        subprocess.run([python, str(HERE / "saved_model_programs.py"), f"{scratch}/pf"], check=True,
                       capture_output=True, text=True,
                       env={**os.environ, "PLACEFLOW_AS_TF": "1", "PYTHONPATH": str(HERE.parent.parent / "src")})
        reader = tf.train.load_checkpoint(f"{scratch}/pf/variables/variables")
        shapes = reader.get_variable_to_shape_map()
        out["tf_reads_placeflow_variables"] = {
            key: reader.get_tensor(key).tolist() for key in sorted(shapes)
            if key != "_CHECKPOINTABLE_OBJECT_GRAPH"}
        try:
            tf.saved_model.load(f"{scratch}/pf")
            out["tf_loads_placeflow_graphs"] = "loaded"
        except Exception as error:  # noqa: BLE001 - the class is the record
            out["tf_loads_placeflow_graphs"] = type(error).__name__
    path = HERE / "tf_saved_model.json"
    path.write_text(json.dumps({"tensorflow": tf.__version__, **out}, indent=1, sort_keys=True) + "\n")
    print(f"recorded into {path}")


if __name__ == "__main__":
    main()
