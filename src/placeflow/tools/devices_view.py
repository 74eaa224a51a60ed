"""The `placeflow devices` table: physical and logical devices, memory, growth, real or simulated."""

from __future__ import annotations

from ..config.context import context


def _size(num_bytes) -> str:
    if num_bytes is None:
        return "-"
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if num_bytes >= 1 << shift:
            return f"{num_bytes / (1 << shift):.1f} {unit}"
    return f"{num_bytes} B"


def _table(header: list, rows: list) -> list:
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    line = lambda cells: "  " + "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return [line(header)] + [line(r) for r in rows]


def render() -> str:
    """The whole table as text; does not initialize the runtime."""
    ctx = context()
    physical = ctx.physical_infos()
    visible = {i.device for i in ctx.visible_infos()}
    lines = [f"GPUs: {ctx.gpu_reason}", "", "Physical devices"]
    rows = []
    for info in physical:
        growth = "-" if info.gpu is None else ("on" if ctx.memory_growth(info) else "off (preallocate)")
        kind = {"host": "host", "cuda": "real (CUDA)", "simulated": "SIMULATED"}[info.kind]
        rows.append([info.device.name, info.device.device_type, kind, _size(info.total_memory),
                     growth, "yes" if info.device in visible else "no", info.description])
    lines += _table(["NAME", "TYPE", "KIND", "MEMORY", "GROWTH", "VISIBLE", "DESCRIPTION"], rows)
    lines += ["", "Logical devices" + ("" if ctx.initialized else " (runtime not initialized yet)")]
    try:
        logical = ctx.plan()
    except ValueError as exc:
        return "\n".join(lines + [f"  cannot be formed: {exc}"])
    rows = [[d.name, d.device_type, d.physical.device.name,
             "-" if d.memory_limit is None else f"{d.memory_limit >> 20} MB",
             "-" if d.device_type == "CPU" else ("on" if d.memory_growth else "off"),
             "SIMULATED" if d.simulated else ("host" if d.device_type == "CPU" else "real (CUDA)")]
            for d in logical]
    lines += _table(["NAME", "TYPE", "PHYSICAL", "MEMORY LIMIT", "GROWTH", "KIND"], rows)
    return "\n".join(lines)
