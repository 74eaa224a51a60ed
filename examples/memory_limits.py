"""Seed 002's two logical GPUs of 1024 MB on one GPU: each refuses 1.5 GB and takes 0.5 GB; the bytes
come back when tensors die. Run with CUDA_VISIBLE_DEVICES=0 (a real GPU) or simulated GPUs."""
import placeflow as tf

gpus = tf.config.list_physical_devices('GPU')
tf.config.set_logical_device_configuration(
    gpus[0],
    [tf.config.LogicalDeviceConfiguration(memory_limit=1024),
     tf.config.LogicalDeviceConfiguration(memory_limit=1024)])

for gpu in tf.config.list_logical_devices('GPU'):
  with tf.device(gpu.name):
    try:
      too_big = tf.zeros([384, 1024, 1024])  # 1.5 GiB of float32
    except tf.errors.ResourceExhaustedError as e:
      print(str(e).splitlines()[0])
    half = tf.zeros([128, 1024, 1024])  # 0.5 GiB
    print(gpu.name, tf.config.experimental.get_memory_info(gpu.name[len('/device:'):]))

print(tf.experimental.memory_summary())
del half
print('after del:', tf.config.experimental.get_memory_info('GPU:1'))
