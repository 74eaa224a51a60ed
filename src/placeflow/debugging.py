"""placeflow.debugging: placement logging."""

from .config.api import get_log_device_placement, set_log_device_placement  # noqa: F401
