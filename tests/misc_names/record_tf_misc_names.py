"""Record TensorFlow 2.21's results for the misc-names additions (run with the TF venv from the repository root):
/tmp/placeflow-tf-venv/bin/python tests/misc_names/record_tf_misc_names.py   (writes tests/misc_names/tf_2_21.json)

It also runs write_program.py with placeflow (from src/, in a child process: PLACEFLOW_PYTHON, default
.venv/bin/python) and records what TensorFlow reads back from the files placeflow wrote: the event file
(audio, graph, trace_export, write_raw_pb summaries) and the SavedModel's fingerprint.pb.
Every case runs a second time with tests.traced_api.traced(tf) (each tf function inside tf.function), but
those in cases.TRACED_EXCLUDED: tf_2_21_traced.json."""

import glob
import json
import os
import pathlib
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import tensorflow as tf  # noqa: E402
from tensorflow.core.protobuf import config_pb2  # noqa: E402

from tests.misc_names.cases import CASES, TRACED_EXCLUDED  # noqa: E402
from tests.traced_api import record_traced  # noqa: E402


def read_events(logdir) -> list:
    """What TensorFlow reads from placeflow's event file: one entry per graph or summary value."""
    read = []
    for path in glob.glob(os.path.join(logdir, "events.out.tfevents.*")):
        for event in tf.compat.v1.train.summary_iterator(path):
            if event.HasField("graph_def"):
                graph = tf.compat.v1.GraphDef.FromString(event.graph_def)
                read.append({"step": event.step, "graph": [[n.name, n.op, list(n.input), sorted(n.attr)]
                                                           for n in graph.node]})
            for value in event.summary.value:
                read.append(_value(event.step, value))
    return read


def _value(step, value) -> dict:
    entry = {"step": step, "tag": value.tag, "plugin": value.metadata.plugin_data.plugin_name,
             "content": value.metadata.plugin_data.content.hex(), "data_class": value.metadata.data_class,
             "kind": value.WhichOneof("value")}
    if entry["kind"] == "simple_value":
        entry["simple_value"] = value.simple_value
    elif entry["plugin"] == "audio":
        table = tf.make_ndarray(value.tensor)
        decoded = [tf.audio.decode_wav(row[0]) for row in table]
        entry["audio"] = [[round(float(x), 6) for x in d.audio.numpy().reshape(-1)] + [int(d.sample_rate)]
                          for d in decoded]
        entry["labels"] = [row[1].decode() for row in table]
    elif entry["plugin"] == "graph_run_metadata_graph":
        run = config_pb2.RunMetadata.FromString(tf.make_ndarray(value.tensor).item())
        entry["function_graphs"] = [[[n.name, n.op, list(n.input)] for n in g.pre_optimization_graph.node]
                                    for g in run.function_graphs]
    return entry


def read_placeflow_files() -> dict:
    """Run write_program.py with placeflow and read back what it wrote."""
    out = tempfile.mkdtemp()
    python = os.environ.get("PLACEFLOW_PYTHON", str(ROOT / ".venv" / "bin" / "python"))
    code = (f"import sys; sys.path[:0] = [{str(ROOT / 'src')!r}, {str(ROOT)!r}]; import placeflow; "
            f"from tests.misc_names import write_program; write_program.write(placeflow, {out!r})")
    subprocess.run([python, "-c", code], check=True, env=dict(os.environ, PYTHONPATH=""))
    fingerprint = tf.saved_model.experimental.read_fingerprint(os.path.join(out, "model"))
    ours = json.loads(pathlib.Path(out, "placeflow_fingerprint.json").read_text())
    theirs = [fingerprint.saved_model_checksum, fingerprint.graph_def_program_hash, fingerprint.signature_def_hash,
              fingerprint.saved_object_graph_hash, fingerprint.checkpoint_hash, fingerprint.version.producer]
    assert theirs == ours, f"TensorFlow read {theirs}, placeflow {ours}"
    return {"events": read_events(os.path.join(out, "logs")), "fingerprint_version": fingerprint.version.producer,
            "fingerprint_fields_set": [bool(v) for v in theirs]}


results = {name: fn(tf) for name, fn in CASES.items()}
target = pathlib.Path(__file__).with_name("tf_2_21.json")
target.write_text(json.dumps({"tensorflow": tf.__version__, "cases": results, "reads": read_placeflow_files()},
                             indent=1) + "\n")
print(f"recorded {len(results)} cases and placeflow's files from TensorFlow {tf.__version__} into {target}")
record_traced(tf, CASES, TRACED_EXCLUDED, target.with_name("tf_2_21_traced.json"))
