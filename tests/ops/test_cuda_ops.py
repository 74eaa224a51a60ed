"""Every differentiable op on a real GPU: the same values and gradients as on the CPU, computed by CuPy where the
op has a GPU kernel (skipped cleanly without CUDA and CuPy)."""

import os

import numpy as np
import pytest

import placeflow as tf
from placeflow.config.context import reset_context
from placeflow.ops.registry import find_kernel
from tests.eager.test_gradients import CASES

pytestmark = pytest.mark.cuda


@pytest.fixture
def real_gpus():
    env = {k: v for k, v in os.environ.items() if k not in ("PLACEFLOW_DISABLE_CUDA", "PLACEFLOW_SIMULATED_GPUS")}
    reset_context(env)


def _value_and_gradients(fn, arrays, device):
    with tf.device(device):
        tensors = [tf.constant(a) for a in arrays]
        with tf.GradientTape() as tape:
            for t in tensors:
                tape.watch(t)
            y = fn(*tensors)
            total = tf.reduce_sum(y)
        return y, tape.gradient(total, tensors)


@pytest.mark.parametrize("op", sorted(op for op, (fn, _) in CASES.items() if fn is not None))
def test_op_and_gradient_on_the_gpu_match_the_cpu(op, real_gpus):
    fn, arrays = CASES[op]
    on_gpu, gpu_grads = _value_and_gradients(fn, arrays, "/GPU:0")
    on_cpu, cpu_grads = _value_and_gradients(fn, arrays, "/CPU:0")
    if find_kernel(op, "GPU", tf.float64) is not None:
        assert on_gpu.device.endswith("GPU:0"), f"{op} has a GPU kernel but ran on {on_gpu.device}"
    np.testing.assert_allclose(on_gpu.numpy(), on_cpu.numpy(), rtol=1e-6, atol=1e-9)
    for got, expected in zip(gpu_grads, cpu_grads):
        if expected is not None:
            np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6, atol=1e-9)


def _recurrence_on(device):
    with tf.device(device):
        w = tf.Variable([[0.5, -0.2], [0.1, 0.3]])
        xs = tf.constant([[[1.0, 0.0]], [[0.5, -1.0]], [[0.2, 0.3]]])

    @tf.function
    def f(xs):
        with tf.device(device), tf.GradientTape() as tape:
            states = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
            h = tf.zeros([1, 2])
            for t in tf.range(tf.shape(xs)[0]):
                h = tf.tanh(tf.matmul(h, w) + xs[t])
                states = states.write(t, h)
            loss = tf.reduce_sum(states.stack())
        return loss, tape.gradient(loss, w)

    loss, grad = f(xs)
    return w.device, float(loss), grad.numpy()


def test_tensor_arrays_and_while_loop_gradients_on_the_gpu_match_the_cpu(real_gpus):
    gpu_device, gpu_loss, gpu_grad = _recurrence_on("/GPU:0")
    cpu_device, cpu_loss, cpu_grad = _recurrence_on("/CPU:0")
    assert gpu_device.endswith("GPU:0") and cpu_device.endswith("CPU:0")
    np.testing.assert_allclose(gpu_loss, cpu_loss, rtol=1e-6)
    np.testing.assert_allclose(gpu_grad, cpu_grad, rtol=1e-5, atol=1e-7)
