"""TFRecord write and read of 100k small records: placeflow, TensorFlow (with --tensorflow-python, a python that
has it), and a raw baseline in the same run: Python writing the same framed bytes (with google-crc32c's CRCs)
to one file and reading them back by slicing.

    PYTHONPATH=src python3 benchmarks/tfrecord.py [--tensorflow-python /tmp/placeflow-tf-venv/bin/python]

A second table times tf.io.parse_example over batches of serialized tf.train.Examples, against the same host
decoding without tensors (the scale) and TensorFlow's parse_example.
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


EXAMPLES, BATCH = 10_000, 256

PARSE_TIMING = """
import sys, time
sys.path.insert(0, {src!r})
import numpy as np
import {lib} as tf
def example(i):
    return tf.train.Example(features=tf.train.Features(feature={{
        "ids": tf.train.Feature(int64_list=tf.train.Int64List(value=[i, i + 1, i + 2, i + 3])),
        "values": tf.train.Feature(float_list=tf.train.FloatList(value=[float(i) / (j + 1) for j in range(8)])),
        "label": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"class-%d" % (i % 10)]))}})).SerializeToString()
records = [example(i) for i in range({count})]
spec = {{"ids": tf.io.FixedLenFeature([4], tf.int64), "values": tf.io.FixedLenFeature([8], tf.float32),
        "label": tf.io.FixedLenFeature([], tf.string)}}
batches = [tf.constant(records[i:i + {batch}]) for i in range(0, len(records), {batch})]
best = float("inf")
for _ in range(3):
    start = time.perf_counter()
    for batch in batches:
        parsed = tf.io.parse_example(batch, spec)
    best = min(best, time.perf_counter() - start)
assert parsed["ids"].shape[1] == 4
print(best)
"""


def parse_timed(python: str, lib: str) -> float:
    code = PARSE_TIMING.format(src=SRC, lib=lib, count=EXAMPLES, batch=BATCH)
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PLACEFLOW_DISABLE_CUDA="1"))
    return float(out.stdout.split()[-1])


def parse_baseline() -> float:
    """The same batches decoded on the host with placeflow's wire-format reader and stacked by NumPy, without
    tensors: the cost of decoding the protocol buffers alone."""
    import numpy as np

    from placeflow.api.example_proto import BytesList, Example, Feature, Features, FloatList, Int64List
    records = [Example(features=Features(feature={
        "ids": Feature(int64_list=Int64List(value=[i, i + 1, i + 2, i + 3])),
        "values": Feature(float_list=FloatList(value=[float(i) / (j + 1) for j in range(8)])),
        "label": Feature(bytes_list=BytesList(value=[b"class-%d" % (i % 10)]))})).SerializeToString()
        for i in range(EXAMPLES)]
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for first in range(0, len(records), BATCH):
            parsed = [Example.FromString(r).features.feature for r in records[first:first + BATCH]]
            np.stack([np.asarray(f["ids"].int64_list.value, np.int64) for f in parsed])
            np.stack([np.asarray(f["values"].float_list.value, np.float32) for f in parsed])
            np.asarray([f["label"].bytes_list.value[0] for f in parsed], dtype=object)
        best = min(best, time.perf_counter() - start)
    return best


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
    parse_rows = [("host decode (no tensors), the scale", parse_baseline()),
                  ("placeflow parse_example", parse_timed(sys.executable, "placeflow"))]
    if args.tensorflow_python:
        parse_rows.append(("TensorFlow parse_example", parse_timed(args.tensorflow_python, "tensorflow")))
    print(f"\nparse_example, {EXAMPLES} Examples (4 int64, 8 floats, 1 string) in batches of {BATCH}")
    print(f"{'':40s} {'seconds':>8s} {'ratio':>6s}")
    for name, seconds in parse_rows:
        print(f"{name:40s} {seconds:8.3f} {seconds / parse_rows[0][1]:6.2f}")


if __name__ == "__main__":
    main()
