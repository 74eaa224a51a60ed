"""placeflow.keras is Keras 3 itself (as `tf.keras` is in TensorFlow), running on placeflow.

Importing it makes `tensorflow` mean placeflow in this process (see as_tensorflow.py), picks Keras's
TensorFlow backend, imports Keras, and puts Keras's `tf.keras` module in this module's place, so
`placeflow.keras.layers.Dense is keras.layers.Dense`."""

import os
import sys

from .tools import as_tensorflow


def _load():
    backend = os.environ.get("KERAS_BACKEND")
    if "keras" not in sys.modules and backend not in (None, "tensorflow"):
        raise ImportError(f"placeflow.keras runs Keras with its TensorFlow backend, but KERAS_BACKEND={backend!r}; "
                          "unset it or set KERAS_BACKEND=tensorflow")
    os.environ["KERAS_BACKEND"] = "tensorflow"
    as_tensorflow.install()
    try:
        import keras
    except ModuleNotFoundError as error:
        if error.name != "keras":
            raise
        raise ModuleNotFoundError("placeflow.keras is Keras 3 running on placeflow, and Keras is not installed: "
                                  "pip install 'keras>=3.15,<3.16' (a dependency of placeflow)", name="keras") from None
    if keras.backend.backend() != "tensorflow":
        raise ImportError(f"Keras was already imported with the {keras.backend.backend()!r} backend; "
                          "placeflow.keras needs Keras's TensorFlow backend: import placeflow.keras first")
    from keras._tf_keras import keras as tf_keras
    return tf_keras


sys.modules[__name__] = _load()
