"""Device names: every spelling TensorFlow accepts parses to one DeviceSpec."""
import placeflow as tf

for name in ['/cpu:0', '/CPU:0', '/device:GPU:1', '/GPU:0', 'GPU:0', 'gpu',
             '/job:localhost/replica:0/task:0/device:GPU:1', '/job:worker/task:3', '/device:CPU:*']:
  print(f"{name!r:48} -> {tf.DeviceSpec.from_string(name).to_string()!r}")

spec = tf.DeviceSpec.from_string('/job:foo/replica:0')
print(spec.make_merged_spec(tf.DeviceSpec.from_string('/task:1/device:GPU:2')).to_string())

try:
  tf.DeviceSpec.from_string('/devcie:GPU:0')
except ValueError as e:
  print(e)
