"""A Session's soft placement follows TensorFlow 2.21's rules for how it is made (recorded: tf_session_soft.json).

config=None takes the context's options: soft placement as set by `tf.config.set_soft_device_placement`,
else whether the thread ran eagerly when the Session was made. An explicit ConfigProto() places strictly.
"""

import json
import pathlib

import pytest

import placeflow as tf
from placeflow.graph import v1_api

RECORDED = json.loads((pathlib.Path(__file__).parent / "tf_session_soft.json").read_text())["rows"]
CONFIGS = {"None": lambda: None, "ConfigProto()": tf.compat.v1.ConfigProto,
           "ConfigProto(allow_soft_placement=True)": lambda: tf.compat.v1.ConfigProto(allow_soft_placement=True)}


@pytest.fixture
def process_mode(make_context, request):
    """Put the process in a recorded mode (two simulated GPUs, so /GPU:3 is missing); undo it after."""
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    mode = request.param
    if mode.startswith("disable_eager"):
        tf.compat.v1.disable_eager_execution()
    if mode == "soft_off":
        tf.config.set_soft_device_placement(False)
    if mode == "disable_eager_soft_on":
        tf.config.set_soft_device_placement(True)
    yield mode
    v1_api.enable_eager_execution_again()


def _outcome(config_name, inside_graph):
    graph = tf.Graph()
    with graph.as_default(), tf.device("/GPU:3"):
        product = tf.constant([1.0, 2.0]) * 3.0
    try:
        if inside_graph:
            with graph.as_default(), tf.compat.v1.Session(config=CONFIGS[config_name]()) as sess:
                return sess.run(product).tolist()
        with tf.compat.v1.Session(graph=graph, config=CONFIGS[config_name]()) as sess:
            return sess.run(product).tolist()
    except tf.errors.OpError as error:
        return type(error).__name__


MODES = sorted({row["mode"] for row in RECORDED})


@pytest.mark.parametrize("process_mode", MODES, indirect=True)
def test_session_placement_outcomes_equal_tensorflows(process_mode):
    rows = [row for row in RECORDED if row["mode"] == process_mode and "config" in row]
    assert len(rows) == 6
    for row in rows:
        assert _outcome(row["config"], row["inside_graph"]) == row["outcome"], row


@pytest.mark.parametrize("process_mode", MODES, indirect=True)
def test_get_soft_device_placement_equals_tensorflows(process_mode):
    row = next(row for row in RECORDED if row["mode"] == process_mode and "config" not in row)
    assert tf.config.get_soft_device_placement() is row["get_soft_device_placement"]
    with tf.Graph().as_default():
        assert tf.config.get_soft_device_placement() is row["get_soft_device_placement_in_graph"]


def test_session_without_config_logs_placement_when_the_context_does(make_context, capsys):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    graph = tf.Graph()
    with graph.as_default():
        product = tf.constant([1.0, 2.0], name="a") * 3.0
    tf.debugging.set_log_device_placement(True)
    with tf.compat.v1.Session(graph=graph) as sess:
        sess.run(product)
    assert any("a: (Const)" in line for line in capsys.readouterr().err.splitlines())


def test_eager_ops_still_soft_place_by_default(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    with tf.device("/GPU:3"):
        value = tf.constant([1.0, 2.0]) * 3.0
    assert value.numpy().tolist() == [3.0, 6.0]
