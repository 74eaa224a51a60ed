"""placeflow.config: physical and logical devices, visibility, memory options, placement flags."""

from . import experimental, gpu, optimizer, threading
from .api import (
    get_logical_device_configuration,
    get_soft_device_placement,
    get_visible_devices,
    list_logical_devices,
    list_physical_devices,
    set_logical_device_configuration,
    set_soft_device_placement,
    set_visible_devices,
)
from .logical import LogicalDevice, LogicalDeviceConfiguration
from .physical import PhysicalDevice

__all__ = [
    "LogicalDevice", "LogicalDeviceConfiguration", "PhysicalDevice", "experimental", "gpu", "threading",
    "get_logical_device_configuration", "get_soft_device_placement", "get_visible_devices",
    "list_logical_devices", "list_physical_devices", "set_logical_device_configuration",
    "set_soft_device_placement", "set_visible_devices",
]
