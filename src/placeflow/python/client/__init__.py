"""tensorflow.python.client: device_lib and timeline."""
from . import device_lib, timeline  # noqa: F401
