"""Questions about device memory by device name: get_memory_info, memory_stats, release, reset."""

from __future__ import annotations

from ..config.context import context
from ..framework.device_spec import LOCAL_JOB, parse_device_name
from . import registry

_PARSE_HELP = 'Note a valid device string should at least contain a device type and a device index, like "GPU:0".'


def find_device(device: str):
    """The runtime device a name like 'GPU:0' or '/job:localhost/.../device:GPU:0' denotes."""
    if not isinstance(device, str):
        raise ValueError(f"Expected a device name string like 'GPU:0', got {device!r}.")
    try:
        job, replica, task, device_type, index = parse_device_name(device)
    except ValueError:
        job = device_type = index = None
    if device_type is None or index is None:
        raise ValueError(f"Failed parsing device name: '{device}'. {_PARSE_HELP}")
    matches = [d for d in registry.devices(context())
               if d.device_type == device_type and d.index == index
               and job in (None, LOCAL_JOB) and replica in (None, 0) and task in (None, 0)]
    if not matches:
        names = ", ".join(d.short_name for d in registry.devices(context()))
        raise ValueError(f"No matching devices found for '{device}'\nplaceflow: the devices are {names}.")
    return matches[0]


def get_memory_info(device: str) -> dict:
    """{'current': bytes in use, 'peak': peak bytes in use} of a device (CPUs report their tensors)."""
    stats = find_device(device).memory.allocator.stats()
    return {"current": stats["bytes_in_use"], "peak": stats["peak_bytes_in_use"]}


def get_memory_usage(device: str) -> int:
    """Bytes in use on a device (TensorFlow's deprecated alias of get_memory_info()['current'])."""
    return get_memory_info(device)["current"]


def reset_memory_stats(device: str) -> None:
    """Make a device's peak statistics equal its current use."""
    find_device(device).memory.reset_peaks()


def memory_stats(device: str) -> dict:
    """Every statistic of a device's allocator: in use, reserved, limit, peaks, allocations, fragmentation."""
    return find_device(device).memory.stats()


def release_unused_memory(device: str) -> int:
    """Give a GPU's wholly free pool regions back (TensorFlow never does); returns the bytes released."""
    return find_device(device).memory.release_unused()


def all_device_stats() -> list:
    """(runtime device, stats) for every logical device, GPUs first."""
    return [(d, d.memory.stats()) for d in registry.devices(context())]
