"""Record TensorFlow 2.21's results for cases.py into tf_2_21.json. Run with a TensorFlow venv, from the repository:
    /tmp/placeflow-tf-venv/bin/python tests/special/record_tf_special.py
Every case runs a second time with tests.traced_api.traced(tf) (each tf function inside tf.function), but
those in cases.TRACED_EXCLUDED: tf_2_21_traced.json."""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
sys.path.insert(1, str(pathlib.Path(__file__).resolve().parents[2]))

import cases  # noqa: E402
import tensorflow as tf  # noqa: E402

from tests.traced_api import record_traced  # noqa: E402


def main():
    results = {name: getattr(cases, f"case_{name}")(tf) for name in cases.CASES}
    out = pathlib.Path(__file__).with_name("tf_2_21.json")
    out.write_text(json.dumps({"tensorflow": tf.__version__, "cases": results}, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(results)} cases to {out}")
    record_traced(tf, {name: getattr(cases, f"case_{name}") for name in cases.CASES}, cases.TRACED_EXCLUDED,
                  out.with_name("tf_2_21_traced.json"))


if __name__ == "__main__":
    main()
