"""TensorFlow's `tensorflow.python.ops.linalg` import path (Keras 3 imports its sparse module)."""
