"""The CUDA path on a real GPU (skipped cleanly without CUDA and CuPy)."""

import os

import numpy as np
import pytest

import placeflow as tf
from placeflow.config.context import reset_context

pytestmark = pytest.mark.cuda


@pytest.fixture
def real_gpus():
    env = {k: v for k, v in os.environ.items() if k not in ("PLACEFLOW_DISABLE_CUDA", "PLACEFLOW_SIMULATED_GPUS")}
    reset_context(env)
    tf.experimental.reset_placement_report()


def test_ops_run_on_the_gpu_with_cupy(real_gpus):
    import cupy
    a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    c = tf.matmul(a, b)
    assert c.device == "/job:localhost/replica:0/task:0/device:GPU:0"
    assert isinstance(c._value, cupy.ndarray)
    assert c.numpy().tolist() == [[22.0, 28.0], [49.0, 64.0]]
    assert str(c) == "tf.Tensor(\n[[22. 28.]\n [49. 64.]], shape=(2, 2), dtype=float32)"


def test_copies_between_host_and_gpu(real_gpus):
    with tf.device("/cpu:0"):
        a = tf.constant(np.arange(6, dtype=np.float32))
    with tf.device("/GPU:0"):
        b = tf.identity(a) * 2
    with tf.device("/cpu:0"):
        c = tf.identity(b)
    assert isinstance(c._value, np.ndarray) and c.numpy().tolist() == [0, 2, 4, 6, 8, 10]
    copies = {(r["source"], r["destination"]) for r in tf.experimental.placement_report().copies}
    assert {("CPU:0", "GPU:0"), ("GPU:0", "CPU:0")} <= copies


def test_variables_and_dlpack_on_the_gpu(real_gpus):
    import cupy
    v = tf.Variable([1.0, 2.0])
    v.assign_add([1.0, 1.0])
    assert v.device.endswith("GPU:0") and v.numpy().tolist() == [2.0, 3.0]
    t = tf.experimental.dlpack.from_dlpack(cupy.arange(3, dtype=cupy.float32))
    assert t.device.endswith("GPU:0") and t.numpy().tolist() == [0.0, 1.0, 2.0]


def test_every_gpu_runs_its_own_ops(real_gpus):
    gpus = tf.config.list_logical_devices("GPU")
    results = []
    for gpu in gpus:
        with tf.device(gpu.name):
            x = tf.ones([4, 4])
            results.append(tf.matmul(x, x))
    assert [r.device for r in results] == [f"/job:localhost/replica:0/task:0{g.name}" for g in gpus]
    with tf.device("/cpu:0"):
        total = tf.add_n(results)
    assert total.numpy()[0, 0] == 4.0 * len(gpus)


def test_out_of_range_labels_give_nan_rows_on_the_gpu_as_in_tensorflow(real_gpus):
    with tf.device("/GPU:0"):
        logits = tf.zeros([2, 3])
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([1, 7]), logits=logits)
    values = loss.numpy()
    assert np.isclose(values[0], np.log(3.0)) and np.isnan(values[1])
    with tf.device("/CPU:0"), pytest.raises(tf.errors.InvalidArgumentError, match="label value of 7"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([1, 7]), logits=tf.zeros([2, 3]))
