"""Simulated GPUs from PLACEFLOW_SIMULATED_GPUS ('4', or '4:2GiB'): GPU-type devices on NumPy."""

from __future__ import annotations

import re

from .gpu_info import GpuInfo

ENV_VAR = "PLACEFLOW_SIMULATED_GPUS"
DEFAULT_MEMORY = 4 << 30
SIMULATED_NAME = "placeflow simulated GPU"
_UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}
_SPEC_RE = re.compile(r"([0-9]+)(?::([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]+))?\Z")
MAX_SIMULATED_GPUS = 256


def parse_simulated_gpus(value: str | None) -> tuple[int, int]:
    """'4' -> (4, default size); '4:2GiB' -> (4, 2 GiB); None or '' -> (0, default size)."""
    if value is None or value.strip() == "":
        return 0, DEFAULT_MEMORY
    match = _SPEC_RE.match(value.strip())
    unit = match.group(3).lower() if match and match.group(3) else None
    if not match or (unit is not None and unit not in _UNITS):
        raise ValueError(
            f"{ENV_VAR}={value!r} is not understood. Expected a GPU count, optionally with a memory "
            f"size per GPU: '{ENV_VAR}=4' (4 GPUs of {DEFAULT_MEMORY >> 30} GiB) or "
            f"'{ENV_VAR}=4:2GiB' (units: B, KB, MB, GB, KiB, MiB, GiB, TiB)."
        )
    if len(match.group(1)) > 3 or int(match.group(1)) > MAX_SIMULATED_GPUS:
        raise ValueError(f"{ENV_VAR}={value!r} asks for more simulated GPUs than placeflow makes "
                         f"({MAX_SIMULATED_GPUS} at most); ask for fewer, e.g. '{ENV_VAR}=8'.")
    count = int(match.group(1))
    if unit is None:
        return count, DEFAULT_MEMORY
    size = float(match.group(2)) * _UNITS[unit]
    if size > 1 << 50:
        raise ValueError(f"{ENV_VAR}={value!r} gives each simulated GPU more than 1 PiB; give each a real size, "
                         f"e.g. '4:16GiB'.")
    size = int(size)
    if size < 1 << 20:
        raise ValueError(f"{ENV_VAR}={value!r} gives each simulated GPU {size} bytes; "
                         "give each at least 1MiB, e.g. '4:2GiB'.")
    return count, size


def simulated_gpus(count: int, memory: int) -> list[GpuInfo]:
    """`count` simulated GPUs of `memory` bytes, with stable fake UUIDs and PCI bus ids."""
    return [
        GpuInfo(
            name=SIMULATED_NAME,
            uuid=f"GPU-51a1a7ed-0000-4000-8000-{index:012x}",
            pci_bus_id=f"0000:{index + 1:02x}:00.0",
            total_memory=memory,
            free_memory=memory,
            compute_capability=None,
            simulated=True,
        )
        for index in range(count)
    ]
