"""Graph mode cost and concurrency, against raw NumPy measured in the same run.

    PYTHONPATH=src python3 benchmarks/graph.py

(a) A chain of 100 elementwise ops (alternating multiply and add by constants) on 8x8 float32 (the
    dispatch cost) and on 1024x1024 (the memory cost: a function frees each value at its last use and
    forwards dying buffers, so it reuses one warm buffer where NumPy op by op takes fresh pages):
    per call as a placeflow.function, as eager ops, and as raw NumPy calls; overhead per op. NumPy writing
    every op into its input (`out=`, plus one copy) shows the ceiling for forwarding.
(b) Two independent branches of 1024x1024 float32 matmuls (4 chained matmuls each), summed: run by a
    Session on one logical CPU serially (inter_op_parallelism_threads=-1), on one logical CPU in
    parallel, and on two logical CPUs (one branch each); raw NumPy runs the same matmuls one after
    the other with 1 and with all BLAS threads. Each configuration runs in its own process, since
    logical devices are fixed per process.
(c) Which runner earns its place: two branches of chained matmuls on two logical CPUs, run by the
    per-device programs (the runner a cross-device plan gets) and by the dataflow runner (forced),
    against one logical CPU's inline generated step; tiny matmuls (dispatch-bound) and 256x256 ones.
(d) The MLP training step of the memory suite (1024-4096-4096-10, batch 256, relu, sparse softmax
    cross-entropy, GradientTape, `assign_sub` per variable) as a placeflow.function, eagerly, and written
    by hand in NumPy (forward, backward, SGD update, float32); rounds taken in turn, median of the ratios.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")
sys.path.insert(0, SRC)
os.environ.setdefault("PLACEFLOW_DISABLE_CUDA", "1")

CHAIN_OPS = 100
SIZE = 1024
MATMULS_PER_BRANCH = 4
RUNNER_CASES = ((8, 200), (256, 20))  # (size, matmuls per branch): overhead-bound, BLAS-bound


def per_call_us(fn, number: int, repeat: int = 15) -> float:
    """Median over `repeat` samples of the mean time of `number` calls, in microseconds."""
    fn()
    return statistics.median(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def chain_table(size: int, number: int) -> list:
    import numpy as np

    import placeflow as tf

    data = np.random.RandomState(0).rand(size, size).astype(np.float32)
    factor, offset = np.float32(1.0001), np.float32(0.0001)

    steps = [(np.multiply, factor) if i % 2 == 0 else (np.add, offset) for i in range(CHAIN_OPS)]

    def numpy_chain():
        x = data
        for ufunc, constant in steps:
            x = ufunc(x, constant)
        return x

    def numpy_in_place():   # the ceiling for a runtime that forwards: every op writes into its input
        x = data.copy()
        for ufunc, constant in steps:
            ufunc(x, constant, out=x)
        return x

    def eager_chain(x):
        for i in range(CHAIN_OPS):
            x = x * 1.0001 if i % 2 == 0 else x + 0.0001
        return x

    traced = tf.function(eager_chain)
    x = tf.constant(data)
    np.testing.assert_allclose(traced(x).numpy(), numpy_chain(), rtol=1e-5)
    raw = per_call_us(numpy_chain, number)
    function_us = per_call_us(lambda: traced(x), number)
    eager_us = per_call_us(lambda: eager_chain(x), max(1, number // 10))
    in_place = per_call_us(numpy_in_place, number)
    return [("raw NumPy", raw), ("placeflow.function", function_us), ("eager placeflow", eager_us),
            ("NumPy in place (out=)", in_place)]


BRANCHES = """
import json, sys, time
import numpy as np
sys.path.insert(0, {src!r})
import placeflow as tf
mode = {mode!r}
config = tf.compat.v1.ConfigProto(device_count={{"CPU": 2 if mode == "two" else 1}}, intra_op_parallelism_threads=1,
                                  inter_op_parallelism_threads=-1 if mode == "serial" else 0)
