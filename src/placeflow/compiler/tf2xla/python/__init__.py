"""TensorFlow's `tensorflow.compiler` import path, for Keras 3's TensorFlow backend."""
