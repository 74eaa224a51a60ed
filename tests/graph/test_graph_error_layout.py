"""Errors of graph nodes read as TensorFlow 2.21's (recorded: tf_graph_errors.json): `Graph execution error:`,
the node's creation frames, the kernel's text, and `[Op:__inference_...]` for a function call."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

import placeflow as tf

HERE = pathlib.Path(__file__).parent
RECORDED = json.loads((HERE / "tf_graph_errors.json").read_text())["cases"]
SRC = pathlib.Path(tf.__file__).parents[1]


@pytest.fixture(scope="module")
def placeflow_errors():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))}
    out = subprocess.run([sys.executable, str(HERE / "graph_errors_program.py"), "placeflow"], capture_output=True,
                         text=True, check=True, env=env)
    return json.loads(out.stdout)


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_error_class_and_message_equal_tensorflows(case, placeflow_errors):
    ours, theirs = placeflow_errors[case], RECORDED[case]
    assert ours["class"] == theirs["class"]
    assert ours["message"] == theirs["message"]


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_str_adds_the_creation_stack_as_tensorflow_without_its_own_frames(case, placeflow_errors):
    theirs = "".join(line for line in RECORDED[case]["str_tail"].splitlines(keepends=True)
                     if "site-packages/tensorflow/" not in line)
    assert placeflow_errors[case]["str_tail"] == theirs


def test_session_error_keeps_the_op_and_a_function_error_does_not():
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None])
        y = tf.gather(x, [5], name="picked")
        with tf.compat.v1.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(y, {x: [1.0]})
    assert info.value.op is y.op
    assert info.value.op.creation_frames[-1][2] == "test_session_error_keeps_the_op_and_a_function_error_does_not"

    @tf.function
    def pick(v):
        return tf.gather(v, [5])
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        pick(tf.constant([1.0]))
    assert info.value.op is None
    assert info.value.message.startswith("Graph execution error:\n\nDetected at node GatherV2 defined at")


def test_creation_frames_leave_placeflow_out():
    with tf.Graph().as_default():
        op = tf.reduce_sum(tf.ones([2, 2])).op
    package = str(pathlib.Path(tf.__file__).parent)
    assert op.creation_frames and not any(frame[0].startswith(package) for frame in op.creation_frames)


def test_disabling_traceback_filtering_lists_placeflows_frames_too():
    package = str(pathlib.Path(tf.__file__).parent)
    assert tf.debugging.is_traceback_filtering_enabled()
    tf.debugging.disable_traceback_filtering()
    try:
        assert not tf.debugging.is_traceback_filtering_enabled()
        with tf.Graph().as_default():
            op = tf.reduce_sum(tf.ones([2])).op
    finally:
        tf.debugging.enable_traceback_filtering()
    assert any(frame[0].startswith(package) for frame in op.creation_frames)
    assert tf.debugging.is_traceback_filtering_enabled()


def test_session_runs_a_sign_assertion_when_fetched():
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None], name="x")
        check = tf.debugging.assert_positive(x)
        with tf.compat.v1.Session() as sess:
            sess.run(check, {x: [1.0, 2.0]})
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                sess.run(check, {x: [1.0, -2.0]})
    assert "assertion failed: [] [Condition x > 0 did not hold element-wise:] [x (x:0) = ] [1 -2]" in info.value.message
    assert "Node: 'assert_positive/assert_less/Assert/AssertGuard/Assert'" in info.value.message
