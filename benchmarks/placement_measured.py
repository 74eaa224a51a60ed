"""The cost-model placer against TensorFlow's simple placer, measured: TF1 graphs of tests/placement_cost run by a
Session on the CPU plus the GPU (the CUDA GPU when there is one, else a simulated one), each placer in turn in the
same process, median Session.run wall time over --steps steps, in 5 rounds taken in turn (the median round);
and whether both placed every op on the same device.

    PYTHONPATH=src:. python3 benchmarks/placement_measured.py [--steps 20]

Issue 30's check on a lent GPU: the cost-model placement runs no slower than the simple placer's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

import placeflow as tf  # noqa: E402
from placeflow.config.context import reset_context  # noqa: E402
from tests.placement_cost import graphs  # noqa: E402

v1 = tf.compat.v1
GRAPHS = {"chain": lambda: graphs.chain(depth=12), "wide branches": lambda: graphs.wide(branches=4, depth=4),
          "lstm": lambda: graphs.lstm(layers=2, steps=8, hidden=256)}


def session_for(build, placer, env):
    """(step function, {op name: device}) of the graph `build` makes, placed by `placer`, in a fresh context."""
    reset_context(env)
    tf.config.experimental.set_placer(placer)
    graph = tf.Graph()
    with graph.as_default():
        out = build()
        init = v1.global_variables_initializer()
    feeds = {op.outputs[0]: np.random.default_rng(0).random(op.outputs[0].shape.as_list(), np.float32)
             for op in graph.get_operations() if op.type == "Placeholder"}
    session = v1.Session(graph=graph)
    session.run(init)
    for _ in range(3):
        session.run(out, feeds)
    placed = {op.name: device.name for op, device in session._placed.items()}   # where the placer put each op
    return (lambda: session.run(out, feeds)), placed, session


def measure(build, env, steps, rounds=5):
    """Median per-step seconds of each placer over `rounds` rounds taken in turn, and whether they placed alike."""
    times, placements = {"simple": [], "cost_model": []}, {}
    for _ in range(rounds):
        for placer in ("simple", "cost_model"):
            step, placed, session = session_for(build, placer, env)
            samples = []
            for _ in range(steps):
                start = time.perf_counter()
                step()
                samples.append(time.perf_counter() - start)
            times[placer].append(statistics.median(samples))
            session.close()
            placements[placer] = placed
    same = placements["simple"] == placements["cost_model"]
    return statistics.median(times["simple"]), statistics.median(times["cost_model"]), same


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    from placeflow.config.cuda_probe import probe_cuda
    cuda = bool(probe_cuda(os.environ).gpus)
    base = {k: v for k, v in os.environ.items() if k not in ("PLACEFLOW_SIMULATED_GPUS", "PLACEFLOW_DISABLE_CUDA")}
    env = dict(base) if cuda else dict(base, PLACEFLOW_SIMULATED_GPUS="1:16GiB:H100", PLACEFLOW_DISABLE_CUDA="1")
    print(f"CPU + {'the CUDA GPU' if cuda else 'a simulated GPU (NumPy kernels: not what the model predicts)'}")
    print(f"{'graph':16} {'simple ms':>10} {'cost_model ms':>14} {'ratio':>7}  same placement")
    for name, build in GRAPHS.items():
        simple, cost, same = measure(build, env, args.steps)
        print(f"{name:16} {simple * 1e3:10.3f} {cost * 1e3:14.3f} {cost / simple:7.3f}  {same}", flush=True)


if __name__ == "__main__":
    main()
