"""What placeflow writes for TensorFlow to read (record_tf_misc_names.py) and for test_misc_names.py to decode:
an event file with audio, graph, trace_export and write_raw_pb summaries, and a SavedModel with its fingerprint."""

import json
import os

import numpy as np

RAW_SUMMARY = b"\n\n\n\x03raw\x15\x00\x00\xc0?"  # Summary(value=[Value(tag='raw', simple_value=1.5)])
CLIPS = (np.sin(np.arange(2 * 6 * 2).reshape(2, 6, 2) / 3.0) * 0.9).astype(np.float32)


def write(tf, out):
    """Write the event file into out/logs and the SavedModel into out/model (its fingerprint, as placeflow reads
    it, into out/placeflow_fingerprint.json)."""
    @tf.function
    def f(x):
        return tf.nn.relu(x) * 2.0

    writer = tf.summary.create_file_writer(os.path.join(out, "logs"))
    with writer.as_default(step=3):
        tf.summary.audio("clips", CLIPS, 8000, max_outputs=1)
        tf.summary.audio("both", CLIPS, 16000, step=4)
        tf.summary.graph(f.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph)
        tf.summary.trace_on(graph=True)
        f(tf.constant([1.0, -1.0]))
        tf.summary.trace_export("trace", step=5)
        tf.summary.experimental.write_raw_pb(tf.constant([RAW_SUMMARY]), step=7)
    writer.close()
    module = tf.Module()
    module.v = tf.Variable([1.0, 2.0])
    module.f = tf.function(lambda x: x * module.v, input_signature=[tf.TensorSpec([2], tf.float32)])
    tf.saved_model.save(module, os.path.join(out, "model"))
    fp = tf.saved_model.experimental.read_fingerprint(os.path.join(out, "model"))
    with open(os.path.join(out, "placeflow_fingerprint.json"), "w") as file:
        json.dump([fp.saved_model_checksum, fp.graph_def_program_hash, fp.signature_def_hash,
                   fp.saved_object_graph_hash, fp.checkpoint_hash, fp.version], file)
