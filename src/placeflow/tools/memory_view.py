"""The `placeflow memory` view: every logical device's memory, as nvidia-smi shows processes."""

from __future__ import annotations

import os

from ..config.context import context
from ..memory.oom import human_bytes
from ..runtime.memory_queries import all_device_stats
from .devices_view import _table

BAR_WIDTH = 24


def _bar(stats: dict) -> str:
    """'[####++......]': '#' in use, '+' reserved by the pool but free, '.' not reserved."""
    limit = stats["bytes_limit"]
    if not limit:
        return ""
    used = round(BAR_WIDTH * stats["bytes_in_use"] / limit)
    reserved = max(round(BAR_WIDTH * stats["bytes_reserved"] / limit), used)
    return "[" + "#" * used + "+" * (reserved - used) + "." * (BAR_WIDTH - reserved) + "]"


def _policy(device) -> str:
    if device.device_type != "GPU":
        return "host"
    return "growth" if device.info.memory_growth else "prealloc"


def memory_summary() -> str:
    """A table of every logical device's memory: use, peak, pool, limit, allocations, fragmentation."""
    header = ["DEVICE", "ALLOCATOR", "POLICY", "IN USE", "PEAK", "RESERVED", "LIMIT", "LIVE", "ALLOCS",
              "LARGEST FREE", "FRAG", "USE"]
    rows = []
    for device, s in all_device_stats():
        kind = " (sim)" if device.simulated else ""
        rows.append([device.short_name + kind, s["allocator"], _policy(device), human_bytes(s["bytes_in_use"]),
                     human_bytes(s["peak_bytes_in_use"]), human_bytes(s["bytes_reserved"]),
                     human_bytes(s["bytes_limit"]), s["live_allocations"], s["num_allocs"],
                     human_bytes(s["largest_free_block_bytes"]), f"{s['fragmentation']:.0%}", _bar(s)])
    title = f"placeflow memory, process {os.getpid()}: {context().gpu_reason}"
    legend = "USE: '#' in use, '+' held by the pool but free, '.' not reserved (limit = whole bar)"
    return "\n".join([title, *_table(header, rows), legend])
