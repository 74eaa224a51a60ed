"""Checkpoint save and restore: placeflow's tf.train.Checkpoint, TensorFlow's (with --tensorflow-python, a python
that has it), and a raw baseline in the same run: NumPy writing the same arrays with `np.save` to one file each
and loading them back. Two shapes of model: a few large variables, and many small ones.

    .venv/bin/python benchmarks/checkpoint.py [--tensorflow-python /tmp/placeflow-tf-venv/bin/python]

Run it with the project's venv: without google-crc32c (a dependency) the CRC-32C of every tensor falls back to
a pure-Python table, about 100x slower on large tensors.
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
sys.path.insert(0, SRC)
MODELS = {"8 x 4M floats (128 MiB)": (8, 4 * 1024 * 1024), "2000 x 1K floats (8 MiB)": (2000, 1024)}

TIMING = """
import os, sys, time, tempfile
sys.path.insert(0, {src!r})
import numpy as np
import {lib} as tf
rng = np.random.default_rng(0)
variables = [tf.Variable(rng.standard_normal({size}, dtype=np.float32)) for _ in range({count})]
checkpoint = tf.train.Checkpoint(variables=variables)
prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
checkpoint.write(prefix)  # warm-up
best_save = best_restore = float("inf")
for _ in range(3):
    start = time.perf_counter(); checkpoint.write(prefix); best_save = min(best_save, time.perf_counter() - start)
    start = time.perf_counter(); checkpoint.read(prefix).assert_consumed()
    best_restore = min(best_restore, time.perf_counter() - start)
print(best_save, best_restore)
"""


def timed(python: str, lib: str, count: int, size: int) -> tuple:
    code = TIMING.format(src=SRC, lib=lib, size=size, count=count)
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PLACEFLOW_DISABLE_CUDA="1"))
    return tuple(float(v) for v in out.stdout.split()[-2:])


def raw_baseline(count: int, size: int) -> tuple:
    import numpy as np
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(size, dtype=np.float32) for _ in range(count)]
    directory = tempfile.mkdtemp()
    best_save = best_load = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for i, array in enumerate(arrays):
            np.save(os.path.join(directory, f"{i}.npy"), array)
        best_save = min(best_save, time.perf_counter() - start)
        start = time.perf_counter()
        loaded = [np.load(os.path.join(directory, f"{i}.npy")) for i in range(count)]
        best_load = min(best_load, time.perf_counter() - start)
        assert len(loaded) == count
    return best_save, best_load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tensorflow-python", help="a python with TensorFlow installed, to time it too")
    args = parser.parse_args()
    print(f"{'model':26s} {'system':26s} {'save s':>8s} {'ratio':>6s} {'restore s':>10s} {'ratio':>6s}")
    for label, (count, size) in MODELS.items():
        base = raw_baseline(count, size)
        rows = [("raw NumPy (np.save/np.load)", base), ("placeflow", timed(sys.executable, "placeflow", count, size))]
        if args.tensorflow_python:
            rows.append(("TensorFlow", timed(args.tensorflow_python, "tensorflow", count, size)))
        for system, (save, restore) in rows:
            print(f"{label:26s} {system:26s} {save:8.3f} {save / base[0]:6.2f} {restore:10.3f} "
                  f"{restore / base[1]:6.2f}")


if __name__ == "__main__":
    main()
