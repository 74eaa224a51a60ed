"""Record what TensorFlow 2.21 answers for every case in cases.py into tf_2_21.json.

Run with a Python that has TensorFlow (not placeflow):
    /tmp/placeflow-tf-venv/bin/python tests/tnp/record_tf_tnp.py
NumPy behaviour is enabled first (TensorFlow's tnp functions need the tensor methods it adds).
Every case runs a second time with tests.traced_api.traced(tf) (each tf function inside tf.function), but
those in cases.TRACED_EXCLUDED: tf_2_21_traced.json."""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

import tensorflow as tf  # noqa: E402

from tests.tnp import cases  # noqa: E402
from tests.traced_api import record_traced  # noqa: E402


def main():
    tf.experimental.numpy.experimental_enable_numpy_behavior()
    results = {}
    for name, case in cases.all_cases().items():
        try:
            results[name] = case(tf)
        except Exception as error:  # noqa: BLE001 - recorded as the case's answer
            results[name] = ["case raised", type(error).__name__, str(error).splitlines()[0] if str(error) else ""]
    out = pathlib.Path(__file__).with_name("tf_2_21.json")
    out.write_text(json.dumps({"tensorflow": tf.__version__, "results": results}, indent=0, sort_keys=True) + "\n")
    print(f"recorded {len(results)} cases into {out}")
    record_traced(tf, cases.all_cases(), cases.TRACED_EXCLUDED, out.with_name("tf_2_21_traced.json"),
                  marker="case raised")


if __name__ == "__main__":
    main()
