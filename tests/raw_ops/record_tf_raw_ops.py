"""Record TensorFlow 2.21's results for the tf.raw_ops cases (run with the TF venv from the repository root):
/tmp/placeflow-tf-venv/bin/python tests/raw_ops/record_tf_raw_ops.py   (writes tests/raw_ops/tf_2_21.json)"""

import json
import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
import tensorflow as tf  # noqa: E402

from tests.raw_ops.cases import cases, run_case  # noqa: E402

results = {key: run_case(tf, key) for key in cases()}
out = pathlib.Path(__file__).with_name("tf_2_21.json")
out.write_text(json.dumps({"tensorflow": tf.__version__, "cases": results}, indent=0) + "\n")
print(f"recorded {len(results)} cases from TensorFlow {tf.__version__} into {out}")
