"""Record TensorFlow 2.21's results for tf.experimental's extension types, dispatch and ragged shapes (run with
the TF venv from the repository root):
/tmp/placeflow-tf-venv/bin/python tests/extension_types/record_tf_extension_types.py   (writes tf_2_21.json)
Every case runs a second time with tests.traced_api.traced(tf) (each tf function inside tf.function), but
those in cases.TRACED_EXCLUDED: tf_2_21_traced.json."""

import json
import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
import tensorflow as tf  # noqa: E402

from tests.extension_types.cases import CASES, TRACED_EXCLUDED  # noqa: E402
from tests.traced_api import record_traced  # noqa: E402

results = {name: fn(tf) for name, fn in CASES.items()}
out = pathlib.Path(__file__).with_name("tf_2_21.json")
out.write_text(json.dumps({"tensorflow": tf.__version__, "cases": results}, indent=1) + "\n")
print(f"recorded {len(results)} cases from TensorFlow {tf.__version__} into {out}")
record_traced(tf, CASES, TRACED_EXCLUDED, out.with_name("tf_2_21_traced.json"))
