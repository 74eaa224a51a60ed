"""Seeds 000 and 002, "Manual device placement": constants pinned to the CPU, MatMul on the GPU."""
import placeflow as tf

tf.debugging.set_log_device_placement(True)

# Place tensors on the CPU
with tf.device('/CPU:0'):
  a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
  b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])

# Run on the GPU
c = tf.matmul(a, b)
print(c)
print(tf.experimental.placement_report())
