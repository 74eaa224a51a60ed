"""MultiWorkerMirroredStrategy on loopback: the 2-worker training step against the 1-worker step on the same
global batch, and placeflow's all-reduce between workers against raw gloo, in the same run.

    PYTHONPATH=src python3 benchmarks/multi_worker.py [--batch 256] [--steps 40] [--mib 16]

Step: an MLP (256 -> 512 -> 512 -> 10, relu, softmax cross-entropy, SGD) traced with placeflow.function,
gradients all-reduced by the strategy; 1 worker runs the whole global batch, each of 2 workers half of it.
All-reduce: a float32 buffer of --mib MiB summed over 2 workers, by placeflow (the CollectiveReduceV2 op,
eagerly) and by torch.distributed's gloo process group directly, alternating, in the same processes.
Needs torch (the `distributed` extra). Workers share this machine's cores: the step ratio shows the
overhead of the collectives, not a speed-up.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
os.environ.setdefault("PLACEFLOW_DISABLE_CUDA", "1")
os.environ.setdefault("PLACEFLOW_SIMULATED_GPUS", "0")

import numpy as np  # noqa: E402

SIZES = (256, 512, 512, 10)


def worker(batch: int, steps: int, mib: int) -> dict:
    """Run in each worker process: per-step and per-all-reduce times (milliseconds)."""
    import placeflow as tf
    strategy = tf.distribute.MultiWorkerMirroredStrategy() if os.environ.get("TF_CONFIG") else \
        tf.distribute.MirroredStrategy()
    rng = np.random.default_rng(0)
    x = rng.normal(size=(batch, SIZES[0])).astype(np.float32)
    y = rng.integers(0, SIZES[-1], size=batch).astype(np.int32)
    with strategy.scope():
        weights = [tf.Variable(rng.normal(size=(a, b)).astype(np.float32) * 0.05) for a, b in zip(SIZES, SIZES[1:])]
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(batch).repeat()
    batches = iter(strategy.experimental_distribute_dataset(dataset))

    @tf.function
    def step(batch_xy):
        def replica(xb, yb):
            with tf.GradientTape() as tape:
                h = xb
                for w in weights[:-1]:
                    h = tf.nn.relu(tf.matmul(h, w))
                logits = tf.matmul(h, weights[-1])
                loss = tf.reduce_sum(tf.nn.sparse_softmax_cross_entropy_with_logits(yb, logits)) / float(batch)
            grads = tape.gradient(loss, weights)
            grads = tf.distribute.get_replica_context().all_reduce("SUM", grads)
            for w, g in zip(weights, grads):
                w.assign_sub(0.01 * g)
            return loss
        return strategy.run(replica, args=batch_xy)

    step_ms = _timed(lambda: step(next(batches)), steps)
    out = {"step_ms": step_ms, "workers": strategy.extended.num_workers}
    if strategy.extended.num_workers > 1:
        out.update(_all_reduce_times(strategy, mib))
    return out


def _all_reduce_times(strategy, mib: int) -> dict:
    import torch
    from placeflow.distribute.multi_worker import collective_reduce
    import placeflow as tf
    group = strategy.extended._group
    host = np.ones(mib * 2**20 // 4, np.float32)
    tensor = tf.constant(host)
    raw = torch.from_numpy(host.copy())
    ours, theirs = [], []
    for _ in range(10):
        start = time.perf_counter()
        collective_reduce(tensor, group)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        group._gloo.allreduce([raw]).wait()
        theirs.append(time.perf_counter() - start)
    return {"ours_ms": statistics.median(ours) * 1e3, "gloo_ms": statistics.median(theirs) * 1e3}


def _timed(fn, steps: int) -> float:
    for _ in range(5):
        fn()
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def run(args, workers: int) -> list:
    """Every worker's measurements, for a cluster of `workers` (1: one process, no TF_CONFIG)."""
    from placeflow.tools.launch import free_ports
    ports = free_ports("127.0.0.1", workers)
    cluster = {"worker": [f"127.0.0.1:{p}" for p in ports]}
    processes = []
    for index in range(workers):
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        if workers > 1:
            env["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": "worker", "index": index}})
        command = [sys.executable, __file__, "--worker", "--batch", str(args.batch), "--steps", str(args.steps),
                   "--mib", str(args.mib)]
        processes.append(subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True))
    results = []
    for process in processes:
        out, _ = process.communicate(timeout=600)
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--mib", type=int, default=16)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.batch, args.steps, args.mib)))
        return
    import importlib.util
    if importlib.util.find_spec("torch") is None:
        print("multi_worker benchmark skipped: needs torch.distributed (pip install 'placeflow[distributed]')")
        return
    one = run(args, 1)[0]
    two = run(args, 2)
    two_ms = max(w["step_ms"] for w in two)
    ours = statistics.median(w["ours_ms"] for w in two)
    gloo = statistics.median(w["gloo_ms"] for w in two)
    gb = args.mib * 2**20 / 1e9
    print(f"MultiWorkerMirroredStrategy on loopback, MLP {SIZES}, global batch {args.batch}, "
          f"{os.cpu_count()} cores, NumPy {np.__version__}")
    print(f"{'':50} {'ms':>9} {'ratio':>7}")
    print(f"{'1 worker step (whole global batch)':50} {one['step_ms']:9.3f} {1.0:7.2f}")
    print(f"{'2 worker step (half the batch each)':50} {two_ms:9.3f} {two_ms / one['step_ms']:7.2f}")
    print(f"{'all-reduce ' + str(args.mib) + ' MiB, raw gloo':50} {gloo:9.3f} {1.0:7.2f}   {gb / gloo * 1e3:.2f} GB/s")
    print(f"{'all-reduce ' + str(args.mib) + ' MiB, placeflow CollectiveReduceV2':50} {ours:9.3f} {ours / gloo:7.2f}"
          f"   {gb / ours * 1e3:.2f} GB/s")


if __name__ == "__main__":
    main()
