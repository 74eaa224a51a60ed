"""TensorFlow's `tensorflow.python` import path, for the code (Keras 3 among it) that imports it."""
