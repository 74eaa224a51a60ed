"""Seed 000 (TF 2.0 alpha API) and seeds 001/004 (GPUOptions): bound the memory each GPU may use."""
import placeflow as tf

# Seed 000: 40% of every visible GPU, grown on demand.
tf.config.gpu.set_per_process_memory_growth()
tf.config.gpu.set_per_process_memory_fraction(0.4)
# Seeds 001 and 004 say the same through a ConfigProto (given to a Session there, to eager here).
config = tf.compat.v1.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.per_process_gpu_memory_fraction = 0.4
tf.compat.v1.enable_eager_execution(config=config)

x = tf.ones([1024, 1024])
stats = tf.config.experimental.memory_stats('GPU:0')
print('limit:', stats['bytes_limit'] >> 20, 'MB; reserved:', stats['bytes_reserved'] >> 20, 'MB; in use:',
      stats['bytes_in_use'] >> 20, 'MB')
