"""TensorFlow returns inf and nan silently; placeflow's NumPy kernels must not warn (and a user's NumPy still does).

Run in a fresh interpreter, as a user's program runs: pytest drops warning filters installed while it
collects tests, which is when placeflow is imported here.
"""

import json

from tests.helpers import run_python

PROGRAM = """
import json, warnings
import numpy as np
import placeflow as tf

def bad_values(x):
    big = tf.exp(x * 1000.0)
    return tf.math.log(x) + tf.sqrt(x) + big + 1.0 / (x - x) + (big - big)

x = np.array([-1.0, 0.0, 2.0], np.float32)
with warnings.catch_warnings(record=True) as caught:
    eager = bad_values(tf.constant(x)).numpy()
    traced = tf.function(bad_values)(tf.constant(x)).numpy()
    with tf.compat.v1.Graph().as_default():
        feed = tf.compat.v1.placeholder(tf.float32, [3])
        session = tf.compat.v1.Session().run(bad_values(feed), feed_dict={feed: x})
    placeflow_warnings = [str(w.message) for w in caught]
    np.log(np.array([-1.0]))
print(json.dumps({"placeflow": placeflow_warnings, "after_users_numpy": [str(w.message) for w in caught],
                  "all_nan": [bool(np.isnan(v).all()) for v in (eager, traced, session)]}))
"""


def test_kernels_return_nan_without_runtime_warnings_in_every_mode_and_a_users_numpy_still_warns():
    out = run_python(PROGRAM)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["placeflow"] == []
    assert result["after_users_numpy"] == ["invalid value encountered in log"]
    assert result["all_nan"] == [True, True, True]
