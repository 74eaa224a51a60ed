"""A kept out-of-memory error does not keep the buffer the device refused (eager, function, Session)."""

import gc
import tracemalloc

import pytest

import placeflow as tf


def _kept_errors_pin(run, count=6) -> float:
    """MiB still allocated while `count` ResourceExhaustedErrors raised by run() are kept."""
    run_once = []
    try:
        run()
    except tf.errors.ResourceExhaustedError:
        run_once.append(True)
    assert run_once, "run() should have raised ResourceExhaustedError"
    gc.collect()
    tracemalloc.start()
    kept = []
    for _ in range(count):
        try:
            run()
        except tf.errors.ResourceExhaustedError as error:
            kept.append(error)
    gc.collect()
    pinned = tracemalloc.get_traced_memory()[0] / 2**20
    tracemalloc.stop()
    assert len(kept) == count
    return pinned


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_kept_oom_errors_do_not_pin_refused_outputs(make_context, mode):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:40MiB")
    with tf.device("/GPU:0"):
        tall = tf.ones([8192, 1024])  # 32 MiB, kept by the test itself
        square = tf.ones([1024, 1024])
        product = tf.function(lambda a, b: tf.matmul(a, b)) if mode == "function" else tf.matmul
        # the 32 MiB product is computed by NumPy, then refused by the 40 MiB device: it must not survive
        assert _kept_errors_pin(lambda: product(tall, square)) < 4.0


def test_kept_session_oom_errors_do_not_pin_refused_outputs(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:40MiB")
    graph = tf.Graph()
    with graph.as_default(), tf.device("/GPU:0"):
        tall = tf.compat.v1.placeholder(tf.float32, [8192, 1024])
        product = tf.matmul(tall, tf.ones([1024, 1024]))
    import numpy as np
    feed = np.ones([8192, 1024], np.float32)
    with tf.compat.v1.Session(graph=graph) as session:
        assert _kept_errors_pin(lambda: session.run(product, {tall: feed})) < 4.0
