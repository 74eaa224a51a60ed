"""Record what TensorFlow 2.21 computes for every case in programs.py into tf_2_21.json.

Run it in a scratch virtual environment that has TensorFlow (never a dependency of placeflow):
    make record-tf          (creates /tmp/placeflow-tf-venv with tensorflow-cpu==2.21.0 and runs this script)
"""

import json
import os
import pathlib
import sys
import types

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, str(pathlib.Path(__file__).parent))

import tensorflow as tf  # noqa: E402

import harness  # noqa: E402
import programs  # noqa: E402
from harness import run_all  # noqa: E402
from tensorflow.python.autograph.impl import api as autograph_api, conversion as autograph_conversion  # noqa: E402
from tensorflow.python.autograph.pyct import cache as autograph_cache  # noqa: E402


def _outcome_with_fresh_autograph(fn, tf, env, _outcome=harness.outcome):
    """One case's outcome with AutoGraph's conversion caches emptied first: with 1,400 cases in one process,
    TF 2.21 otherwise hands some traced lambdas another case's converted code (their results then belong to
    other cases)."""
    autograph_api._TRANSPILER._cache = autograph_cache.CodeObjectCache()
    autograph_conversion._ALLOWLIST_CACHE = autograph_cache.UnboundInstanceCache()
    return _outcome(fn, tf, env)


harness.outcome = _outcome_with_fresh_autograph

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
env = types.SimpleNamespace(devices=["/cpu:0", "/cpu:1"])
def run_isolated(name):
    """One case in a fresh Python with TensorFlow set up as here (with the case's own device count, if any)."""
    import subprocess
    count = getattr(harness.cases(programs)[name], "replicas", 2)
    code = ("import json, sys, types; sys.path.insert(0, %r); import tensorflow as tf; import programs; "
            "from harness import cases, outcome; cpu = tf.config.list_physical_devices('CPU')[0]; "
            "tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * %d); "
            "print(json.dumps(outcome(cases(programs)[%r], tf, types.SimpleNamespace(devices=%r))))"
            % (str(pathlib.Path(__file__).parent), count, name, [f"/cpu:{i}" for i in range(count)]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


path = pathlib.Path(__file__).with_name("tf_2_21.json")
only = set(sys.argv[1:])  # case names: re-record just these into the existing file (every case when none)
if only:
    unknown = only - set(harness.cases(programs))
    if unknown:
        raise SystemExit(f"no such cases: {sorted(unknown)}")
    module = types.SimpleNamespace(**{f"case_{name}": fn for name, fn in harness.cases(programs).items()
                                      if name in only})
    results = json.loads(path.read_text())["results"]
    results.update(run_all(module, tf, env, types.SimpleNamespace(devices=["/cpu:0"]), run_isolated))
else:
    results = run_all(programs, tf, env, types.SimpleNamespace(devices=["/cpu:0"]), run_isolated)
path.write_text(json.dumps({"tensorflow": tf.__version__, "results": results}, indent=1, sort_keys=True) + "\n")
print(f"recorded {len(only) or len(results)} cases from TensorFlow {tf.__version__} into {path}")
