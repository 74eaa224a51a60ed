"""placeflow.data.experimental: prefetch_to_device and AUTOTUNE."""

from .dataset import AUTOTUNE, prefetch_to_device  # noqa: F401
