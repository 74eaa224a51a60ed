"""Control flow inside a function, against the same computation in raw NumPy measured in the same run.

    PYTHONPATH=src python3 benchmarks/control_flow.py

(a) A traced tf.while_loop of 1,000 small iterations (x = x * 0.999 + 1 on 8 floats), per call, against
    a Python loop of the same NumPy ops; the per-iteration overhead is what the While op's body costs.
(b) A training step with tf.cond choosing the layer (a 64x64 matmul and a relu, or the matmul doubled),
    forward, gradient and SGD update, against the same step written in NumPy by hand.
(c) The gradient through a traced while_loop: a tanh recurrence over 50 steps (16 units), loss and
    d loss / d w, against back-propagation through time written in NumPy by hand.
"""

from __future__ import annotations

import os
import statistics
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
os.environ.setdefault("PLACEFLOW_DISABLE_CUDA", "1")

import numpy as np  # noqa: E402

import placeflow as tf  # noqa: E402

ITERATIONS = 1000


def per_call_us(fn, number: int, repeat: int = 7) -> float:
    """Median over `repeat` samples of the mean time of `number` calls, in microseconds."""
    fn()
    return statistics.median(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def while_loop_case():
    @tf.function
    def loop(x):
        _, out = tf.while_loop(lambda i, v: i < ITERATIONS, lambda i, v: (i + 1, v * 0.999 + 1.0),
                               (tf.constant(0), x))
        return out

    x = tf.constant(np.ones(8, np.float32))
    host = np.ones(8, np.float32)

    def numpy_loop():
        v = host
        for _ in range(ITERATIONS):
            v = v * np.float32(0.999) + np.float32(1.0)
        return v

    np.testing.assert_allclose(loop(x).numpy(), numpy_loop(), rtol=1e-5)
    return per_call_us(numpy_loop, 5), per_call_us(lambda: loop(x), 5)


def cond_step_case():
    rng = np.random.default_rng(0)
    x_host = rng.normal(size=(32, 64)).astype(np.float32)
    w_host = (rng.normal(size=(64, 64)) * 0.1).astype(np.float32)
    w = tf.Variable(w_host.copy())
    x = tf.constant(x_host)

    @tf.function
    def step(p):
        with tf.GradientTape() as tape:
            h = tf.cond(p, lambda: tf.nn.relu(tf.matmul(x, w)), lambda: tf.matmul(x, w) * 2.0)
            loss = tf.reduce_mean(tf.square(h))
        w.assign_sub(0.01 * tape.gradient(loss, w))
        return loss

    w_np = w_host.copy()

    def numpy_step(p=True):
        nonlocal w_np
        z = x_host @ w_np
        h = np.maximum(z, 0) if p else z * 2.0
        grad_h = 2.0 * h / h.size
        grad_z = grad_h * (z > 0) if p else grad_h * 2.0
        w_np = w_np - 0.01 * (x_host.T @ grad_z)
        return float(np.mean(np.square(h)))

    flag = tf.constant(True)
    return per_call_us(numpy_step, 200), per_call_us(lambda: step(flag), 200)


STEPS = 50


def while_gradient_case():
    rng = np.random.default_rng(1)
    xs_host = rng.normal(size=(STEPS, 1, 16)).astype(np.float32)
    w_host = (rng.normal(size=(16, 16)) * 0.2).astype(np.float32)
    w, xs = tf.Variable(w_host), tf.constant(xs_host)

    @tf.function
    def traced():
        with tf.GradientTape() as tape:
            _, h = tf.while_loop(lambda t, h: t < STEPS, lambda t, h: (t + 1, tf.tanh(tf.matmul(h, w) + xs[t])),
                                 (tf.constant(0), tf.zeros([1, 16])))
            loss = tf.reduce_sum(h * h)
        return loss, tape.gradient(loss, w)

    def numpy_bptt():
        hs = [np.zeros((1, 16), np.float32)]
        for t in range(STEPS):
            hs.append(np.tanh(hs[-1] @ w_host + xs_host[t]))
        grad_h, grad_w = 2.0 * hs[-1], np.zeros_like(w_host)
        for t in reversed(range(STEPS)):
            grad_z = grad_h * (1.0 - hs[t + 1] * hs[t + 1])
            grad_w += hs[t].T @ grad_z
            grad_h = grad_z @ w_host.T
        return float(np.sum(hs[-1] * hs[-1])), grad_w

    loss, grad = traced()
    np.testing.assert_allclose(grad.numpy(), numpy_bptt()[1], rtol=1e-3, atol=1e-5)
    return per_call_us(numpy_bptt, 20), per_call_us(traced, 20)


def main() -> None:
    print(f"placeflow control flow benchmark, NumPy {np.__version__}, {os.cpu_count()} cores")
    numpy_us, traced_us = while_loop_case()
    print(f"{'case':52s} {'NumPy us':>10s} {'placeflow us':>13s} {'ratio':>7s}")
    print(f"{f'(a) while_loop, {ITERATIONS} iterations of 2 ops on 8 floats':52s} {numpy_us:10.1f} "
          f"{traced_us:13.1f} {traced_us / numpy_us:7.1f}")
    print(f"    per iteration: placeflow {traced_us / ITERATIONS:.2f} us, NumPy {numpy_us / ITERATIONS:.2f} us")
    numpy_us, traced_us = cond_step_case()
    print(f"{'(b) training step with tf.cond (32x64 @ 64x64, relu)':52s} {numpy_us:10.1f} {traced_us:13.1f} "
          f"{traced_us / numpy_us:7.1f}")
    numpy_us, traced_us = while_gradient_case()
    print(f"{f'(c) while_loop gradient, {STEPS}-step tanh recurrence':52s} {numpy_us:10.1f} {traced_us:13.1f} "
          f"{traced_us / numpy_us:7.1f}")


if __name__ == "__main__":
    main()
