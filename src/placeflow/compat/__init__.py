"""placeflow.compat: TensorFlow 1 names (compat.v1)."""
from . import v1  # noqa: F401
