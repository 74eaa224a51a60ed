"""The one placement policy in graphs: strict placement, the placement report, and the call's log line."""

import logging

import numpy as np
import pytest

import placeflow as tf

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
GPU0 = "/job:localhost/replica:0/task:0/device:GPU:0"


@pytest.fixture
def gpus(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    yield
    tf.config.experimental.set_strict_placement(False)
    tf.debugging.set_log_device_placement(False)


def test_strict_placement_raises_inside_function(gpus):
    tf.config.experimental.set_strict_placement(True)
    with tf.device("/CPU:0"):
        x = tf.constant([1, 2])  # explicitly on the CPU: no fallback for the constant itself

    @tf.function
    def to_float(x):
        return tf.cast(x, tf.float32)  # no GPU kernel for Cast: would fall back to the CPU
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Strict placement: Cast \(Cast\) would run on CPU:0: "
                                                             "no GPU kernel for int32"):
        to_float(x)
    tf.config.experimental.set_strict_placement(False)
    assert to_float(x).numpy().tolist() == [1.0, 2.0]


def test_strict_placement_raises_for_a_soft_fallback_in_a_session(gpus):
    tf.config.experimental.set_strict_placement(True)
    graph = tf.compat.v1.Graph()
    with graph.as_default(), tf.device("/GPU:7"):
        y = tf.constant(1.0, name="c") * 2.0
    sess = tf.compat.v1.Session(graph=graph, config=tf.compat.v1.ConfigProto(allow_soft_placement=True))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Strict placement: .* asked for "
                                                             "/device:GPU:7 and would fall back to GPU:0"):
        sess.run(y)


def test_placement_report_lists_function_and_session_ops_with_their_copies(gpus):
    tf.experimental.reset_placement_report()
    with tf.device("/CPU:0"):
        a = tf.ones([4, 4])

    @tf.function
    def product(a):
        return tf.matmul(a, a)
    for _ in range(3):
        product(a)
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        with tf.device("/GPU:1"):
            fed = tf.compat.v1.placeholder(tf.float32, [2, 2])
            c = fed * 2.0
        total = tf.reduce_sum(c)
    tf.compat.v1.Session(graph=graph).run(total, {fed: np.ones([2, 2], np.float32)})
    report = tf.experimental.placement_report()
    rows = {(r["op"], r["device"], r["reason"]): r["count"] for r in report.ops}
    assert rows[("MatMul", "GPU:0", "default")] == 3
    assert rows[("Sum", "GPU:0", "default")] == 1
    assert rows[("Mul", "GPU:1", "scope")] == 1
    copies = {(r["source"], r["destination"]): r["count"] for r in report.copies}
    assert copies[("CPU:0", "GPU:0")] >= 3      # the function's argument, once per call
    assert copies[("GPU:1", "GPU:0")] == 1      # the session's _Send/_Recv
    assert "MatMul" in str(report)


def test_report_counts_restart_at_zero(gpus):
    @tf.function
    def double(x):
        return x * 2.0
    double(tf.ones([2]))
    tf.experimental.reset_placement_report()
    assert not any(r["op"] == "Mul" for r in tf.experimental.placement_report().ops)


@pytest.mark.parametrize("pin, expected", [("/CPU:0", CPU0), (None, GPU0), ("/GPU:1", GPU0[:-1] + "1")])
def test_function_call_log_line_names_the_device_that_ran_it(gpus, caplog, pin, expected):
    tf.debugging.set_log_device_placement(True)
    logger = logging.getLogger("placeflow.placement")
    logger.addHandler(caplog.handler)
    try:
        @tf.function
        def f(x):
            return x + 1.0
        if pin is None:
            f(tf.ones([2]))
        else:
            with tf.device(pin):
                x = tf.ones([2])
                f(x)
    finally:
        logger.removeHandler(caplog.handler)
    calls = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Executing op __inference_f")]
    assert calls and calls[-1].endswith(f"in device {expected}")
