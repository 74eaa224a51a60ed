"""Graph mode on a real GPU: Sessions with copies, traced functions, memory charged to the pool."""

import os

import numpy as np
import pytest

import placeflow as tf
from placeflow.config.context import reset_context

pytestmark = pytest.mark.cuda
FULL = "/job:localhost/replica:0/task:0/device:"


@pytest.fixture
def real_gpus():
    env = {k: v for k, v in os.environ.items() if k not in ("PLACEFLOW_DISABLE_CUDA", "PLACEFLOW_SIMULATED_GPUS")}
    reset_context(env)


def test_session_runs_matmul_on_the_gpu_with_cpu_inputs(real_gpus):
    import cupy
    with tf.compat.v1.Graph().as_default():
        with tf.device("/cpu:0"):
            a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name="a")
            b = tf.identity(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2]), name="b")
        c = tf.matmul(a, b)
        x = tf.compat.v1.placeholder(tf.float32, shape=[2, 2], name="x")
        d = c + x
        sess = tf.compat.v1.Session()
        out = sess.run(d, feed_dict={x: np.ones((2, 2))})
    assert out.tolist() == [[23.0, 29.0], [50.0, 65.0]] and isinstance(out, np.ndarray)
    assert sess._placed[c.op].name == f"{FULL}GPU:0" and sess._placed[a.op].name == f"{FULL}CPU:0"
    plan = next(iter(sess._plans.values()))
    assert {n.type for n in plan.nodes} >= {"_Send", "_Recv"}  # b is computed on the CPU: copied each run
    gpu_consts = [n for n in plan.nodes if n.type == "Const" and not n.device.host_backed]
    assert [n.name for n in gpu_consts] == ["a"]  # a constant is copied to the GPU once, when the plan is built
    assert isinstance(gpu_consts[0].value, cupy.ndarray)
    matmul = next(n for n in plan.nodes if n.type == "MatMul")
    assert not matmul.device.host_backed and matmul.device.xp is cupy


def test_parallel_session_and_variables_on_the_gpu(real_gpus):
    data = np.random.RandomState(0).rand(512, 512).astype(np.float32)
    with tf.compat.v1.Graph().as_default():
        with tf.device("/gpu:0"):
            v = tf.Variable(data, name="v")
            towers = [tf.matmul(v.value(), v.value()) for _ in range(2)]
            total = tf.add_n(towers)
        sess = tf.compat.v1.Session()
        sess.run(v.initializer)
        metadata = tf.compat.v1.RunMetadata()
        options = tf.compat.v1.RunOptions(trace_level=tf.compat.v1.RunOptions.FULL_TRACE)
        out = sess.run(total, options=options, run_metadata=metadata)
    np.testing.assert_allclose(out, 2 * data @ data, rtol=1e-3)
    assert {d.device for d in metadata.step_stats.dev_stats} == {f"{FULL}GPU:0"}


def test_function_outputs_live_on_the_gpu_and_are_charged(real_gpus):
    import cupy

    @tf.function
    def f(x):
        return tf.matmul(x, x) * 2.0

    x = tf.constant(np.eye(256, dtype=np.float32))
    before = tf.config.experimental.get_memory_info("GPU:0")["current"]
    y = f(x)
    assert isinstance(y._value, cupy.ndarray) and y.device == f"{FULL}GPU:0"
    assert float(y.numpy().sum()) == 512.0
    assert tf.config.experimental.get_memory_info("GPU:0")["current"] >= before + 256 * 256 * 4
