"""Seed 004: pick '/gpu:0' if a GPU is available, else '/cpu:0', and run a graph there with allow_growth."""

import placeflow as tf

tf.compat.v1.disable_eager_execution()

if tf.test.is_gpu_available() == True: processor = '/gpu:0'  # noqa: E712 - the seed's spelling
else: processor = '/cpu:0'
with tf.device(processor):
    x = tf.compat.v1.placeholder(tf.float32, shape=[None, 3], name="x")
    y = tf.reduce_sum(x * 2.0, axis=1)

config = tf.compat.v1.ConfigProto()
config.gpu_options.allow_growth = True
config.log_device_placement = True
with tf.compat.v1.Session(config=config) as session:
    print(processor, session.run(y, feed_dict={x: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]}))
