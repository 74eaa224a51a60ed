"""Seed 002: turn on memory growth for every GPU, then show it is frozen after initialization."""
import placeflow as tf

gpus = tf.config.list_physical_devices('GPU')
if gpus:
  try:
    # Currently, memory growth needs to be the same across GPUs
    for gpu in gpus:
      tf.config.experimental.set_memory_growth(gpu, True)
    logical_gpus = tf.config.list_logical_devices('GPU')
    print(len(gpus), "Physical GPUs,", len(logical_gpus), "Logical GPUs")
  except RuntimeError as e:
    # Memory growth must be set before GPUs have been initialized
    print(e)

# The runtime is initialized now: a late change fails, and says where initialization happened.
try:
  tf.config.experimental.set_memory_growth(gpus[0], False)
except (RuntimeError, IndexError) as e:
  print(e)
