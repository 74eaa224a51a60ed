"""Record, for every op placeflow defines that TensorFlow 2.21 also has, the dtypes TensorFlow's op
definition admits for its type attribute `T` (`dtype` for the random ops typed by their output), into
tf_2_21_op_dtypes.json. Run it where TensorFlow is installed (never a dependency of placeflow):
    /tmp/tfvenv/bin/python tests/ops/record_tf_op_dtypes.py
"""

import json
import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))

import tensorflow as tf  # noqa: E402
from tensorflow.python.framework import op_def_registry  # noqa: E402

from placeflow.ops.registry import registered_ops  # noqa: E402

OUTPUT_TYPED = {"RandomStandardNormal", "RandomUniform", "TruncatedNormal"}  # their T is the shape's dtype

recorded = {}
for op in sorted(registered_ops()):
    definition = op_def_registry.get(op)
    name = "dtype" if op in OUTPUT_TYPED else "T"
    attr = None if definition is None else next((a for a in definition.attr if a.name == name), None)
    if attr is not None and attr.allowed_values.list.type:
        recorded[op] = sorted(tf.dtypes.as_dtype(t).name for t in attr.allowed_values.list.type)
path = pathlib.Path(__file__).with_name("tf_2_21_op_dtypes.json")
path.write_text(json.dumps({"tensorflow": tf.__version__, "ops": recorded}, indent=1, sort_keys=True) + "\n")
print(f"recorded the admitted dtypes of {len(recorded)} ops from TensorFlow {tf.__version__} into {path}")
