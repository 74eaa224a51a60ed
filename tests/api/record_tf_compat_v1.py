"""Record the names at the root of TensorFlow 2.21's tf.compat.v1 that its TF2 root lacks (TF1-only names), each
with the TF2 public names bound to the same object (its TF2 spelling, when it has one). Run it in the scratch
venv that has TensorFlow (never a dependency of placeflow):

    /tmp/placeflow-tf-venv/bin/python tests/api/record_tf_compat_v1.py

It writes src/placeflow/compat/tf1_root_names.json, which placeflow.compat.v1 reads to alias each name to
placeflow's TF2 function, or to refuse it by name with NotImplementedError (never AttributeError)."""

import inspect
import json
import os
import pathlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

TARGET = pathlib.Path(__file__).resolve().parents[2] / "src" / "placeflow" / "compat" / "tf1_root_names.json"
PUBLIC = set(json.loads(pathlib.Path(__file__).with_name("tf_2_21_api.json").read_text())["names"])


def _kind(value) -> str:
    if inspect.ismodule(value):
        return "module"
    if inspect.isclass(value):
        return "class"
    return "function" if callable(value) else "constant"


def tf2_index() -> dict:
    """{id(object): [TF2 public names bound to it]} (names in tf_2_21_api.json; tf.compat and tf.keras left out)."""
    index, seen = {}, set()

    def walk(module, path, depth):
        if id(module) in seen or depth > 4:
            return
        seen.add(id(module))
        for name in dir(module):
            if name.startswith("_"):
                continue
            try:
                value = getattr(module, name)
            except Exception:  # noqa: BLE001 - a lazily loaded name that fails to load is not public API
                continue
            if inspect.ismodule(value):
                if name not in ("compat", "keras") and getattr(value, "__name__", "").startswith("tensorflow"):
                    walk(value, f"{path}.{name}", depth + 1)
            elif f"{path}.{name}" in PUBLIC and not isinstance(value, (int, float, str, bool)):
                index.setdefault(id(value), []).append(f"{path}.{name}")
    walk(tf, "tf", 0)
    return index


def main() -> None:
    """Write the listing."""
    index = tf2_index()
    names = {}
    for name in sorted(dir(tf.compat.v1)):
        if name.startswith("_") or hasattr(tf, name):
            continue
        value = getattr(tf.compat.v1, name)
        names[name] = {"kind": _kind(value), "tf2": sorted(index.get(id(value), []), key=lambda p: (len(p), p))}
    TARGET.write_text(json.dumps({"tensorflow": tf.__version__, "names": names}, indent=1, sort_keys=True) + "\n")
    print(f"{len(names)} TF1-only names ({sum(bool(e['tf2']) for e in names.values())} with a TF2 spelling) -> "
          f"{TARGET}")


if __name__ == "__main__":
    main()
