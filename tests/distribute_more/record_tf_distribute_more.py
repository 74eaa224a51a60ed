"""Record TensorFlow 2.21's results for the tf.distribute additions (run with the TF venv from the repository
root): /tmp/placeflow-tf-venv/bin/python tests/distribute_more/record_tf_distribute_more.py
(writes tests/distribute_more/tf_2_21.json). Strategy cases run on two logical CPUs.
Every case runs a second time with tests.traced_api.traced(tf) (each tf function inside tf.function), but
those in cases.TRACED_EXCLUDED: tf_2_21_traced.json."""

import json
import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
import tensorflow as tf  # noqa: E402

from tests.distribute_more import cases  # noqa: E402
from tests.traced_api import record_traced  # noqa: E402

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
CASES = {name[len("case_"):]: fn for name, fn in vars(cases).items() if name.startswith("case_")}
results = {name: fn(tf) for name, fn in CASES.items()}
out = pathlib.Path(__file__).with_name("tf_2_21.json")
out.write_text(json.dumps({"tensorflow": tf.__version__, "cases": results}) + "\n")
print(f"recorded {len(results)} cases from TensorFlow {tf.__version__} into {out}")
record_traced(tf, CASES, cases.TRACED_EXCLUDED, out.with_name("tf_2_21_traced.json"))
