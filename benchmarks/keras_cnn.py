"""A small Keras CNN's training step against the same step written by hand in NumPy (im2col), same run.

    PYTHONPATH=src python3 benchmarks/keras_cnn.py [--batch 32] [--steps 30]

Model: Conv2D(16, 3x3, relu) -> MaxPooling2D(2) -> BatchNormalization -> Flatten -> Dense(10), softmax
cross-entropy from logits, SGD 0.05, on 16x16x3 images. The placeflow step is Keras 3's own train step
(`model.train_on_batch`: its GradientTape, SGD, BatchNormalization's moving statistics), traced by
placeflow.function. The NumPy step does the same forward, backward and update by hand (float32).
Target (issue 17): placeflow <= 1.3x NumPy. `--own-keras-src DIR` also times placeflow's former Keras
(DIR: the `src` of an older checkout, e.g. `git worktree add /tmp/own ad983b8`) in a child process, and
`--tensorflow-python PY` the same Keras step on real TensorFlow (PY: a Python with tensorflow installed);
`--rounds N` times placeflow and TensorFlow in turn N times (each TF round a fresh child process).
`--blocks N` (with --tensorflow-python) times them in finer turns instead: TensorFlow's step runs in one child
that waits between blocks, and N blocks of `--steps` steps alternate between it and placeflow (a pause after
each, so that neither library's idle threads spin into the other's block); on a shared machine whose speed
drifts over seconds this compares the two under the same load, block by block.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, os.environ.get("PLACEFLOW_BENCH_SRC") or str(Path(__file__).resolve().parents[1] / "src"))
os.environ.setdefault("PLACEFLOW_DISABLE_CUDA", "1")

import numpy as np  # noqa: E402

if os.environ.get("PLACEFLOW_BENCH_LIBRARY") == "tensorflow":  # --tensorflow-python: the same step on real TF
    import tensorflow as tf  # noqa: E402
else:
    import placeflow as tf  # noqa: E402

H = W = 16
C, F, K, CLASSES = 3, 16, 3, 10
LR, EPS, MOMENTUM = 0.05, 1e-3, 0.99


def initial_weights(rng):
    conv = (rng.normal(size=(K, K, C, F)) * 0.2).astype(np.float32)
    dense = (rng.normal(size=(7 * 7 * F, CLASSES)) * 0.05).astype(np.float32)
    return [conv, np.zeros(F, np.float32), np.ones(F, np.float32), np.zeros(F, np.float32),
            np.zeros(F, np.float32), np.ones(F, np.float32), dense, np.zeros(CLASSES, np.float32)]


def keras_step(weights):
    layers = tf.keras.layers
    model = tf.keras.Sequential([tf.keras.Input(shape=(H, W, C)), layers.Conv2D(F, K, activation="relu"),
                                 layers.MaxPooling2D(), layers.BatchNormalization(), layers.Flatten(),
                                 layers.Dense(CLASSES)])
    model.set_weights(weights)
    model.compile(optimizer=tf.keras.optimizers.SGD(LR),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    if hasattr(model, "_function"):  # placeflow's former Keras (--own-keras-src): its traced train step
        step = model._function("train")
        return model, lambda x, y: float(step(x, y, None, float(x.shape[0]))[0].numpy()) / float(x.shape[0])
    return model, lambda x, y: float(model.train_on_batch(x, y))


class NumpyCNN:
    """The same model's training step by hand: im2col convolution, 2x2 max pooling, batch norm, dense."""

    def __init__(self, weights):
        self.kernel, self.bias, self.gamma, self.beta, self.mean, self.var, self.dense, self.dense_bias = \
            [w.copy() for w in weights]

    def step(self, x, y):
        n = x.shape[0]
        oh, ow = H - K + 1, W - K + 1
        cols = np.lib.stride_tricks.sliding_window_view(x, (K, K), axis=(1, 2))  # n, oh, ow, C, K, K
        cols = cols.transpose(0, 1, 2, 4, 5, 3).reshape(n * oh * ow, K * K * C)
        z = cols @ self.kernel.reshape(K * K * C, F) + self.bias
        a = np.maximum(z, 0).reshape(n, oh, ow, F)
        ph, pw = oh // 2, ow // 2
        corners = [a[:, i:ph * 2:2, j:pw * 2:2] for i in range(2) for j in range(2)]  # each window's 4 entries
        p = np.maximum(np.maximum(corners[0], corners[1]), np.maximum(corners[2], corners[3]))
        mean, var = p.mean(axis=(0, 1, 2)), p.var(axis=(0, 1, 2))
        inv = 1.0 / np.sqrt(var + EPS)
        xhat = (p - mean) * inv
        b = xhat * self.gamma + self.beta
        flat = b.reshape(n, -1)
        logits = flat @ self.dense + self.dense_bias
        shifted = logits - logits.max(axis=1, keepdims=True)
        probs = np.exp(shifted)
        probs /= probs.sum(axis=1, keepdims=True)
        loss = float(-np.log(probs[np.arange(n), y]).mean())
        g_logits = probs
        g_logits[np.arange(n), y] -= 1.0
        g_logits /= n
        g_dense, g_dense_bias = flat.T @ g_logits, g_logits.sum(axis=0)
        g_b = (g_logits @ self.dense.T).reshape(b.shape)
        g_gamma, g_beta = (g_b * xhat).sum(axis=(0, 1, 2)), g_b.sum(axis=(0, 1, 2))
        g_xhat = g_b * self.gamma
        m = n * ph * pw
        g_p = inv / m * (m * g_xhat - g_xhat.sum(axis=(0, 1, 2)) - xhat * (g_xhat * xhat).sum(axis=(0, 1, 2)))
        g_a = np.zeros_like(a)
        taken = np.zeros(p.shape, bool)
        for k, corner in enumerate(corners):  # the first maximum of each window takes its gradient
            first = (corner == p) & ~taken
            g_a[:, k // 2:ph * 2:2, k % 2:pw * 2:2] = np.where(first, g_p, 0)
            taken |= first
        g_z = (g_a * (a > 0)).reshape(n * oh * ow, F)
        g_kernel = (cols.T @ g_z).reshape(K, K, C, F)
        self.kernel -= LR * g_kernel
        self.bias -= LR * g_z.sum(axis=0)
        self.gamma -= LR * g_gamma
        self.beta -= LR * g_beta
        self.dense -= LR * g_dense
        self.dense_bias -= LR * g_dense_bias
        self.mean = self.mean * MOMENTUM + mean * (1 - MOMENTUM)
        self.var = self.var * MOMENTUM + var * (1 - MOMENTUM)
        return loss


def median_ms(fn, steps, repeat=5):
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(steps):
            fn()
        samples.append((time.perf_counter() - start) / steps * 1e3)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--own-keras-src", help="src/ of a checkout with placeflow's former Keras: time it too")
    parser.add_argument("--tensorflow-python", help="a Python with TensorFlow: time the same Keras step on TF too")
    parser.add_argument("--rounds", type=int, default=1, help="with --tensorflow-python: time placeflow and TF in "
                        "turn this many times (TF in a fresh child each round) and report medians and the median "
                        "of the per-round ratios, so both see the same machine load")
    parser.add_argument("--blocks", type=int, default=0, help="with --tensorflow-python: alternate this many "
                        "blocks of --steps steps between placeflow and one TensorFlow child, and report medians")
    parser.add_argument("--only-keras-ms", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--serve-blocks", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.blocks and not args.tensorflow_python:
        parser.error("--blocks compares with TensorFlow: give --tensorflow-python too")
    rng = np.random.default_rng(0)
    weights = initial_weights(rng)
    x_host = rng.normal(size=(args.batch, H, W, C)).astype(np.float32)
    y_host = rng.integers(0, CLASSES, size=args.batch)
    reference = NumpyCNN(weights)
    model, step = keras_step(weights)
    x, y = tf.constant(x_host), tf.constant(y_host)
    losses = [step(x, y) for _ in range(3)]
    expected = [reference.step(x_host, y_host) for _ in range(3)]
    np.testing.assert_allclose(losses, expected, rtol=1e-4)  # the two steps compute the same numbers
    if args.only_keras_ms:
        print(median_ms(lambda: step(x, y), args.steps))
        return
    if args.serve_blocks:
        _serve_blocks(lambda: step(x, y))
        return
    if args.blocks and args.tensorflow_python:
        _compare_in_blocks(args, lambda: reference.step(x_host, y_host), lambda: step(x, y))
        return
    rounds = []   # (NumPy, placeflow, TF or None) per round, taken in turn
    for _ in range(max(1, args.rounds)):
        rounds.append((median_ms(lambda: reference.step(x_host, y_host), args.steps), median_ms(lambda: step(x, y),
                       args.steps), _tf_ms(args) if args.tensorflow_python else None))
    numpy_ms = statistics.median(r[0] for r in rounds)
    placeflow_ms = statistics.median(r[1] for r in rounds)
    own_ms = _child_ms(args, sys.executable, PLACEFLOW_BENCH_SRC=args.own_keras_src) if args.own_keras_src else None
    tf_ms = statistics.median(r[2] for r in rounds) if args.tensorflow_python else None
    print(f"small CNN training step, batch {args.batch}, NumPy {np.__version__}, {os.cpu_count()} cores")
    print(f"{'':34s} {'ms/step':>9s} {'ratio':>7s}")
    print(f"{'NumPy (im2col, by hand)':34s} {numpy_ms:9.3f} {1.0:7.2f}")
    print(f"{'Keras 3 on placeflow':34s} {placeflow_ms:9.3f} {placeflow_ms / numpy_ms:7.2f}")
    if own_ms is not None:
        print(f"{'placeflow former Keras (own)':34s} {own_ms:9.3f} {own_ms / numpy_ms:7.2f}")
    if tf_ms is not None:
        print(f"{'Keras 3 on TensorFlow (CPU)':34s} {tf_ms:9.3f} {tf_ms / numpy_ms:7.2f}")
        ratios = [p / t for _, p, t in rounds]
        print(f"placeflow / TensorFlow, median of {len(rounds)} round(s) taken in turn: {statistics.median(ratios):.2f}"
              f" (rounds: {', '.join(f'{r:.2f}' for r in ratios)})")


def _block_ms(fn, steps) -> float:
    """Milliseconds a step of `steps` calls of fn."""
    start = time.perf_counter()
    for _ in range(steps):
        fn()
    return (time.perf_counter() - start) / steps * 1e3


def _serve_blocks(step) -> None:
    """The child of --blocks: for each line `N` read, run N steps and print the ms per step."""
    step()
    print("ready", flush=True)
    for line in sys.stdin:
        print(_block_ms(step, int(line)), flush=True)


def _compare_in_blocks(args, numpy_step, placeflow_step) -> None:
    import subprocess
    env = dict(os.environ, PLACEFLOW_BENCH_LIBRARY="tensorflow", TF_CPP_MIN_LOG_LEVEL="3")
    child = subprocess.Popen([args.tensorflow_python, __file__, "--serve-blocks", "--batch", str(args.batch)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    try:
        line = None
        while line != "ready":
            line = child.stdout.readline()
            if not line:
                raise SystemExit(f"the TensorFlow child ({args.tensorflow_python}) exited before its first step")
            line = line.strip()
        times = {"NumPy": [], "placeflow": [], "TensorFlow": []}
        for _ in range(args.blocks):
            for name in times:
                if name == "TensorFlow":
                    child.stdin.write(f"{args.steps}\n")
                    child.stdin.flush()
                    times[name].append(float(child.stdout.readline()))
                else:
                    times[name].append(_block_ms(numpy_step if name == "NumPy" else placeflow_step, args.steps))
                time.sleep(0.02)
    finally:
        child.stdin.close()
        child.wait(timeout=60)
    _print_blocks(args, times)


def _print_blocks(args, times) -> None:
    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"small CNN training step, batch {args.batch}, NumPy {np.__version__}, {os.cpu_count()} cores, "
          f"{args.blocks} blocks of {args.steps} steps in turn")
    print(f"{'':34s} {'ms/step':>9s} {'ratio':>7s} {'quartiles (ms)':>18s}")
    labels = {"NumPy": "NumPy (im2col, by hand)", "placeflow": "Keras 3 on placeflow",
              "TensorFlow": "Keras 3 on TensorFlow (CPU)"}
    for name, values in times.items():
        low, high = np.percentile(values, [25, 75])
        print(f"{labels[name]:34s} {medians[name]:9.3f} {medians[name] / medians['NumPy']:7.2f} "
              f"{low:8.3f} - {high:7.3f}")
    ratios = [p / t for p, t in zip(times["placeflow"], times["TensorFlow"])]
    low, high = np.percentile(ratios, [25, 75])
    print(f"placeflow / TensorFlow, block by block: median {statistics.median(ratios):.2f} (quartiles {low:.2f} - "
          f"{high:.2f}); below 1 in {sum(r < 1 for r in ratios)} of {len(ratios)} blocks")


def _tf_ms(args) -> float:
    return _child_ms(args, args.tensorflow_python, PLACEFLOW_BENCH_LIBRARY="tensorflow", TF_CPP_MIN_LOG_LEVEL="3")


def _child_ms(args, python, **env) -> float:
    """This benchmark's Keras step in a child process (another library or source tree), in this run."""
    import subprocess
    out = subprocess.run([python, __file__, "--only-keras-ms", "--batch", str(args.batch), "--steps",
                          str(args.steps)], capture_output=True, text=True, env=dict(os.environ, **env),
                         check=True).stdout
    return float(out.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
