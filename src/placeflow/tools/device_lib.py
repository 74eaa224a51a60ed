"""device_lib.list_local_devices(): DeviceAttributes records printed in TensorFlow's text format."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..config import context as context_module
from ..config.logical import CPU_REPORTED_MEMORY_LIMIT

_INCARNATIONS: dict = {}


@dataclass
class DeviceAttributes:
    """One local device as TensorFlow's device_lib describes it."""

    name: str
    device_type: str
    memory_limit: int
    incarnation: int
    physical_device_desc: str = ""
    xla_global_id: int = -1
    bus_id: int = 0
    links: list = field(default_factory=list)  # (device_id, type, strength)

    def __str__(self) -> str:
        lines = [f'name: "{self.name}"', f'device_type: "{self.device_type}"',
                 f"memory_limit: {self.memory_limit}", "locality {"]
        if self.bus_id:
            lines.append(f"  bus_id: {self.bus_id}")
            lines.append("  links {")
            for device_id, link_type, strength in self.links:
                lines += ["    link {", f"      device_id: {device_id}", f'      type: "{link_type}"',
                          f"      strength: {strength}", "    }"]
            lines.append("  }")
        lines += ["}", f"incarnation: {self.incarnation}"]
        if self.physical_device_desc:
            lines.append(f'physical_device_desc: "{self.physical_device_desc}"')
        lines.append(f"xla_global_id: {self.xla_global_id}")
        return "\n".join(lines) + "\n"

    __repr__ = __str__


def _incarnation(name: str) -> int:
    return _INCARNATIONS.setdefault(name, random.getrandbits(64))


def list_local_devices(session_config=None) -> list:
    """Every logical device of this process; does not initialize or freeze the runtime."""
    devices = context_module.context().plan()
    counts = dict(getattr(session_config, "device_count", None) or {})
    out = []
    for info in devices:
        limit = counts.get(info.device_type)
        if limit is not None and info.index >= limit:
            continue
        out.append(_attributes(info, devices))
    return out


def _attributes(info, devices) -> DeviceAttributes:
    if info.device_type == "CPU":
        return DeviceAttributes(info.short_name, "CPU", CPU_REPORTED_MEMORY_LIMIT, _incarnation(info.name))
    links = [(other.index, "SAME_DEVICE" if other.physical is info.physical else "StreamExecutor", 1)
             for other in devices if other.device_type == "GPU" and other is not info]
    return DeviceAttributes(
        info.short_name, "GPU", info.memory_limit, _incarnation(info.name),
        physical_device_desc=info.physical.description,
        xla_global_id=_incarnation(info.name + "/xla") & 0x3FFFFFFF, bus_id=1, links=links,
    )
