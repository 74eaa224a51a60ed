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
    empty_mean = tf.reduce_mean(tf.zeros([0]))                                  # nan: 0 / 0
    half_mean = tf.cast(tf.reduce_mean(tf.fill([70000], tf.constant(60000.0, tf.float16))), tf.float32)
    return tf.math.log(x) + tf.sqrt(x) + big + 1.0 / (x - x) + (big - big) + empty_mean + half_mean

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


def test_the_host_float_mean_equals_numpys_bit_for_bit_without_its_warnings():
    import warnings

    import numpy as np

    from placeflow.ops.math import _host_float_mean
    rs = np.random.RandomState(0)
    cases = [((5, 7), None, False), ((5, 7), 0, True), ((5, 7), 1, False), ((4, 3, 6), (0, 2), False),
             ((0, 3), 0, False), ((0, 3), 1, False), ((), None, False), ((3,), 0, False)]
    for dtype in (np.float16, np.float32, np.float64):
        arrays = [(np.asarray(rs.rand(*shape) * 100).astype(dtype), axis, keep) for shape, axis, keep in cases]
        arrays += [(np.full((1, n), 60000, dtype), axis, False) for n in (7, 70000) for axis in (None, 1)]
        for array, axis, keep in arrays:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = np.mean(array, axis=axis, keepdims=keep, dtype=dtype)
            got = _host_float_mean(array, axis, keep)  # no warning reaches a user: the test above
            assert np.asarray(got).dtype == dtype
            np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))
