"""Eager dispatch cost: placeflow vs raw NumPy (and raw CuPy on a CUDA GPU), measured in the same run.

    PYTHONPATH=src python3 benchmarks/eager_dispatch.py

Prints per-op times for a 2x3 add and a 2x3@3x2 matmul on CPU:0 and GPU:0 (a real GPU against raw
CuPy when CUDA is usable, else a simulated GPU against NumPy), the overhead over the raw library in microseconds and the ratio, and 1024x1024 float32 matmul GFLOP/s.
"""

from __future__ import annotations

import os
import statistics
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from placeflow.config.cuda_probe import probe_cuda  # noqa: E402

CUDA = bool(probe_cuda(os.environ).gpus) and "PLACEFLOW_SIMULATED_GPUS" not in os.environ
if not CUDA:
    os.environ["PLACEFLOW_SIMULATED_GPUS"] = "1"

import numpy as np  # noqa: E402

import placeflow as tf  # noqa: E402


def per_call_us(fn, number: int, repeat: int = 15) -> float:
    """Median over `repeat` samples of the mean time of `number` calls, in microseconds."""
    fn()
    samples = timeit.repeat(fn, number=number, repeat=repeat)
    return statistics.median(samples) / number * 1e6


def small_ops(device: str) -> list:
    a_np = np.arange(6, dtype=np.float32).reshape(2, 3)
    b_np = np.arange(6, dtype=np.float32).reshape(3, 2)
    with tf.device(device):
        a, b, a2 = tf.constant(a_np), tf.constant(b_np), tf.constant(a_np)
    if CUDA and "GPU" in device:  # the baseline is raw CuPy on the same GPU (kernel launches, no sync)
        import cupy
        a_np, b_np = cupy.asarray(a_np), cupy.asarray(b_np)
    with tf.device(device):
        rows = []
        for label, ours, raw in (
            ("add 2x3 (a + b)", lambda: a + a2, lambda: a_np + a_np),
            ("add 2x3 (tf.add)", lambda: tf.add(a, a2), lambda: a_np.__add__(a_np)),
            ("matmul 2x3@3x2", lambda: tf.matmul(a, b), lambda: a_np @ b_np),
        ):
            ours_us, raw_us = per_call_us(ours, 20000), per_call_us(raw, 20000)
            rows.append((f"{label} on {device}", raw_us, ours_us))
    return rows


def large_matmul(device: str) -> tuple:
    x_np = np.random.default_rng(0).standard_normal((1024, 1024)).astype(np.float32)
    with tf.device(device):
        x = tf.constant(x_np)
    ours_samples, raw_samples = [], []
    for _ in range(9):  # interleaved, so both see the same machine load; best of 9
        with tf.device(device):
            ours_samples.append(per_call_us(lambda: tf.matmul(x, x), 5, 1))
        raw_samples.append(per_call_us(lambda: np.matmul(x_np, x_np), 5, 1))
    ours, raw = min(ours_samples), min(raw_samples)
    flops = 2 * 1024**3
    return device, flops / raw / 1e3, flops / ours / 1e3


def main() -> None:
    gpu = "real CUDA GPU, baseline raw CuPy" if CUDA else "simulated GPU, baseline NumPy"
    print(f"placeflow {tf.__placeflow_version__}, NumPy {np.__version__}, {os.cpu_count()} cores; GPU rows: {gpu}")
    print(f"{'op':36} {'raw us':>9} {'placeflow us':>13} {'overhead us':>12} {'ratio':>6}")
    for device in ("/CPU:0", "/GPU:0"):
        for label, raw, ours in small_ops(device):
            print(f"{label:36} {raw:9.2f} {ours:13.2f} {ours - raw:12.2f} {ours / raw:6.2f}")
    print(f"\n{'1024x1024 float32 matmul':36} {'NumPy GFLOP/s':>14} {'placeflow GFLOP/s':>18} {'ratio':>6}")
    for device in ("/CPU:0",):
        _, raw, ours = large_matmul(device)
        print(f"{'on ' + device:36} {raw:14.1f} {ours:18.1f} {ours / raw:6.3f}")


if __name__ == "__main__":
    main()
