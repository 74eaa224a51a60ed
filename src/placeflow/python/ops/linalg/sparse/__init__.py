"""TensorFlow's `tensorflow.python.ops.linalg.sparse` import path."""
