"""Physical devices: the one CPU, plus CUDA GPUs or simulated GPUs, discovered lazily."""

from __future__ import annotations

import os
import platform
from collections import namedtuple
from dataclasses import dataclass

from . import cuda_probe, simulated
from .cuda_visibility import apply_visible_devices, order_gpus
from .gpu_info import GpuInfo

PhysicalDevice = namedtuple("PhysicalDevice", ["name", "device_type"])
PhysicalDevice.__doc__ = "A physical device: name '/physical_device:GPU:0' and type 'GPU'."


@dataclass(frozen=True)
class PhysicalDeviceInfo:
    """A physical device and what placeflow knows about it."""

    device: PhysicalDevice
    kind: str  # 'host', 'cuda' or 'simulated'
    gpu: GpuInfo | None = None
    index: int = 0  # the CUDA ordinal for real GPUs, the position for others

    @property
    def total_memory(self) -> int:
        """Bytes of memory on the device (host RAM for the CPU)."""
        return self.gpu.total_memory if self.gpu else host_memory_bytes()

    @property
    def description(self) -> str:
        """One line describing the hardware, saying clearly when it is simulated."""
        if self.gpu is None:
            return f"{platform.machine() or 'host'} CPU, {os.cpu_count()} cores"
        return self.gpu.short_description(self.index)


def host_memory_bytes() -> int:
    """Physical RAM of this machine in bytes (0 when the OS will not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


def discover(environ) -> tuple[list, str]:
    """All physical devices (CPU first) and a sentence on where the GPUs came from or why none."""
    cpu = PhysicalDeviceInfo(PhysicalDevice("/physical_device:CPU:0", "CPU"), "host")
    gpus, kind, reason = _find_gpus(environ)
    infos = [cpu] + [
        PhysicalDeviceInfo(PhysicalDevice(f"/physical_device:GPU:{i}", "GPU"), kind, gpu, i)
        for i, gpu in enumerate(gpus)
    ]
    return infos, reason


def _find_gpus(environ) -> tuple[list, str, str]:
    count, memory, model = simulated.parse_simulated_spec(environ.get(simulated.ENV_VAR))
    order = environ.get("CUDA_DEVICE_ORDER")
    visible = environ.get("CUDA_VISIBLE_DEVICES")
    if count:
        gpus = apply_visible_devices(order_gpus(simulated.simulated_gpus(count, memory, model), order), visible)
        reason = (f"{len(gpus)} simulated GPU(s) from {simulated.ENV_VAR}={environ[simulated.ENV_VAR]}"
                  f"{_visibility_note(visible, count, len(gpus))}; real CUDA GPUs are not used while it is set")
        return gpus, "simulated", reason
    probe = cuda_probe.probe_cuda(environ)
    gpus = probe.gpus
    if probe.needs_visibility_filter:
        gpus = apply_visible_devices(order_gpus(gpus, order), visible)
    reason = probe.reason
    if probe.gpus:
        reason += _visibility_note(visible, len(probe.gpus), len(gpus))
    return gpus, "cuda", reason


def _visibility_note(visible: str | None, found: int, kept: int) -> str:
    if visible is None or found == kept:
        return ""
    return f" ({kept} of {found} visible through CUDA_VISIBLE_DEVICES={visible!r})"
