"""placeflow's own cost per op on a device, the constant of the estimate's step model (runtime/step_clock.py's
HOST_SECONDS_PER_OP): a placeflow.function of N elementwise ops on 8x8 float32 (no work: what issuing an op costs)
and the same on 1024x1024 (issue plus the kernel), eagerly and traced, synchronised, against raw CuPy (or NumPy)
issuing the same ops, in the same run.

    PYTHONPATH=src python3 benchmarks/op_overhead.py [--ops 200] [--repeat 20] [--write host_costs.json]

Also the cost of calling a one-op function (a call, less one plan op). `--write` saves the three host costs
(eager_op, plan_op, plan_call: the 8x8 rows) as the JSON that PLACEFLOW_HOST_COSTS gives estimates.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import placeflow as tf


def timed(fn, sync, repeat):
    fn()
    sync()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        sync()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ops", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--write", default=None, help="save the host costs as JSON for PLACEFLOW_HOST_COSTS")
    args = parser.parse_args()
    from placeflow.config.cuda_probe import probe_cuda
    cuda = bool(probe_cuda(os.environ).gpus)
    if cuda:
        import cupy as xp
        sync = xp.cuda.Device().synchronize
    else:
        import numpy as xp
        os.environ.setdefault("PLACEFLOW_SIMULATED_GPUS", "1")
        sync = lambda: None  # noqa: E731
    n = args.ops
    print(f"{'GPU:0 (CUDA)' if cuda else 'simulated GPU:0 (NumPy)'}; {n} ops per call; microseconds per op")
    print(f"{'size':>10} {'raw':>9} {'eager':>9} {'function':>9}")
    for size in (8, 1024):
        base = xp.ones((size, size), xp.float32)

        def raw():
            y = base
            for k in range(n):
                y = y * 1.0001 if k % 2 else y + 0.0001
        with tf.device("/GPU:0"):
            x = tf.ones([size, size])

        def chain(y):
            for k in range(n):
                y = y * 1.0001 if k % 2 else y + 0.0001
            return y

        traced = tf.function(chain)   # x is an argument: nothing folds at trace time
        calls = (raw, lambda: chain(x), lambda: traced(x))
        times = [timed(f, sync, args.repeat) / n * 1e6 for f in calls]
        print(f"{size:>4}x{size:<5} {times[0]:9.2f} {times[1]:9.2f} {times[2]:9.2f}", flush=True)
        if size == 8:
            costs = {"eager_op": times[1] * 1e-6, "plan_op": times[2] * 1e-6}
            one = tf.function(lambda y: y + 0.0001)
            call = timed(lambda: one(x), sync, args.repeat * 10)
    costs["plan_call"] = max(call - costs["plan_op"], 0.0)
    print(f"calling a one-op function: {call * 1e6:.2f} us (the call itself: {costs['plan_call'] * 1e6:.2f} us)")
    if args.write:
        import json
        with open(args.write, "w") as handle:
            json.dump(costs, handle)
        print(f"host costs written to {args.write}: {costs}")


if __name__ == "__main__":
    main()
