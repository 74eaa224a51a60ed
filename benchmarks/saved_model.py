"""SavedModel save and load of an MLP module (4 Dense layers of 1024, a traced __call__ with a signature):
placeflow's tf.saved_model, TensorFlow's (with --tensorflow-python, a python that has it), and a raw baseline
in the same run: NumPy writing the weights with `np.savez` and loading them back (no functions at all), then
the first call of the loaded function.

    PYTHONPATH=src .venv/bin/python benchmarks/saved_model.py [--tensorflow-python /tmp/placeflow-tf-venv/bin/python]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")

TIMING = """
import os, sys, time, tempfile, shutil
sys.path.insert(0, {src!r})
import numpy as np
import {lib} as tf
rng = np.random.default_rng(0)
class MLP(tf.Module):
    def __init__(self):
        super().__init__()
        self.weights = [tf.Variable(rng.standard_normal((1024, 1024), dtype=np.float32) * 0.01) for _ in range(4)]
    @tf.function(input_signature=[tf.TensorSpec([None, 1024], tf.float32)])
    def __call__(self, x):
        for w in self.weights:
            x = tf.nn.relu(tf.matmul(x, w))
        return x
model = MLP()
x = tf.ones([8, 1024])
model(x)
best_save = best_load = best_call = float("inf")
for _ in range(3):
    path = tempfile.mkdtemp()
    start = time.perf_counter(); tf.saved_model.save(model, path); best_save = min(best_save, time.perf_counter() - start)
    start = time.perf_counter(); loaded = tf.saved_model.load(path); best_load = min(best_load, time.perf_counter() - start)
    start = time.perf_counter(); loaded(x).numpy(); best_call = min(best_call, time.perf_counter() - start)
    shutil.rmtree(path)
print(best_save, best_load, best_call)
"""


def timed(python: str, lib: str) -> tuple:
    out = subprocess.run([python, "-c", TIMING.format(src=SRC, lib=lib)], capture_output=True, text=True, check=True,
                         env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PLACEFLOW_DISABLE_CUDA="1"))
    return tuple(float(v) for v in out.stdout.split()[-3:])


def raw_baseline() -> tuple:
    import numpy as np
    rng = np.random.default_rng(0)
    weights = [rng.standard_normal((1024, 1024), dtype=np.float32) * 0.01 for _ in range(4)]
    x = np.ones((8, 1024), np.float32)
    best_save = best_load = best_call = float("inf")
    for _ in range(3):
        path = os.path.join(tempfile.mkdtemp(), "w.npz")
        start = time.perf_counter()
        np.savez(path, *weights)
        best_save = min(best_save, time.perf_counter() - start)
        start = time.perf_counter()
        with np.load(path) as archive:
            loaded = [archive[name] for name in archive.files]
        best_load = min(best_load, time.perf_counter() - start)
        start = time.perf_counter()
        y = x
        for w in loaded:
            y = np.maximum(y @ w, 0)
        best_call = min(best_call, time.perf_counter() - start)
    return best_save, best_load, best_call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tensorflow-python", help="a python with TensorFlow, to time its SavedModel too")
    args = parser.parse_args()
    rows = [("raw NumPy (np.savez/np.load, a matmul loop)", raw_baseline()),
            ("placeflow", timed(sys.executable, "placeflow"))]
    if args.tensorflow_python:
        rows.append(("TensorFlow", timed(args.tensorflow_python, "tensorflow")))
    base = rows[0][1]
    print("MLP 4 x 1024x1024 (16 MiB)                   save s  ratio   load s  ratio  1st call s  ratio")
    for name, (save, load, call) in rows:
        print(f"{name:44s} {save:7.3f} {save / base[0]:6.2f}  {load:7.3f} {load / base[1]:6.2f}  {call:10.4f} "
              f"{call / base[2]:6.2f}")


if __name__ == "__main__":
    main()
