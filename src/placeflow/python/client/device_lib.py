"""from tensorflow.python.client import device_lib -- the same, for placeflow."""
from ...tools.device_lib import DeviceAttributes, list_local_devices  # noqa: F401
