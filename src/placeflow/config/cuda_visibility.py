"""CUDA's rules for CUDA_DEVICE_ORDER and CUDA_VISIBLE_DEVICES, applied to a list of GpuInfo.

The CUDA runtime applies these itself; placeflow applies them to what NVML enumerates (NVML
ignores both variables) and to simulated GPUs, so that both behave like CUDA ordinals.
"""

from __future__ import annotations

import logging

from .gpu_info import GpuInfo

_log = logging.getLogger("placeflow.config")


def order_gpus(gpus: list[GpuInfo], order: str | None) -> list[GpuInfo]:
    """Sort GPUs as CUDA does: 'PCI_BUS_ID' by bus id; 'FASTEST_FIRST' (default) fastest first."""
    by_bus = sorted(gpus, key=lambda g: g.pci_bus_id)
    if order == "PCI_BUS_ID":
        return by_bus
    if order not in (None, "", "FASTEST_FIRST"):
        _log.warning("Ignoring CUDA_DEVICE_ORDER=%r: expected 'FASTEST_FIRST' or 'PCI_BUS_ID'. "
                     "Using FASTEST_FIRST, as CUDA does.", order)
    # CUDA's heuristic is undocumented; newer compute capability, then more memory, ranks faster.
    return sorted(by_bus, key=lambda g: (g.compute_capability or (0, 0), g.total_memory), reverse=True)


def apply_visible_devices(gpus: list[GpuInfo], value: str | None) -> list[GpuInfo]:
    """Filter and reorder ordered GPUs by a CUDA_VISIBLE_DEVICES value, as the CUDA runtime does.

    Entries are indices into the ordered list or UUID prefixes ('GPU-8a1c...'); the first
    entry that is invalid, unknown or repeated ends the list; '' and '-1' hide every GPU.
    """
    if value is None:
        return list(gpus)
    chosen: list[GpuInfo] = []
    for token in value.split(","):
        gpu = _lookup(gpus, token.strip())
        if gpu is None or gpu in chosen:
            break
        chosen.append(gpu)
    return chosen


def _lookup(gpus: list[GpuInfo], token: str) -> GpuInfo | None:
    if token.isdigit():
        index = int(token)
        return gpus[index] if index < len(gpus) else None
    if not token:
        return None
    matches = [g for g in gpus if g.uuid.lower().startswith(token.lower())]
    return matches[0] if len(matches) == 1 else None
