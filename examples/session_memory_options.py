"""Seeds 001, 003, 004: GPU memory options of a Session's ConfigProto (allow_growth, a 40% fraction).

Memory options are process-wide and freeze when the runtime starts: the first Session's config wins,
so this script shows each option in its own process.
"""

import subprocess
import sys

GROWTH = """
import placeflow as tf
config = tf.compat.v1.ConfigProto()
config.gpu_options.allow_growth = True
session = tf.compat.v1.Session(config=config)
stats = tf.config.experimental.memory_stats("GPU:0")
print("allow_growth: reserved", stats["bytes_reserved"], "bytes of a", stats["bytes_limit"] >> 20, "MiB limit")
"""

FRACTION = """
import placeflow as tf
config = tf.compat.v1.ConfigProto()
config.gpu_options.per_process_gpu_memory_fraction = 0.4
session = tf.compat.v1.Session(config=config)
stats = tf.config.experimental.memory_stats("GPU:0")
print("per_process_gpu_memory_fraction=0.4: limit", stats["bytes_limit"] >> 20, "MiB")
"""

for program in (GROWTH, FRACTION):
    subprocess.run([sys.executable, "-c", program], check=True)