data = np.random.RandomState(0).rand({size}, {size}).astype(np.float32) / {size}
graph = tf.compat.v1.Graph()
with graph.as_default():
    outs = []
    for index in range(2):
        with tf.device("/cpu:1" if mode == "two" and index else "/cpu:0"):
            x = tf.constant(data)
            y = x
            for _ in range({matmuls}):
                y = tf.matmul(y, x)
            outs.append(y)
    total = tf.add_n(outs)
sess = tf.compat.v1.Session(graph=graph, config=config)
sess.run(total)
if {dataflow}:  # (c): the same plan on the dataflow runner instead of per-device programs
    for plan in sess._plans.values():
        plan.per_device = False
samples = []
for _ in range(7):
    start = time.perf_counter()
    sess.run(total)
    samples.append(time.perf_counter() - start)
print(json.dumps(sorted(samples)[len(samples) // 2] * 1e3))
"""

NUMPY_BRANCHES = """
import json, sys, time
import numpy as np
from threadpoolctl import threadpool_limits
threads = {threads}
data = np.random.RandomState(0).rand({size}, {size}).astype(np.float32) / {size}
def run():
    outs = []
    for _ in range(2):
        y = data
        for _ in range({matmuls}):
            y = y @ data
        outs.append(y)
    return outs[0] + outs[1]
with threadpool_limits(limits=threads, user_api="blas"):
    run()
    samples = []
    for _ in range(7):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
print(json.dumps(sorted(samples)[len(samples) // 2] * 1e3))
"""


def _in_process(template: str, **fields) -> float:
    fields = {"size": SIZE, "matmuls": MATMULS_PER_BRANCH, "dataflow": False, **fields}
    code = template.format(src=SRC, **fields)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def branch_table() -> list:
    cores = os.cpu_count() or 1
    return [
        ("raw NumPy, 1 BLAS thread, one after the other", _in_process(NUMPY_BRANCHES, threads=1)),
        (f"raw NumPy, {cores} BLAS threads, one after the other", _in_process(NUMPY_BRANCHES, threads=cores)),
        ("Session, one logical CPU, serial (inter_op=-1)", _in_process(BRANCHES, mode="serial")),
        ("Session, one logical CPU, parallel branches", _in_process(BRANCHES, mode="one")),
        ("Session, two logical CPUs, one branch each", _in_process(BRANCHES, mode="two")),
    ]


def runner_table(size: int, matmuls: int) -> list:
    case = {"size": size, "matmuls": matmuls}
    return [
        ("one logical CPU, serial (inline step)", _in_process(BRANCHES, mode="serial", **case)),
        ("two logical CPUs, per-device programs", _in_process(BRANCHES, mode="two", **case)),
        ("two logical CPUs, dataflow runner (forced)", _in_process(BRANCHES, mode="two", dataflow=True, **case)),
    ]


MLP_WIDTHS, MLP_BATCH, MLP_LR = (1024, 4096, 4096, 10), 256, 0.01


def _mlp_numpy_step(weights, x, labels):
    """One SGD step of the MLP by hand; updates `weights` ([w0, b0, w1, b1, w2, b2]) in place, returns the loss."""
    import numpy as np

    acts, h = [x], x
    for k in range(0, len(weights), 2):
        h = h @ weights[k]
        h += weights[k + 1]
        if k + 2 < len(weights):
            np.maximum(h, 0, out=h)
            acts.append(h)
    shifted = h - h.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    total = exp.sum(axis=1, keepdims=True)
    rows = np.arange(len(labels))
    loss = float(np.mean(np.log(total[:, 0]) - shifted[rows, labels]))
    grad = exp / total
    grad[rows, labels] -= 1
    grad /= len(labels)
    for k in range(len(weights) - 2, -1, -2):
        weight_grad, bias_grad = acts[k // 2].T @ grad, grad.sum(axis=0)
        if k:
            grad = grad @ weights[k].T
            grad[acts[k // 2] <= 0] = 0
        weight_grad *= MLP_LR
        bias_grad *= MLP_LR
        weights[k] -= weight_grad
        weights[k + 1] -= bias_grad
    return loss


def mlp_table(rounds: int = 7, steps: int = 3) -> list:
    """[(name, ms per step, ratio to NumPy)] for the MLP step: NumPy, placeflow.function, eager placeflow."""
    import numpy as np

    import placeflow as tf

    rng = np.random.RandomState(1)
    weights = []
    for fan_in, fan_out in zip(MLP_WIDTHS[:-1], MLP_WIDTHS[1:]):
        weights += [(rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)).astype(np.float32),
                    np.zeros(fan_out, np.float32)]
    x = rng.standard_normal((MLP_BATCH, MLP_WIDTHS[0])).astype(np.float32)
    labels = rng.randint(0, MLP_WIDTHS[-1], MLP_BATCH)
    variables = [tf.Variable(w.copy()) for w in weights]
    tx, ty = tf.constant(x), tf.constant(labels.astype(np.int32))

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.memory.memory_programs import _mlp_step   # the memory suite's step itself

    def eager_step(a, b):
        return _mlp_step(tf, variables, a, b, MLP_LR)

    traced = tf.function(eager_step)
    mine = [w.copy() for w in weights]
    np.testing.assert_allclose(float(traced(tx, ty)), _mlp_numpy_step(mine, x, labels), rtol=1e-4)
    runs = {"raw NumPy": lambda: _mlp_numpy_step(mine, x, labels),
            "placeflow.function": lambda: float(traced(tx, ty)),
            "eager placeflow": lambda: float(eager_step(tx, ty))}
    times = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            for _ in range(steps):
                run()
            times[name].append((time.perf_counter() - start) / steps * 1e3)
    ratios = {name: statistics.median(t / n for t, n in zip(times[name], times["raw NumPy"])) for name in runs}
    return [(name, statistics.median(times[name]), ratios[name]) for name in runs]


def main() -> None:
    for size, number in ((8, 200), (1024, 3)):
        print(f"(a) chain of {CHAIN_OPS} elementwise ops on {size}x{size} float32, per call (median)")
        rows = chain_table(size, number)
        raw = rows[0][1]
        print(f"{'':24}{'us/call':>10}{'us/op':>8}{'overhead us/op':>16}{'x NumPy':>9}{'NumPy / this':>14}")
        for name, value in rows:
            print(f"{name:24}{value:10.1f}{value / CHAIN_OPS:8.2f}{(value - raw) / CHAIN_OPS:16.2f}{value / raw:9.2f}"
                  f"{raw / value:14.2f}")
        print()
    print(f"(b) two branches of {MATMULS_PER_BRANCH} chained {SIZE}x{SIZE} float32 matmuls, per step (median),"
          f" {os.cpu_count()} cores")
    rows = branch_table()
    serial = rows[2][1]
    print(f"{'':52}{'ms':>8}{'speedup vs serial':>19}")
    for name, value in rows:
        print(f"{name:52}{value:8.1f}{serial / value:19.2f}")
    print(f"\ntwo logical CPUs vs one logical CPU run serially: {serial / rows[4][1]:.2f}x"
          f"   vs one logical CPU in parallel: {rows[3][1] / rows[4][1]:.2f}x")
    for size, matmuls in RUNNER_CASES:
        print(f"\n(c) two branches of {matmuls} chained {size}x{size} matmuls, per step (median)")
        rows = runner_table(size, matmuls)
        print(f"{'':52}{'ms':>8}{'x inline':>10}")
        for name, value in rows:
            print(f"{name:52}{value:8.2f}{value / rows[0][1]:10.2f}")
    print(f"\n(d) MLP {'-'.join(map(str, MLP_WIDTHS))} training step, batch {MLP_BATCH} (tape + assign_sub), "
          "rounds in turn")
    print(f"{'':24}{'ms/step':>10}{'x NumPy':>9}")
    for name, value, ratio in mlp_table():
        print(f"{name:24}{value:10.2f}{ratio:9.2f}")


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"\n(benchmark took {time.perf_counter() - start:.0f} s)")
