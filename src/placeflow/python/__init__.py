"""TensorFlow's `tensorflow.python` import paths that user code relies on."""
