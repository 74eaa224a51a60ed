"""Data-parallel training speed: an MLP (784-256-10, ReLU, softmax cross-entropy, SGD) against raw NumPy.

    PYTHONPATH=src python3 benchmarks/train.py [--steps 60] [--cuda]

For each global batch (256, then 64), and for 1, 2 and 4 logical CPUs (each in its own process,
since logical devices are fixed per process), it measures in the same process:
- numpy: a hand-written NumPy step of the same model (forward, backward, SGD update), float32;
- single device: the Keras train step (GradientTape + SGD) traced by placeflow.function, on CPU:0,
  measured in rounds taken in turn with the NumPy step's (single/np is the median of the rounds' ratios);
- mirrored N: the same step under MirroredStrategy over the N logical CPUs, at the same global batch
  (each replica gets batch/N rows); its time split into compute, all-reduce and copies (busy time
  summed over devices, from a PhaseTimer run), and the all-reduce the strategy chose;
- fit: steps per second of model.fit over NumPy arrays (data pipeline included).
Each replica's BLAS threads are set to cores // concurrent kernels while a parallel step runs.
Targets: single device <= 1.15x numpy; mirrored 2 <= 1.25x and mirrored 4 <= 1.5x single replica.
With --cuda (real GPUs) the baseline is raw CuPy and the replicas are the GPUs (virtual GPUs on the
first when there are fewer GPUs than replicas).
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

SRC = str(Path(__file__).resolve().parents[1] / "src")
sys.path.insert(0, SRC)

IN, HIDDEN, OUT = 784, 256, 10
LR = 0.1


WARM_UP_S = 0.3  # OpenBLAS's idle workers spin ~0.1 s after a multi-threaded call, taking a core from replicas


def timed_ms(fn, steps: int, repeat: int = 5) -> float:
    """Median over `repeat` rounds of the mean step time of `steps` calls, in ms (after WARM_UP_S of calls)."""
    fn()
    end = time.perf_counter() + WARM_UP_S
    while time.perf_counter() < end:
        fn()
    rounds = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(steps):
            fn()
        rounds.append((time.perf_counter() - start) / steps * 1e3)
    return statistics.median(rounds)


def paired_ms(baseline, ours, steps: int, repeat: int = 9) -> tuple:
    """Rounds of `baseline` and `ours` taken in turn, so both see the same machine load: the median ms per
    step of each, and the median of the per-round ratios ours/baseline."""
    pairs = [(timed_ms(baseline, steps, 1), timed_ms(ours, steps, 1)) for _ in range(repeat)]
    base_rounds = [b for b, _ in pairs]
    our_rounds = [o for _, o in pairs]
    return statistics.median(base_rounds), statistics.median(our_rounds), statistics.median(o / b for b, o in pairs)


def numpy_step_fn(batch: int, xp):
    """A hand-written step of the same model, in place on its own weights."""
    rng = xp.random.RandomState(0)
    x = rng.rand(batch, IN).astype(xp.float32)
    y = rng.randint(0, OUT, size=batch)
    w1 = (rng.rand(IN, HIDDEN).astype(xp.float32) - 0.5) * 0.1
    b1 = xp.zeros(HIDDEN, xp.float32)
    w2 = (rng.rand(HIDDEN, OUT).astype(xp.float32) - 0.5) * 0.1
    b2 = xp.zeros(OUT, xp.float32)
    rows = xp.arange(batch)

    def step():
        nonlocal w1, b1, w2, b2
        h = x @ w1
        h += b1
        a = xp.maximum(h, 0)
        logits = a @ w2
        logits += b2
        e = xp.exp(logits - logits.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        d = p
        d[rows, y] -= 1
        d /= batch
        dw2 = a.T @ d
        db2 = d.sum(axis=0)
        da = d @ w2.T
        da *= h > 0
        dw1 = x.T @ da
        db1 = da.sum(axis=0)
        w1 -= LR * dw1
        b1 -= LR * db1
        w2 -= LR * dw2
        b2 -= LR * db2
        if xp.__name__ == "cupy":
            xp.cuda.Device().synchronize()
    return step


def make_model(tf, strategy):
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(HIDDEN, activation="relu", input_shape=(IN,),
                                  kernel_initializer=tf.keras.initializers.GlorotUniform(seed=1)),
            tf.keras.layers.Dense(OUT, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=2)),
        ])
        model.compile(optimizer=tf.keras.optimizers.SGD(LR),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        model.optimizer.build(model.trainable_variables)
    return model


def step_fn(tf, strategy, batch: int, sync):
    """Keras 3's own train function (as fit runs it: one step per call over a distributed iterator), on one
    fixed batch repeated."""
    import numpy as np
    rng = np.random.RandomState(0)
    x = rng.rand(batch, IN).astype(np.float32)
    y = rng.randint(0, OUT, size=batch).astype(np.int32)
    model = make_model(tf, strategy)
    dataset = tf.data.Dataset.from_tensors((x, y)).repeat()
    iterator = iter(strategy.experimental_distribute_dataset(dataset))
    model.make_train_function()
    train = model.train_function

    def step():
        with strategy.scope():
            out = train(iterator)
        sync(out)
    return step, model


def fit_steps_per_s(tf, strategy, batch: int, steps: int) -> float:
    import numpy as np
    rng = np.random.RandomState(1)
    x = rng.rand(batch * steps, IN).astype(np.float32)
    y = rng.randint(0, OUT, size=batch * steps).astype(np.int32)
    model = make_model(tf, strategy)
    model.fit(x[:batch * 2], y[:batch * 2], batch_size=batch, epochs=1, verbose=0, shuffle=False)
    start = time.perf_counter()
    model.fit(x, y, batch_size=batch, epochs=1, verbose=0, shuffle=False)
    return steps / (time.perf_counter() - start)


def cuda_replicas(tf, replicas: int) -> list:
    """One replica per GPU; with fewer GPUs than replicas, that many virtual GPUs on the first."""
    gpus = tf.config.list_physical_devices("GPU")
    if len(gpus) < replicas:
        config = tf.config.LogicalDeviceConfiguration(memory_limit=2048)
        tf.config.set_logical_device_configuration(gpus[0], [config] * replicas)
    return [f"/gpu:{i}" for i in range(replicas)]


def child(replicas: int, batch: int, steps: int, cuda: bool) -> dict:
    """Measurements of one (logical device count, global batch) configuration, in this process."""
    import placeflow as tf
    from placeflow.distribute.experimental import PhaseTimer
    import logging
    logging.getLogger("placeflow.distribute").setLevel(logging.WARNING)
    if not cuda:
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * replicas)
        devices = [f"/cpu:{i}" for i in range(replicas)]
        import numpy as xp
    else:
        devices = cuda_replicas(tf, replicas)
        import cupy as xp

    from placeflow.framework.nest import flatten

    def sync(out):
        for leaf in flatten(out, expand_composites=True):
            leaf.numpy()
    result = {"replicas": replicas, "batch": batch}
    single, _ = step_fn(tf, tf.distribute.OneDeviceStrategy(devices[0]), batch, sync)
    result["numpy"], result["single"], result["single/np"] = paired_ms(numpy_step_fn(batch, xp), single, steps)
    one = tf.distribute.MirroredStrategy(devices[:1])
    result["mirrored1"] = timed_ms(step_fn(tf, one, batch, sync)[0], steps)
    if replicas > 1:
        strategy = tf.distribute.MirroredStrategy(devices)
        mirrored, _ = step_fn(tf, strategy, batch, sync)
        result["mirrored"] = timed_ms(mirrored, steps)
        result["allreduce"] = type(strategy.cross_device_ops).__name__
    else:
        strategy, mirrored = one, step_fn(tf, one, batch, sync)[0]
        result["mirrored"] = result["mirrored1"]
        result["allreduce"] = "(none)"
    with PhaseTimer() as timer:
        for _ in range(steps):
            mirrored()
    result["phases"] = timer.per_step_ms()
    result["fit"] = fit_steps_per_s(tf, strategy, batch, steps)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--cuda", action="store_true", help="real GPUs: CuPy baseline, replicas on the GPUs")
    parser.add_argument("--child", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], args.child[1], args.steps, args.cuda)))
        return
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")])))
    if not args.cuda:
        env["PLACEFLOW_DISABLE_CUDA"] = "1"
    rows = []
    for batch in (256, 64):
        for replicas in (1, 2, 4):
            command = [sys.executable, __file__, "--steps", str(args.steps), "--child", str(replicas), str(batch)]
            if args.cuda:
                command.append("--cuda")
            done = subprocess.run(command, env=env, capture_output=True, text=True)
            if done.returncode:
                sys.exit(f"child {command[-3:]} failed:\n{done.stderr}")
            out = done.stdout
            rows.append(json.loads(out.strip().splitlines()[-1]))
    print_table(rows, args)


def print_table(rows, args) -> None:
    base = "raw CuPy" if args.cuda else "raw NumPy"
    print(f"MLP {IN}-{HIDDEN}-{OUT}, SGD, float32; {os.cpu_count()} cores; {args.steps} steps per round, "
          f"median of 5 rounds (ms per step; numpy and single: 9 rounds in turn); baseline: {base}, same process")
    header = (f"{'batch':>5} {'N':>2} {'numpy':>7} {'single':>7} {'single/np':>9} {'mirror1':>7} {'mirrorN':>7} "
              f"{'N/1':>5} {'compute':>8} {'allred':>7} {'copies':>7} {'fit st/s':>8}  all-reduce")
    print(header)
    for r in rows:
        p = r["phases"]
        print(f"{r['batch']:>5} {r['replicas']:>2} {r['numpy']:>7.3f} {r['single']:>7.3f} "
              f"{r['single/np']:>8.2f}x {r['mirrored1']:>7.3f} {r['mirrored']:>7.3f} "
              f"{r['mirrored'] / r['mirrored1']:>4.2f}x {p['compute']:>8.3f} {p['all-reduce']:>7.3f} "
              f"{p['copies']:>7.3f} {r['fit']:>8.1f}  {r['allreduce']}")
    print("compute / allred / copies: busy ms per step summed over devices (PhaseTimer); N/1: mirrored over N "
          "devices vs mirrored over 1, same global batch.")


if __name__ == "__main__":
    main()
