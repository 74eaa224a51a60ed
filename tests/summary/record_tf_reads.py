"""Check that real TensorFlow reads the event files placeflow writes; records what it reads.

    (in a scratch venv with tensorflow)  python tests/summary/record_tf_reads.py
It runs summary_program.py with placeflow (from src/, in a child process without TensorFlow's help), reads
the file back with tf.compat.v1.train.summary_iterator and tf.make_ndarray, and writes tf_reads.json."""

import glob
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import tensorflow as tf

HERE = pathlib.Path(__file__).parent
logdir = tempfile.mkdtemp()
code = (f"import sys; sys.path[:0] = [{str(HERE.parents[1] / 'src')!r}, {str(HERE)!r}]; import placeflow; "
        f"import summary_program; summary_program.write_summaries(placeflow, {logdir!r})")
subprocess.run([os.environ.get("PLACEFLOW_PYTHON", "python3"), "-c", code], check=True)
read = []
for path in glob.glob(os.path.join(logdir, "events.out.tfevents.*")):
    for event in tf.compat.v1.train.summary_iterator(path):
        for value in event.summary.value:
            array = tf.make_ndarray(value.tensor)
            shown = [x.decode("latin-1") if isinstance(x, bytes) else x for x in array.reshape(-1).tolist()]
            read.append({"step": event.step, "tag": value.tag, "plugin": value.metadata.plugin_data.plugin_name,
                         "dtype": str(array.dtype), "shape": list(array.shape), "values": shown})
(HERE / "tf_reads.json").write_text(json.dumps({"tensorflow": tf.__version__, "values": read}, indent=1) + "\n")
print(f"TensorFlow {tf.__version__} read {len(read)} values")
