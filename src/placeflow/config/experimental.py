"""placeflow.config.experimental: memory growth, fractions and statistics, device details, TF aliases."""

from .api import (  # noqa: F401 - re-exported public names
    get_device_details,
    get_logical_device_configuration as get_virtual_device_configuration,
    get_memory_growth,
    get_per_process_memory_fraction,
    get_strict_placement,
    get_visible_devices,
    list_logical_devices,
    list_physical_devices,
    set_logical_device_configuration as set_virtual_device_configuration,
    set_memory_growth,
    set_per_process_memory_fraction,
    set_strict_placement,
    set_visible_devices,
)
from .logical import LogicalDeviceConfiguration as VirtualDeviceConfiguration  # noqa: F401
from ..ops.registry import list_kernels  # noqa: F401,E402
from ..runtime.memory_queries import (  # noqa: F401,E402
    get_memory_info,
    get_memory_usage,
    memory_stats,
    release_unused_memory,
    reset_memory_stats,
)
