"""placeflow.config.experimental: memory growth, device details and TensorFlow's aliases."""

from .api import (  # noqa: F401 - re-exported public names
    get_device_details,
    get_logical_device_configuration as get_virtual_device_configuration,
    get_memory_growth,
    get_visible_devices,
    list_logical_devices,
    list_physical_devices,
    set_logical_device_configuration as set_virtual_device_configuration,
    set_memory_growth,
    set_visible_devices,
)
from .logical import LogicalDeviceConfiguration as VirtualDeviceConfiguration  # noqa: F401
