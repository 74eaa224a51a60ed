"""TFRecord write and read of 100k small records: placeflow, TensorFlow (with --tensorflow-python, a python that
has it), and a raw baseline in the same run: Python writing the same framed bytes (with google-crc32c's CRCs)
to one file and reading them back by slicing.

    PYTHONPATH=src python3 benchmarks/tfrecord.py [--tensorflow-python /tmp/placeflow-tf-venv/bin/python]
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
COUNT, SIZE = 100_000, 64

TIMING = """
import os, sys, time, tempfile
sys.path.insert(0, {src!r})
import {lib} as tf
records = [bytes([i % 251]) * {size} for i in range({count})]
path = os.path.join(tempfile.mkdtemp(), "bench.tfrecord")
start = time.perf_counter()
with tf.io.TFRecordWriter(path) as writer:
    for item in records:
        writer.write(item)
written = time.perf_counter() - start
start = time.perf_counter()
count = sum(1 for _ in tf.data.TFRecordDataset(path))
read = time.perf_counter() - start
assert count == {count}
print(written, read)
"""


def timed(python: str, lib: str) -> tuple:
    code = TIMING.format(src=SRC, lib=lib, size=SIZE, count=COUNT)
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PLACEFLOW_DISABLE_CUDA="1"))
    written, read = (float(v) for v in out.stdout.split()[-2:])
    return written, read


def raw_baseline() -> tuple:
    from placeflow.framework.record_framing import record
    records = [bytes([i % 251]) * SIZE for i in range(COUNT)]
    path = os.path.join(tempfile.mkdtemp(), "raw.bin")
    start = time.perf_counter()
    with open(path, "wb") as handle:
        for item in records:
            handle.write(record(item))
    written = time.perf_counter() - start
    start = time.perf_counter()
    data, offset, count = Path(path).read_bytes(), 0, 0
    while offset < len(data):
        length = int.from_bytes(data[offset:offset + 8], "little")
        _ = data[offset + 12:offset + 12 + length]
        offset += 16 + length
        count += 1
    return written, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tensorflow-python")
    args = parser.parse_args()
    rows = [("raw Python (framing + CRC, no checks)", raw_baseline()), ("placeflow", timed(sys.executable, "placeflow"))]
    if args.tensorflow_python:
        rows.append(("TensorFlow", timed(args.tensorflow_python, "tensorflow")))
    base_write, base_read = rows[0][1]
    print(f"TFRecord, {COUNT} records of {SIZE} bytes, one file")
    print(f"{'':40s} {'write s':>8s} {'ratio':>6s} {'read s':>8s} {'ratio':>6s}")
    for name, (written, read) in rows:
        print(f"{name:40s} {written:8.3f} {written / base_write:6.2f} {read:8.3f} {read / base_read:6.2f}")


if __name__ == "__main__":
    main()
