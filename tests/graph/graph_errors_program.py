"""Graph errors laid out as TensorFlow lays them out: run with `tensorflow` or `placeflow` as argument.

Prints one JSON object: each case's error class and message, with this file's folder written `<dir>` and
function numbers written `N`. record_tf_graph_errors.py records TensorFlow's; test_graph_error_layout.py
compares placeflow's.
"""

import json
import os
import re
import sys

if sys.argv[1] == "tensorflow":
    import tensorflow as tf
else:
    import placeflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))


@tf.function
def gather_in_function(x):
    return tf.gather(x, [5])


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def reshape_in_function(x):
    return tf.reshape(x, [4, -1])


@tf.function
def gather_in_a_branch(x):
    if tf.reduce_sum(x) > 0:  # converted by AutoGraph: frames still name these lines and this function
        y = tf.gather(x, [7])
    else:
        y = x
    return y


@tf.function
def gather_in_a_loop(x):
    i = tf.constant(0)
    while i < 3:
        x = tf.gather(x, [i + 5, 0])
        i += 1
    return x


@tf.function
def gather_in_a_cond_lambda(x):
    return tf.cond(x[0] > 0, lambda: tf.gather(x, [9]), lambda: x)


@tf.function
def inner_function(x):
    return tf.gather(x, [9])


@tf.function
def outer_function(x):
    return inner_function(x) * 2


def session_gather():
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None], name="x")
        y = tf.gather(x, [5], name="gathered")
        with tf.compat.v1.Session() as sess:
            sess.run(y, {x: [1.0, 2.0, 3.0]})


def session_matmul():
    with tf.Graph().as_default():
        a = tf.compat.v1.placeholder(tf.float32, [None, None], name="a")
        product = tf.matmul(a, a, name="product")
        with tf.compat.v1.Session() as sess:
            sess.run(product, {a: [[1.0, 2.0, 3.0]]})


CASES = {
    "function_gather": lambda: gather_in_function(tf.constant([1.0, 2.0, 3.0])),
    "function_reshape": lambda: reshape_in_function(tf.constant([1.0, 2.0, 3.0])),
    "lambda_function_gather": lambda: tf.function(lambda x: tf.gather(x, [4]))(tf.constant([1.0])),
    "function_branch_gather": lambda: gather_in_a_branch(tf.constant([1.0, 2.0])),
    "function_loop_gather": lambda: gather_in_a_loop(tf.constant([1.0, 2.0])),
    "function_cond_lambda_gather": lambda: gather_in_a_cond_lambda(tf.constant([1.0, 2.0])),
    "nested_function_gather": lambda: outer_function(tf.constant([1.0, 2.0])),
    "session_gather": session_gather,
    "session_matmul": session_matmul,
}


def describe(case):
    """{'class': ..., 'message': ..., 'str': ...} of the error `case` raises, paths and counters normalized."""
    try:
        case()
    except Exception as error:  # noqa: BLE001 - the error is what is described
        def normal(text):
            return re.sub(r"(__inference_[\w<>]+?)_\d+", r"\1_N", text.replace(HERE, "<dir>"))
        return {"class": type(error).__name__, "message": normal(getattr(error, "message", str(error))),
                "str_tail": normal(str(error)[len(getattr(error, "message", str(error))):])}
    return {"class": None}


if __name__ == "__main__":
    described = {}
    for name, case in CASES.items():  # a loop, not a comprehension: Python 3.12 has no frame for those
        described[name] = describe(case)
    print(json.dumps(described, indent=1))
