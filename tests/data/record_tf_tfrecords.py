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

RECORDS = [b"", b"record one", bytes(range(256)) * 3, "héllo wörld".encode("utf-8")]
KINDS = {"none": None, "gzip": "GZIP", "zlib": "ZLIB"}


def example(lib, index: int):
    """The index-th example of the fixture, made with `lib` (TensorFlow or placeflow)."""
    return lib.train.Example(features=lib.train.Features(feature={
        "label": lib.train.Feature(int64_list=lib.train.Int64List(value=[index, -2 ** 40])),
        "score": lib.train.Feature(float_list=lib.train.FloatList(value=[0.5 * index, -1.25, 3.1][:index + 1])),
        "name": lib.train.Feature(bytes_list=lib.train.BytesList(value=[b"abc", "héllo".encode("utf-8")])),
    }))


def _examples(tf, here, placeflow) -> bool:
    """TF writes tf_written_examples.tfrecord; TF parses placeflow's serialized examples as its own."""
    with tf.io.TFRecordWriter(str(here / "fixtures" / "tf_written_examples.tfrecord")) as writer:
        for index in range(3):
            writer.write(example(tf, index).SerializeToString())
    ours = [example(placeflow, index).SerializeToString() for index in range(3)]
    theirs = [example(tf, index).SerializeToString() for index in range(3)]
    spec = {"label": tf.io.FixedLenFeature([2], tf.int64), "score": tf.io.VarLenFeature(tf.float32),
            "name": tf.io.FixedLenFeature([2], tf.string)}
    parsed_ours, parsed_theirs = tf.io.parse_example(ours, spec), tf.io.parse_example(theirs, spec)
    return all(tf.reduce_all(tf.sparse.to_dense(parsed_ours[k]) == tf.sparse.to_dense(parsed_theirs[k])).numpy()
               if isinstance(parsed_ours[k], tf.SparseTensor) else
               tf.reduce_all(parsed_ours[k] == parsed_theirs[k]).numpy() for k in spec)


def main() -> None:
    import tensorflow as tf
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
    examples_equal = _examples(tf, here, placeflow)
    (here / "tf_reads_tfrecords.json").write_text(json.dumps({"tensorflow": tf.__version__,
                                                              "tf_read_placeflow_files": read_back,
                                                              "tf_parsed_placeflow_examples": examples_equal},
                                                             indent=1) + "\n")
    print(f"TensorFlow {tf.__version__} read placeflow's files: {read_back}")


if __name__ == "__main__":
    main()
