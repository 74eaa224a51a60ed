"""Device memory: the BFC allocator, host accounting, and out-of-memory errors."""

from .device_memory import DeviceMemory, for_device  # noqa: F401
from .oom import DeviceOutOfMemory, human_bytes  # noqa: F401
