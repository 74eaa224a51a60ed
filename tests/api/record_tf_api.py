"""Record TensorFlow 2.21's public API listing: every name reachable from `tf.` (modules walked recursively),
except tf.keras (Keras itself) and tf.compat (TF1 and v2 aliases). Run it in the scratch venv that has
TensorFlow (never a dependency of placeflow):

    /tmp/placeflow-tf-venv/bin/python tests/api/record_tf_api.py

It writes tests/api/tf_2_21_api.json (names, kinds and signatures where Python exposes them) and
src/placeflow/framework/tf_api_names.txt (the names alone, which placeflow reads to refuse a TensorFlow name
it lacks with NotImplementedError instead of AttributeError)."""

import inspect
import json
import os
import pathlib
import types

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

SKIPPED = {"keras", "compat"}


def _kind(value) -> str:
    if inspect.isclass(value):
        return "class"
    if callable(value):
        return "function"
    return "constant"


def _signature(value):
    try:
        return str(inspect.signature(value))
    except (TypeError, ValueError):
        return None


def _public_tf_module(name: str) -> bool:
    """TF's generated API modules (tensorflow._api.v2...) and its few top-level public packages (tf.dtensor,
    tf.experimental), not their implementation modules."""
    return name.startswith("tensorflow._api.v2") or (name.startswith("tensorflow.") and name.count(".") == 1)


def walk(module, prefix: str, seen: set, out: dict) -> None:
    """Every public name of `module` (a TF API module), recursing into its submodules."""
    for name in sorted(dir(module)):
        if name.startswith("_") or (prefix == "tf" and name in SKIPPED):
            continue
        try:
            value = getattr(module, name)
        except Exception:  # noqa: BLE001 - a lazily loaded name that fails to load is still listed
            out[f"{prefix}.{name}"] = {"kind": "unloadable", "signature": None}
            continue
        path = f"{prefix}.{name}"
        if isinstance(value, types.ModuleType):
            if not _public_tf_module(value.__name__) or id(value) in seen:
                continue  # Keras's aliases (tf.metrics, tf.losses, ...) and TF's implementation modules
            seen.add(id(value))
            out[path] = {"kind": "module", "signature": None}
            walk(value, path, seen, out)
        else:
            out[path] = {"kind": _kind(value), "signature": _signature(value) if callable(value) else None}


def main() -> None:
    names: dict = {}
    walk(tf, "tf", set(), names)
    here = pathlib.Path(__file__).resolve().parent
    listing = here / "tf_2_21_api.json"
    listing.write_text(json.dumps({"tensorflow": tf.__version__, "names": names}, indent=1, sort_keys=True) + "\n")
    plain = here.parents[1] / "src" / "placeflow" / "framework" / "tf_api_names.txt"
    plain.write_text(f"# TensorFlow {tf.__version__}'s public names and kinds (tests/api/record_tf_api.py writes this "
                     f"file)\n" + "\n".join(f"{name} {names[name]['kind']}" for name in sorted(names)) + "\n")
    print(f"recorded {len(names)} names of TensorFlow {tf.__version__} into {listing} and {plain}")


if __name__ == "__main__":
    main()
