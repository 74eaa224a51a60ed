"""Record what TensorFlow 2.21 does with every bad input of calls.py into tf_2_21.json.

Run it in a scratch virtual environment that has TensorFlow (never a dependency of placeflow):
    make record-tf          (creates /tmp/placeflow-tf-venv with tensorflow-cpu==2.21.0 and runs this script)
"""

import json
import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, str(pathlib.Path(__file__).parents[2]))

import tensorflow as tf  # noqa: E402

from tests.badinputs import calls, runner  # noqa: E402

names = runner.namespace(tf)
results = {name: runner.outcome(source, names) for name, source in calls.CALLS.items()}
path = pathlib.Path(__file__).with_name("tf_2_21.json")
path.write_text(json.dumps({"tensorflow": tf.__version__, "results": results}, indent=1, sort_keys=True) + "\n")
silent = sum("returns" in r for r in results.values())
print(f"recorded {len(results)} calls ({len(results) - silent} raise, {silent} return) into {path}")
