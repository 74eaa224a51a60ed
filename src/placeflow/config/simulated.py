"""Simulated GPUs from PLACEFLOW_SIMULATED_GPUS ('4', '4:2GiB', or with a performance-model preset: '8:80GiB:H100',
'8:H100' for the preset's memory): GPU-type devices on NumPy."""

from __future__ import annotations

import re

from .gpu_info import GpuInfo

ENV_VAR = "PLACEFLOW_SIMULATED_GPUS"
DEFAULT_MEMORY = 4 << 30
SIMULATED_NAME = "placeflow simulated GPU"
_UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}
_SPEC_RE = re.compile(r"([0-9]+)(?::([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]+))?(?::([A-Za-z][A-Za-z0-9._-]*))?\Z")
MAX_SIMULATED_GPUS = 256
# {preset name: memory bytes} of placeflow.perf's performance models, installed by the package facade (perf sits
# above config): a callable, so that perf is imported only when a preset is named.
preset_memories = None


def parse_simulated_gpus(value: str | None) -> tuple[int, int]:
    """'4' -> (4, default size); '4:2GiB' -> (4, 2 GiB); None or '' -> (0, default size)."""
    return parse_simulated_spec(value)[:2]


def parse_simulated_spec(value: str | None) -> tuple[int, int, str | None]:
    """(count, bytes per GPU, preset name or None): '8:80GiB:H100' -> (8, 80 GiB, 'H100'); '8:H100' takes the
    preset's memory; '4:2GiB' -> (4, 2 GiB, None)."""
    if value is None or value.strip() == "":
        return 0, DEFAULT_MEMORY, None
    match = _SPEC_RE.match(value.strip())
    preset = _preset(value, match.group(4)) if match and match.group(4) else None
    count, memory = _count_and_size(value, match)
    if preset is not None and match.group(3) is None:
        memory = preset_memories()[preset]
    return count, memory, preset


def _preset(value: str, name: str) -> str:
    """The preset's canonical name; ValueError listing the presets."""
    known = preset_memories() if preset_memories is not None else {}
    for key in known:
        if key.lower() == name.lower():
            return key
    raise ValueError(f"{ENV_VAR}={value!r} names no performance-model preset {name!r}. Expected one of "
                     f"{', '.join(known)} (case-insensitive) after the count, with or without a size: "
                     f"'{ENV_VAR}=8:80GiB:H100' or '{ENV_VAR}=8:H100' (the preset's memory).")


def _count_and_size(value: str, match) -> tuple[int, int]:
    unit = match.group(3).lower() if match and match.group(3) else None
    if not match or (unit is not None and unit not in _UNITS):
        raise ValueError(
            f"{ENV_VAR}={value!r} is not understood. Expected a GPU count, optionally with a memory "
            f"size per GPU: '{ENV_VAR}=4' (4 GPUs of {DEFAULT_MEMORY >> 30} GiB) or "
            f"'{ENV_VAR}=4:2GiB' (units: B, KB, MB, GB, KiB, MiB, GiB, TiB), and optionally a performance-model "
            f"preset: '{ENV_VAR}=8:80GiB:H100' or '{ENV_VAR}=8:H100'."
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


def simulated_gpus(count: int, memory: int, model: str | None = None) -> list[GpuInfo]:
    """`count` simulated GPUs of `memory` bytes (modelled as preset `model`), with stable fake UUIDs and PCI ids."""
    return [
        GpuInfo(
            name=SIMULATED_NAME,
            uuid=f"GPU-51a1a7ed-0000-4000-8000-{index:012x}",
            pci_bus_id=f"0000:{index + 1:02x}:00.0",
            total_memory=memory,
            free_memory=memory,
            compute_capability=None,
            simulated=True,
            model=model,
        )
        for index in range(count)
    ]
