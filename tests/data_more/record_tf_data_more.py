"""Record TensorFlow 2.21's results for the tf.data.experimental additions (run with the TF venv from the repository
root): /tmp/placeflow-tf-venv/bin/python tests/data_more/record_tf_data_more.py --with-placeflow
(writes tests/data_more/tf_2_21.json and the fixture fixtures/tf_saved_range, a directory TF's Dataset.save wrote).

It also has TF read back the TFRecord files placeflow's TFRecordWriter writes (placeflow imported from src/ beside
TensorFlow: it needs only NumPy), recorded as "tf_reads_placeflow".
Every case runs a second time with tests.traced_api.traced(tf) (each tf function inside tf.function), but
those in cases.TRACED_EXCLUDED: tf_2_21_traced.json."""

import json
import os
import pathlib
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import tensorflow as tf  # noqa: E402

from tests.data_more.cases import CASES, TRACED_EXCLUDED, elements  # noqa: E402
from tests.traced_api import record_traced  # noqa: E402


def tf_reads_placeflow():
    """{compression: the records TF reads from a file placeflow's experimental.TFRecordWriter wrote}."""
    sys.path.insert(0, str(ROOT / "src"))
    import placeflow  # noqa: E402 - placeflow is pure Python over NumPy
    directory, out = tempfile.mkdtemp(), {}
    for compression in ("", "GZIP", "ZLIB"):
        path = os.path.join(directory, f"placeflow-{compression}.tfrecord")
        records = placeflow.data.Dataset.from_tensor_slices([b"first", b"", b"\x00\xff third"])
        placeflow.data.experimental.TFRecordWriter(path, compression).write(records)
        out[compression or "none"] = elements(tf.data.TFRecordDataset(path, compression_type=compression))
    return out


def tf_saved_fixture():
    """A directory TF's Dataset.save writes (its snapshot format), which placeflow must refuse by name."""
    import shutil
    target = pathlib.Path(__file__).with_name("fixtures") / "tf_saved_range"
    shutil.rmtree(target, ignore_errors=True)
    tf.data.Dataset.range(3).save(str(target))


tf_saved_fixture()  # before the cases: the last one turns TF's debug mode on, which breaks Dataset.save
results = {name: fn(tf) for name, fn in CASES.items()}
out = pathlib.Path(__file__).with_name("tf_2_21.json")
out.write_text(json.dumps({"tensorflow": tf.__version__, "cases": results,
                           "tf_reads_placeflow": tf_reads_placeflow() if "--with-placeflow" in sys.argv else None},
                          indent=1) + "\n")
print(f"recorded {len(results)} cases from TensorFlow {tf.__version__} into {out}")
record_traced(tf, CASES, TRACED_EXCLUDED, out.with_name("tf_2_21_traced.json"))
