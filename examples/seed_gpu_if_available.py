"""Seed 004: use the GPU if one is available, else the CPU; list the local devices."""
import placeflow as tf
from placeflow.python.client import device_lib

if tf.test.is_gpu_available() == True: processor = '/gpu:0'
else : processor = '/cpu:0'
with tf.device(processor):
  x = tf.random.uniform([2, 2], seed=1)
  y = tf.matmul(x, x)
print(processor, y.device)
print([d.name for d in device_lib.list_local_devices()])
