"""Seed 001: pinning to /device:GPU:2 fails when it does not exist; allow_soft_placement picks another device."""

import placeflow as tf

tf.compat.v1.disable_eager_execution()

# Creates a graph.
with tf.device('/device:GPU:2'):
    a = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3], name='a')
    b = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[3, 2], name='b')
    c = tf.matmul(a, b)
# Creates a session with log_device_placement set to True.
sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(log_device_placement=True))
try:
    print(sess.run(c))
except tf.errors.InvalidArgumentError as error:
    print(f"InvalidArgumentError: {error.message.splitlines()[0]}")

# Creates a session with allow_soft_placement and log_device_placement set to True.
sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(
      allow_soft_placement=True, log_device_placement=True))
# Runs the op.
print(sess.run(c))
