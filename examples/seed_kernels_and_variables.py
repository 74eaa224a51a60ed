"""Seeds 002 and 003: ops without a GPU kernel fall back to the CPU; device functions place ops.

Seed 003's device function works in eager mode here too (TensorFlow 2 refuses it).
"""
import placeflow as tf

tf.debugging.set_log_device_placement(True)

# Seed 003: a variable pinned to the CPU, the multiplication on the default device (GPU:0).
with tf.device("/cpu:0"):
  a = tf.Variable(3.0)
  b = tf.constant(4.0)
c = a * b
print(c)

# Seed 003: integer variables have no GPU kernel; with soft placement the variable lands on the CPU.
with tf.device("/gpu:0"):
  i = tf.Variable(3)
print(i.device)

# Seed 002: tf.cast has only a CPU kernel, so it runs on CPU:0 even when asked for GPU:0.
with tf.device("/GPU:0"):
  x = tf.cast(tf.constant([1, 2, 3]), tf.float32)
print(x.device)
print(tf.config.experimental.list_kernels("Cast"))

# Seed 003: a device function pinning variables to the CPU and everything else to the GPU.
def variables_on_cpu(op):
  if op.type == "VarHandleOp":
    return "/cpu:0"
  else:
    return "/gpu:0"

with tf.device(variables_on_cpu):
  v = tf.Variable(3.0)
  w = tf.constant(4.0)
print(v.device, w.device)
