"""Seed 001: a TF1 graph run by a Session that logs the device mapping and each node's device.

On a GPU machine (or with simulated GPUs) MatMul and both constants land on GPU:0.
"""

import placeflow as tf

tf.compat.v1.disable_eager_execution()

# Creates a graph.
a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
b = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')
c = tf.matmul(a, b)
# Creates a session with log_device_placement set to True.
sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(log_device_placement=True))
# Runs the op.
print(sess.run(c))
