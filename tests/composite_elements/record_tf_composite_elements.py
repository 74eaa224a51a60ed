"""Record TensorFlow 2.21's results for the composite-element cases (run with the TF venv from the repository
root): /tmp/placeflow-tf-venv/bin/python tests/composite_elements/record_tf_composite_elements.py
(writes tests/composite_elements/tf_2_21.json)."""

import json
import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import tensorflow as tf  # noqa: E402

from tests.composite_elements.cases import CASES  # noqa: E402

results = {name: fn(tf) for name, fn in CASES.items()}
out = pathlib.Path(__file__).with_name("tf_2_21.json")
out.write_text(json.dumps({"tensorflow": tf.__version__, "cases": results}, indent=1, sort_keys=True) + "\n")
print(f"wrote {out} ({len(results)} cases)")
