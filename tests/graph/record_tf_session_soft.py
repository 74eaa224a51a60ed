"""Record how TensorFlow 2.21 places a Session's graph pinned to a missing GPU, by how the Session is made.

Run in a scratch venv with tensorflow-cpu==2.21.0 (no GPU, so /GPU:3 is missing there as in the test):
    python tests/graph/record_tf_session_soft.py > tests/graph/tf_session_soft.json
Each mode runs in a fresh process: eager-execution and soft-placement settings are process state.
"""

import json
import subprocess
import sys

MODES = ("eager", "disable_eager", "soft_off", "disable_eager_soft_on")
CONFIGS = ("None", "ConfigProto()", "ConfigProto(allow_soft_placement=True)")


def record_mode(mode):
    """Every (config, where the Session is made) outcome under one process-wide mode."""
    import tensorflow as tf
    if mode.startswith("disable_eager"):
        tf.compat.v1.disable_eager_execution()
    if mode == "soft_off":
        tf.config.set_soft_device_placement(False)
    if mode == "disable_eager_soft_on":
        tf.config.set_soft_device_placement(True)
    configs = {"None": lambda: None, "ConfigProto()": tf.compat.v1.ConfigProto,
               "ConfigProto(allow_soft_placement=True)":
                   lambda: tf.compat.v1.ConfigProto(allow_soft_placement=True)}
    with tf.Graph().as_default():
        in_graph = tf.config.get_soft_device_placement()
    rows = [{"mode": mode, "get_soft_device_placement": tf.config.get_soft_device_placement(),
             "get_soft_device_placement_in_graph": in_graph}]
    for inside in (False, True):
        for name in CONFIGS:
            graph = tf.Graph()
            with graph.as_default(), tf.device("/GPU:3"):
                product = tf.constant([1.0, 2.0]) * 3.0
            try:
                if inside:
                    with graph.as_default(), tf.compat.v1.Session(config=configs[name]()) as sess:
                        value = sess.run(product)
                else:
                    with tf.compat.v1.Session(graph=graph, config=configs[name]()) as sess:
                        value = sess.run(product)
                outcome = value.tolist()
            except Exception as error:  # noqa: BLE001 - the class is what is recorded
                outcome = type(error).__name__
            rows.append({"mode": mode, "config": name, "inside_graph": inside, "outcome": outcome})
    return rows


if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(json.dumps(record_mode(sys.argv[1])))
    else:
        rows = []
        for mode in MODES:
            out = subprocess.run([sys.executable, __file__, mode], capture_output=True, text=True, check=True)
            rows += json.loads(out.stdout.strip().splitlines()[-1])
        print(json.dumps({"tensorflow": "2.21.0", "rows": rows}, indent=1))
