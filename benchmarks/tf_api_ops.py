"""The TensorFlow API added for Keras's tests, against raw NumPy doing the same work in the same run.

    PYTHONPATH=src python3 benchmarks/tf_api_ops.py

Each row times one op on the host, eagerly and inside a placeflow.function, against the NumPy call(s) that
compute the same values (the ratio is placeflow's time over NumPy's; medians of repeated samples):
rfft and stft of audio-sized signals, a 3-D convolution with its im2col written in NumPy, the string hash
buckets (FarmHash Fingerprint64 in pure Python: the NumPy column is Python's own `hash`, for scale only),
a RaggedTensor split and pad of a batch of sentences against Python's str.split and a NumPy fill, and lgamma and
digamma of 100k values (NumPy has neither: its column is math.lgamma mapped with np.frompyfunc, and digamma
as a central difference of that), and a batch of LU solves and of matrix exponentials (NumPy: np.linalg.solve,
and the exponential of symmetric matrices through np.linalg.eigh), and local response normalization (NumPy: the
same windowed sum of squares over padded channels), tf.scan against the same Python loop in NumPy, and
numpy_function / py_function against calling the same NumPy function directly (their cost is the crossing),
and the Philox draws (TF's values) against NumPy's own generator drawing as many values (a different stream).
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
os.environ.setdefault("PLACEFLOW_DISABLE_CUDA", "1")


def per_call_us(fn, number: int, repeat: int = 9) -> float:
    """Median over `repeat` samples of the mean time of `number` calls, in microseconds."""
    fn()
    return statistics.median(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def _stft_numpy(np, signal, frame_length, frame_step, fft_length):
    frames = 1 + (signal.shape[-1] - frame_length) // frame_step
    index = np.arange(frames)[:, None] * frame_step + np.arange(frame_length)[None, :]
    window = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(frame_length) / frame_length)).astype(np.float32)
    return np.fft.rfft(signal[..., index] * window, fft_length)


def _conv3d_numpy(np, x, w):
    windows = np.lib.stride_tricks.sliding_window_view(x, w.shape[:3], axis=(1, 2, 3))
    n, d, h, wd = windows.shape[:4]
    rows = windows.transpose(0, 1, 2, 3, 5, 6, 7, 4).reshape(n * d * h * wd, -1)
    return (rows @ w.reshape(-1, w.shape[-1])).reshape(n, d, h, wd, w.shape[-1])


def _truncated_numpy(np, count):
    rng = np.random.default_rng([1, 2])
    values = rng.standard_normal(count, np.float32)
    outside = np.abs(values) >= 2.0
    while outside.any():
        values[outside] = rng.standard_normal(int(outside.sum()), np.float32)
        outside = np.abs(values) >= 2.0
    return values


def rows():
    import numpy as np

    import placeflow as tf
    rng = np.random.default_rng(0)
    audio = rng.standard_normal((8, 16000)).astype(np.float32)
    volume = rng.standard_normal((2, 16, 16, 16, 8)).astype(np.float32)
    kernel = rng.standard_normal((3, 3, 3, 8, 16)).astype(np.float32)
    words = np.array([" ".join(f"w{(i * 7 + j) % 97}" for j in range(i % 12 + 1)) for i in range(256)])
    audio_t, volume_t, kernel_t, words_t = (tf.constant(v) for v in (audio, volume, kernel, words))

    rfft_traced = tf.function(lambda x: tf.signal.rfft(x))
    stft_traced = tf.function(lambda x: tf.signal.stft(x, 400, 160, 512))
    conv_traced = tf.function(lambda x, w: tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], "VALID"))
    hash_traced = tf.function(lambda s: tf.strings.to_hash_bucket_fast(s, 1000))
    split_traced = tf.function(lambda s: tf.strings.split(s).to_tensor(shape=[None, 12]))
    points = rng.uniform(0.1, 50.0, 100_000).astype(np.float32)
    points_t = tf.constant(points)
    lgamma_traced = tf.function(lambda x: tf.math.lgamma(x))
    digamma_traced = tf.function(lambda x: tf.math.digamma(x))
    python_lgamma = np.frompyfunc(math.lgamma, 1, 1)
    systems = rng.standard_normal((64, 32, 32)) + 32 * np.eye(32)
    targets = rng.standard_normal((64, 32, 1))
    symmetric = rng.standard_normal((64, 16, 16)) * 0.3
    symmetric = symmetric + np.swapaxes(symmetric, -1, -2)
    systems_t, targets_t, symmetric_t = (tf.constant(v) for v in (systems, targets, symmetric))
    lu_traced = tf.function(lambda a, b: tf.linalg.lu_solve(*tf.linalg.lu(a), b))
    expm_traced = tf.function(lambda a: tf.linalg.expm(a))

    activations = rng.standard_normal((32, 16, 16, 64)).astype(np.float32)
    activations_t = tf.constant(activations)
    lrn_traced = tf.function(lambda x: tf.nn.lrn(x))

    def lrn_numpy():
        padded = np.pad(activations * activations, [(0, 0), (0, 0), (0, 0), (5, 5)])
        window = sum(padded[..., k:k + 64] for k in range(11))
        return activations / np.sqrt(1.0 + window)

    sequence = rng.standard_normal((64, 256)).astype(np.float32)
    sequence_t = tf.constant(sequence)
    scan_traced = tf.function(lambda x: tf.scan(lambda a, v: a * 0.5 + v, x))

    def scan_numpy():
        accumulator, out = sequence[0], [sequence[0]]
        for row in sequence[1:]:
            accumulator = accumulator * 0.5 + row
            out.append(accumulator)
        return np.stack(out)

    def py_body(a):
        return np.tanh(np.asarray(a)) * 2.0
    vector = rng.standard_normal(1000).astype(np.float32)
    vector_t = tf.constant(vector)
    numpy_function_traced = tf.function(lambda x: tf.numpy_function(py_body, [x], tf.float32))
    py_function_traced = tf.function(lambda x: tf.py_function(lambda a: tf.tanh(a) * 2.0, [x], tf.float32))

    uniform_traced = tf.function(lambda: tf.random.stateless_uniform([1_000_000], seed=[1, 2]))
    normal_traced = tf.function(lambda: tf.random.stateless_normal([1_000_000], seed=[1, 2]))
    truncated_traced = tf.function(lambda: tf.random.stateless_truncated_normal([100_000], seed=[1, 2]))

    def expm_numpy():
        values, vectors = np.linalg.eigh(symmetric)
        return (vectors * np.exp(values)[:, None, :]) @ np.swapaxes(vectors, -1, -2)

    tnp = tf.experimental.numpy
    square = rng.standard_normal((256, 256))
    square_t = tnp.asarray(square)
    tnp_traced = tf.function(lambda m: tnp.sum(tnp.matmul(m, m), axis=0))
    boxes = np.sort(rng.random((1000, 4), dtype=np.float32).reshape(1000, 2, 2), axis=1).reshape(1000, 4)
    box_scores = rng.random(1000, dtype=np.float32)
    boxes_t, box_scores_t = tf.constant(boxes), tf.constant(box_scores)
    nms_traced = tf.function(lambda b, s: tf.image.non_max_suppression(b, s, 100, 0.5))
    bessel_points = np.linspace(0.0, 30.0, 100_000)
    bessel_points_t = tf.constant(bessel_points)
    bessel_traced = tf.function(lambda x: tf.math.special.bessel_j0(x))

    def nms_numpy():
        order, kept = np.argsort(-box_scores, kind="stable"), []
        area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
        while order.size and len(kept) < 100:
            best, order = order[0], order[1:]
            kept.append(best)
            top = np.maximum(boxes[best, :2], boxes[order, :2])
            bottom = np.minimum(boxes[best, 2:], boxes[order, 2:])
            inter = np.prod(np.clip(bottom - top, 0, None), axis=1)
            order = order[inter / (area[best] + area[order] - inter) <= 0.5]
        return kept

    def split_numpy():
        parts = [s.split() for s in words]
        out = np.full((len(parts), 12), "", dtype=object)
        for i, row in enumerate(parts):
            out[i, :len(row)] = row[:12]
        return out

    return [
        ("rfft 8 x 16000", lambda: np.fft.rfft(audio), lambda: tf.signal.rfft(audio_t),
         lambda: rfft_traced(audio_t), 200),
        ("stft 8 x 16000 (400/160/512)", lambda: _stft_numpy(np, audio, 400, 160, 512),
         lambda: tf.signal.stft(audio_t, 400, 160, 512), lambda: stft_traced(audio_t), 50),
        ("conv3d 2x16^3x8 * 3^3x8x16", lambda: _conv3d_numpy(np, volume, kernel),
         lambda: tf.nn.conv3d(volume_t, kernel_t, [1, 1, 1, 1, 1], "VALID"), lambda: conv_traced(volume_t, kernel_t),
         10),
        ("to_hash_bucket_fast 256 words*", lambda: [hash(s) % 1000 for s in words],
         lambda: tf.strings.to_hash_bucket_fast(words_t, 1000), lambda: hash_traced(words_t), 50),
        ("split + pad 256 sentences", split_numpy, lambda: tf.strings.split(words_t).to_tensor(shape=[None, 12]),
         lambda: split_traced(words_t), 50),
        ("lgamma 100k (vs math.lgamma)", lambda: python_lgamma(points.astype(np.float64)).astype(np.float32),
         lambda: tf.math.lgamma(points_t), lambda: lgamma_traced(points_t), 5),
        ("digamma 100k (vs differences)", lambda: ((python_lgamma(points + 1e-4) - python_lgamma(points - 1e-4))
                                                   / 2e-4).astype(np.float32),
         lambda: tf.math.digamma(points_t), lambda: digamma_traced(points_t), 5),
        ("lu + lu_solve 64 x 32x32", lambda: np.linalg.solve(systems, targets),
         lambda: tf.linalg.lu_solve(*tf.linalg.lu(systems_t), targets_t), lambda: lu_traced(systems_t, targets_t), 20),
        ("expm 64 x 16x16 (vs eigh)", expm_numpy, lambda: tf.linalg.expm(symmetric_t),
         lambda: expm_traced(symmetric_t), 20),
        ("lrn 32x16x16x64 (radius 5)", lrn_numpy, lambda: tf.nn.lrn(activations_t), lambda: lrn_traced(activations_t),
         5),
        ("scan 64 steps of 256 (vs a loop)", scan_numpy, lambda: tf.scan(lambda a, v: a * 0.5 + v, sequence_t),
         lambda: scan_traced(sequence_t), 20),
        ("stateless_uniform 1M (Philox)", lambda: np.random.default_rng([1, 2]).random(1_000_000, np.float32),
         lambda: tf.random.stateless_uniform([1_000_000], seed=[1, 2]), uniform_traced, 5),
        ("stateless_normal 1M (Philox)", lambda: np.random.default_rng([1, 2]).standard_normal(1_000_000, np.float32),
         lambda: tf.random.stateless_normal([1_000_000], seed=[1, 2]), normal_traced, 5),
        ("truncated_normal 100k (Philox)", lambda: _truncated_numpy(np, 100_000),
         lambda: tf.random.stateless_truncated_normal([100_000], seed=[1, 2]), truncated_traced, 3),
        ("numpy_function tanh 1000", lambda: py_body(vector),
         lambda: tf.numpy_function(py_body, [vector_t], tf.float32), lambda: numpy_function_traced(vector_t), 200),
        ("py_function tanh 1000 (vs NumPy)", lambda: py_body(vector),
         lambda: tf.py_function(lambda a: tf.tanh(a) * 2.0, [vector_t], tf.float32),
         lambda: py_function_traced(vector_t), 200),
        ("tnp sum(matmul) 256x256 float64", lambda: np.sum(square @ square, axis=0),
         lambda: tnp.sum(tnp.matmul(square_t, square_t), axis=0), lambda: tnp_traced(square_t), 50),
        ("non_max_suppression 1000 boxes", nms_numpy,
         lambda: tf.image.non_max_suppression(boxes_t, box_scores_t, 100, 0.5),
         lambda: nms_traced(boxes_t, box_scores_t), 10),
        ("bessel_j0 100k (vs np.i0)*", lambda: np.i0(bessel_points), lambda: tf.math.special.bessel_j0(bessel_points_t),
         lambda: bessel_traced(bessel_points_t), 5),
    ] + _rows_of_stop_36(np, tf, rng)


def _rows_of_stop_36(np, tf, rng):
    """Forward mode, the new random samplers (TF's values), sqrtm and Sobol points."""
    x = rng.standard_normal((256, 256)).astype(np.float32)
    w = (rng.standard_normal((256, 256)) / 16).astype(np.float32)
    v = rng.standard_normal((256, 256)).astype(np.float32)
    x_t, w_t, v_t = (tf.constant(a) for a in (x, w, v))

    def jvp_numpy():
        return (1 - np.tanh(x @ w) ** 2) * (v @ w)

    def jvp(a, b, t):
        with tf.autodiff.ForwardAccumulator(a, t) as acc:
            y = tf.tanh(tf.matmul(a, b))
        return acc.jvp(y)
    jvp_traced = tf.function(jvp)
    spd = rng.standard_normal((64, 64))
    spd = spd @ spd.T + 64 * np.eye(64)
    spd_t = tf.constant(spd)

    def sqrtm_numpy():
        values, vectors = np.linalg.eigh(spd)
        return (vectors * np.sqrt(values)) @ vectors.T
    gamma_traced = tf.function(lambda: tf.random.gamma([100_000], 2.0, seed=1))
    sqrtm_traced = tf.function(lambda m: tf.linalg.sqrtm(m))
    sobol_traced = tf.function(lambda: tf.math.sobol_sample(16, 4096))
    return [
        ("jvp tanh(x@W) 256^2 (analytic)", jvp_numpy, lambda: jvp(x_t, w_t, v_t),
         lambda: jvp_traced(x_t, w_t, v_t), 20),
        ("random.gamma 100k (vs np gamma)", lambda: np.random.default_rng(1).gamma(2.0, size=100_000),
         lambda: tf.random.gamma([100_000], 2.0, seed=1), gamma_traced, 3),
        ("sqrtm 64x64 SPD (vs eigh)", sqrtm_numpy, lambda: tf.linalg.sqrtm(spd_t), lambda: sqrtm_traced(spd_t), 20),
        ("sobol_sample 4096x16 (vs uniform)*", lambda: np.random.default_rng(1).random((4096, 16)),
         lambda: tf.math.sobol_sample(16, 4096), sobol_traced, 5),
    ]


def main() -> None:
    print(f"{'op':32s} {'NumPy us':>10s} {'eager us':>10s} {'function us':>12s} {'eager/np':>9s} {'fn/np':>7s}")
    for name, numpy_fn, eager_fn, traced_fn, number in rows():
        base, eager, traced = (per_call_us(fn, number) for fn in (numpy_fn, eager_fn, traced_fn))
        print(f"{name:32s} {base:10.1f} {eager:10.1f} {traced:12.1f} {eager / base:9.2f} {traced / base:7.2f}")
    print("* the NumPy column of the hash row is Python's built-in hash (a different, C-speed hash), of the Bessel "
          "row NumPy's i0 (NumPy has no J0), of the Sobol row uniform draws (NumPy has no Sobol): scale only")


if __name__ == "__main__":
    main()
