"""Logical devices: how visible physical devices, virtual-device configurations and memory
limits become the numbered CPU:n / GPU:n devices the runtime places ops on."""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

from ..framework.device_spec import LOCAL_JOB
from .physical import PhysicalDeviceInfo

LogicalDevice = namedtuple("LogicalDevice", ["name", "device_type"])
LogicalDevice.__doc__ = "A logical device the runtime can place ops on: name '/device:GPU:0', type 'GPU'."

MIB = 1 << 20
CPU_REPORTED_MEMORY_LIMIT = 268435456  # what TensorFlow reports for a CPU device (256 MiB)


class LogicalDeviceConfiguration(
    namedtuple("LogicalDeviceConfiguration",
               ["memory_limit", "experimental_priority", "experimental_device_ordinal"])
):
    """One logical device carved out of a physical one; memory_limit in MB (2**20 bytes)."""

    def __new__(cls, memory_limit=None, experimental_priority=None, experimental_device_ordinal=None):
        return super().__new__(cls, memory_limit, experimental_priority, experimental_device_ordinal)


VirtualDeviceConfiguration = LogicalDeviceConfiguration


@dataclass(frozen=True)
class LogicalDeviceInfo:
    """A logical device: its canonical name, its physical device and its memory policy."""

    name: str
    device_type: str
    index: int
    physical: PhysicalDeviceInfo
    memory_limit: int | None  # bytes the device may allocate; None for CPUs (host accounting only)
    memory_growth: bool
    priority: int | None = None

    @property
    def short_name(self) -> str:
        """The name TensorFlow lists: '/device:GPU:0'."""
        return f"/device:{self.device_type}:{self.index}"

    @property
    def logical_device(self) -> LogicalDevice:
        """The public LogicalDevice tuple."""
        return LogicalDevice(self.short_name, self.device_type)

    @property
    def simulated(self) -> bool:
        """True when this is a simulated GPU (NumPy kernels, separate memory)."""
        return self.physical.kind == "simulated"


def full_name(device_type: str, index: int) -> str:
    """'/job:localhost/replica:0/task:0/device:GPU:1'."""
    return f"/job:{LOCAL_JOB}/replica:0/task:0/device:{device_type}:{index}"


def reserved_system_memory(gpu, environ) -> int:
    """Bytes TensorFlow leaves free on a real GPU for the driver and other programs."""
    override = environ.get("TF_DEVICE_MIN_SYS_MEMORY_IN_MB")
    if override and override.isdigit():
        return int(override) * MIB
    if gpu.free_memory < 2 << 30:
        return 225 * MIB
    major = (gpu.compute_capability or (0, 0))[0]
    for last_major, reserve_mib in ((6, 500), (7, 1050), (8, 1536)):
        if major <= last_major:
            return reserve_mib * MIB
    return 1800 * MIB


def default_gpu_memory_limit(physical: PhysicalDeviceInfo, environ, fraction: float | None = None) -> int:
    """The memory limit of an unconfigured GPU: a fraction of total, else free less a reserve."""
    gpu = physical.gpu
    if fraction:
        return int(gpu.total_memory * fraction)
    if gpu.simulated:
        return gpu.total_memory
    return max(gpu.free_memory - reserved_system_memory(gpu, environ), 0)


def plan(visible: list, configs: dict, growth_of, environ, fraction_of=lambda physical: None) -> list:
    """Number the logical devices as TensorFlow does: CPUs, then GPUs per physical GPU in order.

    `configs` maps a PhysicalDevice to its LogicalDeviceConfiguration list; `growth_of(info)`
    gives a physical GPU's effective memory growth; `fraction_of(info)` its memory fraction.
    """
    devices: list[LogicalDeviceInfo] = []
    for physical in (p for p in visible if p.device.device_type == "CPU"):
        for _ in configs.get(physical.device) or [None]:
            devices.append(_make(devices, "CPU", physical, None, False, None))
    gpu_entries = []
    for physical in (p for p in visible if p.device.device_type == "GPU"):
        entries = configs.get(physical.device)
        if not entries:
            limit = default_gpu_memory_limit(physical, environ, fraction_of(physical))
            gpu_entries.append((0, len(gpu_entries), physical, limit, growth_of(physical), None))
            continue
        for config in entries:
            gpu_entries.append((config.experimental_device_ordinal or 0, len(gpu_entries), physical,
                                config.memory_limit * MIB, growth_of(physical), config.experimental_priority))
    for _, _, physical, limit, growth, priority in sorted(gpu_entries, key=lambda e: (e[0], e[1])):
        devices.append(_make(devices, "GPU", physical, limit, growth, priority))
    return devices


def _make(devices: list, device_type: str, physical, limit, growth, priority) -> LogicalDeviceInfo:
    index = sum(1 for d in devices if d.device_type == device_type)
    return LogicalDeviceInfo(full_name(device_type, index), device_type, index, physical, limit, growth, priority)
