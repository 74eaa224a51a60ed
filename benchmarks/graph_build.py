"""What recording each op's creation frames (for TensorFlow's `Graph execution error` layout) costs a trace.

    PYTHONPATH=src python3 benchmarks/graph_build.py [--tensorflow-python /path/to/tf-venv/bin/python]

Traces a `function` of N elementwise ops, called from a stack D frames deep (Keras's training loop puts
a trace 30-60 frames deep), with the frames recorded (placeflow as shipped) and with recording switched
off in the same run; and, as the scale, N raw NumPy ops on 8x8 arrays; with --tensorflow-python, TensorFlow
tracing the same function 5 frames deep (TF records every op's frames too). Prints microseconds per op.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time

import numpy as np

import placeflow as tf
from placeflow.graph import graph as graph_module

OPS = 1000


def chain(x):
    """OPS alternating multiplies and adds."""
    for i in range(OPS // 2):
        x = x * 1.0001 + 0.5
    return x


def trace_us_per_op(depth: int) -> float:
    """Median microseconds per op of tracing `chain` (a fresh function each time) from `depth` frames down."""
    def nested(level):
        if level:
            return nested(level - 1)
        start = time.perf_counter()
        tf.function(chain).get_concrete_function(tf.TensorSpec([8, 8], tf.float32))
        return time.perf_counter() - start
    return statistics.median(nested(depth) for _ in range(7)) / OPS * 1e6


def numpy_us_per_op() -> float:
    """Median microseconds per raw NumPy op on 8x8 float32."""
    x = np.ones((8, 8), np.float32)
    def run():
        y = x
        start = time.perf_counter()
        for i in range(OPS // 2):
            y = y * np.float32(1.0001) + np.float32(0.5)
        return time.perf_counter() - start
    return statistics.median(run() for _ in range(7)) / OPS * 1e6


TF_TRACE = """
import statistics, time
import tensorflow as tf
def chain(x):
    for i in range({ops} // 2):
        x = x * 1.0001 + 0.5
    return x
def nested(level):
    if level:
        return nested(level - 1)
    start = time.perf_counter()
    tf.function(chain).get_concrete_function(tf.TensorSpec([8, 8], tf.float32))
    return time.perf_counter() - start
print(statistics.median(nested(5) for _ in range(7)) / {ops} * 1e6)
"""


def tensorflow_us_per_op(python: str) -> float:
    """TensorFlow's median microseconds per op tracing the same function, in its own process."""
    out = subprocess.run([python, "-c", TF_TRACE.format(ops=OPS)], capture_output=True, text=True, check=True,
                         env={"TF_CPP_MIN_LOG_LEVEL": "3", "PATH": "/usr/bin:/bin"})
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tensorflow-python", help="a Python with tensorflow-cpu==2.21.0 installed")
    args = parser.parse_args()
    recording = graph_module.user_frames
    print(f"tracing a {OPS}-op function           us/op   ratio to NumPy op")
    numpy_us = numpy_us_per_op()
    print(f"{'raw NumPy op (8x8), the scale':38s}{numpy_us:7.2f}    1.00")
    for depth in (5, 40):
        with_frames = trace_us_per_op(depth)
        graph_module.user_frames = tuple
        try:
            without = trace_us_per_op(depth)
        finally:
            graph_module.user_frames = recording
        print(f"{f'trace, {depth} frames deep, frames recorded':38s}{with_frames:7.2f}  {with_frames / numpy_us:6.2f}")
        print(f"{f'trace, {depth} frames deep, not recorded':38s}{without:7.2f}  {without / numpy_us:6.2f}"
              f"   (recording: {with_frames / without:.2f}x)")
    if args.tensorflow_python:
        theirs = tensorflow_us_per_op(args.tensorflow_python)
        print(f"{'TensorFlow trace, 5 frames deep':38s}{theirs:7.2f}  {theirs / numpy_us:6.2f}")


if __name__ == "__main__":
    main()
