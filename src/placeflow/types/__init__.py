"""tf.types: TensorFlow's abstract types that placeflow's classes are instances of."""

from . import experimental  # noqa: F401
