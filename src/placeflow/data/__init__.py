"""placeflow.data: a small tf.data: from_tensor_slices, batch, shuffle, repeat, map, take, prefetch."""

from . import experimental  # noqa: F401
from .dataset import AUTOTUNE, Dataset  # noqa: F401
