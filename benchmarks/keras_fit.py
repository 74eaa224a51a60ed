"""An MLP's `fit` epoch (Keras 3 on placeflow) against the same epoch written by hand in NumPy, same run.

    PYTHONPATH=src python3 benchmarks/keras_fit.py [--rows 4096] [--batch 128] [--repeat 5] [--rounds N]
        [--own-keras-src DIR] [--tensorflow-python PY]

Model: Dense(256, relu) -> Dense(10) on 784 features, softmax cross-entropy from logits, SGD 0.1, no
shuffling. The NumPy epoch does the same forward, backward and update per batch (float32). `--own-keras-src`
times placeflow's former Keras (the `src` of an older checkout) and `--tensorflow-python` the same program on
real TensorFlow, each in a child process of this run. Goal (issue 27): at most 1.5x the former Keras, and
faster than TensorFlow.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.environ.get("PLACEFLOW_BENCH_SRC") or str(Path(__file__).resolve().parents[1] / "src"))
os.environ.setdefault("PLACEFLOW_DISABLE_CUDA", "1")

import numpy as np  # noqa: E402

if os.environ.get("PLACEFLOW_BENCH_LIBRARY") == "tensorflow":
    import tensorflow as tf  # noqa: E402
else:
    import placeflow as tf  # noqa: E402

FEATURES, HIDDEN, CLASSES, LR = 784, 256, 10, 0.1


def data(rows):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(rows, FEATURES)).astype(np.float32)
    y = rng.integers(0, CLASSES, size=rows).astype(np.int32)
    w1 = (rng.normal(size=(FEATURES, HIDDEN)) * 0.05).astype(np.float32)
    w2 = (rng.normal(size=(HIDDEN, CLASSES)) * 0.05).astype(np.float32)
    return x, y, [w1, np.zeros(HIDDEN, np.float32), w2, np.zeros(CLASSES, np.float32)]


def keras_model(weights):
    model = tf.keras.Sequential([tf.keras.Input(shape=(FEATURES,)), tf.keras.layers.Dense(HIDDEN, activation="relu"),
                                 tf.keras.layers.Dense(CLASSES)])
    model.set_weights(weights)
    model.compile(optimizer=tf.keras.optimizers.SGD(LR),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def numpy_epoch(weights, x, y, batch):
    """One epoch by hand; the mean of the batch losses."""
    w1, b1, w2, b2 = weights
    losses = []
    for start in range(0, len(x), batch):
        xb, yb = x[start:start + batch], y[start:start + batch]
        n = len(xb)
        h = np.maximum(xb @ w1 + b1, 0)
        logits = h @ w2 + b2
        shifted = logits - logits.max(axis=1, keepdims=True)
        probs = np.exp(shifted)
        probs /= probs.sum(axis=1, keepdims=True)
        losses.append(float(-np.log(probs[np.arange(n), yb]).mean()))
        g = probs
        g[np.arange(n), yb] -= 1.0
        g /= n
        gh = (g @ w2.T) * (h > 0)
        w2 -= LR * (h.T @ g)
        b2 -= LR * g.sum(axis=0)
        w1 -= LR * (xb.T @ gh)
        b1 -= LR * gh.sum(axis=0)
    return float(np.mean(losses))


def median_s(fn, repeat):
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def keras_epoch_s(args) -> float:
    x, y, weights = data(args.rows)
    model = keras_model(weights)
    return median_s(lambda: model.fit(x, y, batch_size=args.batch, epochs=1, shuffle=False, verbose=0), args.repeat)


def child_s(args, python, **env) -> float:
    out = subprocess.run([python, __file__, "--only-keras", "--rows", str(args.rows), "--batch", str(args.batch),
                          "--repeat", str(args.repeat)], capture_output=True, text=True, env=dict(os.environ, **env),
                         check=True).stdout
    return float(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--own-keras-src")
    parser.add_argument("--tensorflow-python")
    parser.add_argument("--rounds", type=int, default=1, help="time every library in turn this many times (the "
                        "children fresh each round) and report medians, so all see the same machine load")
    parser.add_argument("--only-keras", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only_keras:
        print(keras_epoch_s(args))
        return
    x, y, weights = data(args.rows)
    model = keras_model([w.copy() for w in weights])
    first = model.fit(x, y, batch_size=args.batch, epochs=1, shuffle=False, verbose=0).history["loss"][0]
    by_hand = numpy_epoch([w.copy() for w in weights], x, y, args.batch)
    np.testing.assert_allclose(first, by_hand, rtol=1e-4)  # the same epoch: the same mean loss
    timers = [("NumPy (by hand)", lambda: median_s(lambda: numpy_epoch([w.copy() for w in weights], x, y,
                                                                      args.batch), args.repeat)),
              ("Keras 3 on placeflow", lambda: keras_epoch_s(args))]
    if args.own_keras_src:
        timers.append(("placeflow former Keras (own)",
                       lambda: child_s(args, sys.executable, PLACEFLOW_BENCH_SRC=args.own_keras_src)))
    if args.tensorflow_python:
        timers.append(("Keras 3 on TensorFlow (CPU)", lambda: child_s(args, args.tensorflow_python,
                                                                      PLACEFLOW_BENCH_LIBRARY="tensorflow",
                                                                      TF_CPP_MIN_LOG_LEVEL="3")))
    rounds = [[timer() for _, timer in timers] for _ in range(max(1, args.rounds))]   # every timer in turn
    medians = [statistics.median(r[i] for r in rounds) for i in range(len(timers))]
    print(f"MLP {FEATURES}-{HIDDEN}-{CLASSES} fit epoch, {args.rows} rows, batch {args.batch}, "
          f"NumPy {np.__version__}, {os.cpu_count()} cores, median of {len(rounds)} round(s) taken in turn")
    print(f"{'':34s} {'ms/epoch':>9s} {'x NumPy':>8s} {'placeflow / this, per round':>30s}")
    for i, (label, _) in enumerate(timers):
        per_round = [r[1] / r[i] for r in rounds]
        print(f"{label:34s} {medians[i] * 1e3:9.1f} {medians[i] / medians[0]:8.2f}   "
              f"{statistics.median(per_round):.2f} ({', '.join(f'{v:.2f}' for v in per_round)})")

if __name__ == "__main__":
    main()
