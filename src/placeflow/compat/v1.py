"""placeflow.compat.v1: TensorFlow 1 names that placeflow supports."""
from ..framework.device_spec import DeviceSpecV1 as DeviceSpec  # noqa: F401
