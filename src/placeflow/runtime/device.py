"""A runtime device: one logical device with its array namespace (NumPy or CuPy)."""

from __future__ import annotations

import contextlib

import numpy as np

from ..framework.device_spec import DeviceSpec
from ..memory import for_device


class Device:
    """One logical device ops run on. `xp` is numpy for CPUs and simulated GPUs, cupy for CUDA."""

    __slots__ = ("name", "short_name", "device_type", "index", "spec", "info", "simulated",
                 "cuda_ordinal", "_xp", "is_cuda", "memory", "adopt")

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
        self.memory = for_device(info, self.cuda_ordinal)
        # NumPy outputs are charged to the device after the kernel; CuPy ones were allocated from it
        self.adopt = _already_charged if self.is_cuda else self.memory.adopt

    @property
    def xp(self):
        """The array namespace of this device's kernels (CuPy imported on first CUDA use)."""
        if self._xp is None:
            import cupy
            self._xp = cupy
        return self._xp

    def activate(self):
        """A context manager making this device CUDA's current device and allocator (a no-op off CUDA)."""
        if not self.is_cuda:
            return contextlib.nullcontext()
        return _CudaScope(self.xp, self.cuda_ordinal, self.memory.cupy_malloc)

    def __repr__(self) -> str:
        kind = " (simulated)" if self.simulated else ""
        return f"<Device {self.name}{kind}>"


def _already_charged(array):
    return array


class _CudaScope:
    """Current CUDA device plus a thread-local CuPy allocator drawing from the device's BFC pool."""

    __slots__ = ("_device", "_allocator")

    def __init__(self, cupy, ordinal, malloc):
        self._device = cupy.cuda.Device(ordinal)
        self._allocator = cupy.cuda.using_allocator(malloc)

    def __enter__(self):
        self._device.__enter__()
        self._allocator.__enter__()
        return self

    def __exit__(self, *exc):
        try:
            self._allocator.__exit__(*exc)
        finally:
            self._device.__exit__(*exc)
        return False
