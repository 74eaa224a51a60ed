"""TFRecord files interchangeable with TensorFlow 2.21 both ways. Run in the scratch venv that has TensorFlow:

    PYTHONPATH=src /tmp/placeflow-tf-venv/bin/python tests/data/record_tf_tfrecords.py

1. TensorFlow writes tests/data/fixtures/tf_written_{none,gzip,zlib}.tfrecord (placeflow's tests read them);
2. placeflow (imported from src/ in the same venv) writes the same records, and TensorFlow reads them back:
   what it read is recorded in tests/data/tf_reads_tfrecords.json (tests/data/test_tfrecord.py checks it)."""

import json
import os
import pathlib
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

RECORDS = [b"", b"record one", bytes(range(256)) * 3, "héllo wörld".encode("utf-8")]
KINDS = {"none": None, "gzip": "GZIP", "zlib": "ZLIB"}


def main() -> None:
    here = pathlib.Path(__file__).resolve().parent
    for kind, compression in KINDS.items():
        with tf.io.TFRecordWriter(str(here / "fixtures" / f"tf_written_{kind}.tfrecord"), compression) as writer:
            for item in RECORDS:
                writer.write(item)
    import placeflow
    read_back = {}
    with tempfile.TemporaryDirectory() as folder:
        for kind, compression in KINDS.items():
            path = os.path.join(folder, f"placeflow_{kind}.tfrecord")
            with placeflow.io.TFRecordWriter(path, compression) as writer:
                for item in RECORDS:
                    writer.write(item)
            read = [bytes(r.numpy()) for r in tf.data.TFRecordDataset(path, compression_type=compression)]
            read_back[kind] = read == RECORDS
    (here / "tf_reads_tfrecords.json").write_text(json.dumps({"tensorflow": tf.__version__,
                                                              "tf_read_placeflow_files": read_back}, indent=1) + "\n")
    print(f"TensorFlow {tf.__version__} read placeflow's files: {read_back}")


if __name__ == "__main__":
    main()
