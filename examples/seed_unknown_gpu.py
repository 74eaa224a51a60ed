"""Seeds 000 and 002, "Using a single GPU on a multi-GPU system": a GPU that does not exist.

Without soft placement the request fails with TensorFlow's text; with it (TensorFlow 2's
default) the op falls back to a device that exists, and the fallback is logged once.
"""
import placeflow as tf

tf.config.set_soft_device_placement(False)
tf.debugging.set_log_device_placement(True)

try:
  # Specify an invalid GPU device
  with tf.device('/device:GPU:7'):
    a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    c = tf.matmul(a, b)
except RuntimeError as e:
  print(e)
except tf.errors.InvalidArgumentError as e:
  print(e)

tf.config.set_soft_device_placement(True)
tf.debugging.set_log_device_placement(True)

# Creates some tensors
with tf.device('/device:GPU:7'):
  a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
  b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
  c = tf.matmul(a, b)

print(c)
