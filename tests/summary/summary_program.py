"""The summaries both sides write: placeflow in test_summary.py, and record_tf_reads.py reads them with TF."""

import numpy as np


def write_summaries(tf, logdir):
    """Scalars at steps 0-2, a text, a histogram, an image and a raw tensor, through the default-writer API."""
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default():
        for step in range(3):
            tf.summary.scalar("loss", 1.0 / (step + 1), step=step)
        tf.summary.experimental.set_step(5)
        tf.summary.text("note", "hello", step=5)
        tf.summary.histogram("weights", np.arange(10.0), buckets=4)
        tf.summary.image("picture", (np.arange(2 * 3 * 4 * 3).reshape(2, 3, 4, 3) % 256).astype(np.uint8), step=6)
        tf.summary.write("raw", np.array([[1, 2], [3, 4]], np.int32), step=7)
        with tf.summary.record_if(False):
            tf.summary.scalar("skipped", 0.0, step=8)
    writer.close()
