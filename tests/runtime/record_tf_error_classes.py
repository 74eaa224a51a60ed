"""Record the error class TensorFlow 2.21 raises for every bad input of error_cases.py, in each mode, into
tf_2_21_error_classes.json. Run it with TensorFlow installed (never a dependency of placeflow):
    /tmp/tfvenv/bin/python tests/runtime/record_tf_error_classes.py
"""

import json
import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, str(pathlib.Path(__file__).parent))

import tensorflow as tf  # noqa: E402

import error_cases  # noqa: E402

tf.get_logger().setLevel("ERROR")
recorded = {name: {mode: error_cases.outcome(tf, mode, fn, arrays) for mode in error_cases.MODES}
            for name, fn, arrays in error_cases.cases(tf)}
path = pathlib.Path(__file__).with_name("tf_2_21_error_classes.json")
path.write_text(json.dumps({"tensorflow": tf.__version__, "results": recorded}, indent=1, sort_keys=True) + "\n")
print(f"recorded {len(recorded)} cases from TensorFlow {tf.__version__} into {path}")
