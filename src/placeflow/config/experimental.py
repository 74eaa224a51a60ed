"""placeflow.config.experimental: memory growth, fractions and statistics, device details, TF aliases.

The names that belong to layers above config (list_kernels from ops; get_memory_info, memory_stats,
reset_memory_stats, get_memory_usage and release_unused_memory from runtime) are added to this
namespace by the package facade (placeflow/__init__.py): config never imports upward.
"""

from .api import (  # noqa: F401 - re-exported public names
    get_device_details,
    get_device_policy,
    get_logical_device_configuration as get_virtual_device_configuration,
    get_memory_growth,
    get_per_process_memory_fraction,
    get_strict_placement,
    get_synchronous_execution,
    get_visible_devices,
    list_logical_devices,
    list_physical_devices,
    set_device_policy,
    set_logical_device_configuration as set_virtual_device_configuration,
    set_memory_growth,
    set_per_process_memory_fraction,
    set_strict_placement,
    set_synchronous_execution,
    set_visible_devices,
)
from .logical import LogicalDeviceConfiguration as VirtualDeviceConfiguration  # noqa: F401

