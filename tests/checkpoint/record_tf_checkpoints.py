"""Record TensorFlow 2.21's checkpoints of checkpoint_programs.py (the fixtures), its behaviour cases, and
whether TF restores what placeflow saves. Run in the scratch TF venv, from the repository root:
    PLACEFLOW_PYTHON=.venv/bin/python python tests/checkpoint/record_tf_checkpoints.py
It writes tests/checkpoint/fixtures/<program>/ and tests/checkpoint/tf_checkpoints.json."""

import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import checkpoint_programs as programs  # noqa: E402

FIXTURES = HERE / "fixtures"


def file_digests(prefix: str) -> dict:
    """{file name: sha256} of a checkpoint's index and data files."""
    directory, base = os.path.split(prefix)
    return {name: hashlib.sha256(open(os.path.join(directory, name), "rb").read()).hexdigest()
            for name in sorted(os.listdir(directory)) if name.startswith(base + ".")}


def record_fixtures() -> dict:
    shutil.rmtree(FIXTURES, ignore_errors=True)
    out = {}
    for name, prefix in programs.save_all(tf, str(FIXTURES)).items():
        out[name] = {"prefix": os.path.relpath(prefix, HERE), "values": programs.saved_values(tf, prefix),
                     "digests": file_digests(prefix)}
    return out


def tf_reads_placeflow() -> dict:
    """Save each program with placeflow, restore it into fresh TF objects, and compare what TF then holds."""
    python = os.environ.get("PLACEFLOW_PYTHON")
    if not python:
        raise SystemExit("Set PLACEFLOW_PYTHON to the placeflow venv's python (e.g. .venv/bin/python).")
    out = {}
    with tempfile.TemporaryDirectory() as scratch:
        saved = subprocess.run([python, str(HERE / "checkpoint_programs.py"), "placeflow", f"{scratch}/pf"],
                               capture_output=True, text=True, check=True,
                               env={**os.environ, "PYTHONPATH": str(HERE.parent.parent / "src")})
        for name, prefix in json.loads(saved.stdout.splitlines()[-1]).items():
            checkpoint = programs.PROGRAMS[name](tf)
            programs.scramble(tf, checkpoint)
            checkpoint.restore(prefix).assert_consumed()
            again = checkpoint.write(f"{scratch}/tf/{name}/ckpt")
            out[name] = {"digests": file_digests(prefix), "assert_consumed": "passed",
                         "values_equal": programs.saved_values(tf, again) == programs.saved_values(tf, prefix)}
    return out


def record_cases() -> dict:
    out = {}
    for name, case in programs.CASES.items():
        with tempfile.TemporaryDirectory() as directory:
            out[name] = case(tf, directory)
    return out


if __name__ == "__main__":
    recording = {"tensorflow": tf.__version__, "keras": tf.keras.__version__, "programs": record_fixtures(),
                 "cases": record_cases(), "tf_reads_placeflow": tf_reads_placeflow()}
    (HERE / "tf_checkpoints.json").write_text(json.dumps(recording, indent=1, sort_keys=True) + "\n")
