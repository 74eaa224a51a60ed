"""A runtime device: one logical device with its array namespace (NumPy or CuPy)."""

from __future__ import annotations

import contextlib

import numpy as np

from ..framework.device_spec import DeviceSpec


class Device:
    """One logical device ops run on. `xp` is numpy for CPUs and simulated GPUs, cupy for CUDA."""

    __slots__ = ("name", "short_name", "device_type", "index", "spec", "info", "simulated",
                 "cuda_ordinal", "_xp", "is_cuda")

    def __init__(self, info):
        self.info = info
        self.name = info.name
        self.short_name = f"{info.device_type}:{info.index}"
        self.device_type = info.device_type
        self.index = info.index
        self.spec = DeviceSpec.from_string(info.name)
        self.simulated = info.simulated
        self.is_cuda = info.device_type == "GPU" and not info.simulated
        self.cuda_ordinal = info.physical.index if self.is_cuda else None
        self._xp = None if self.is_cuda else np

    @property
    def xp(self):
        """The array namespace of this device's kernels (CuPy imported on first CUDA use)."""
        if self._xp is None:
            import cupy
            self._xp = cupy
        return self._xp

    def activate(self):
        """A context manager making this device CUDA's current device (a no-op off CUDA)."""
        if not self.is_cuda:
            return contextlib.nullcontext()
        return self.xp.cuda.Device(self.cuda_ordinal)

    def __repr__(self) -> str:
        kind = " (simulated)" if self.simulated else ""
        return f"<Device {self.name}{kind}>"
