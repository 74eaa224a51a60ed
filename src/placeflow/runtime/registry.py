"""The runtime devices of a Context, built once when it initializes, in priority order."""

from __future__ import annotations

import threading

from .device import make_device
from . import op_times
from .shape_only import read_as_zeros

_lock = threading.Lock()
_built: dict = {}  # id(context) -> (context, devices)

DEVICE_TYPE_PRIORITY = ("GPU", "CPU")  # GPU kernels are preferred, as TensorFlow's priorities say


def devices(ctx) -> list:
    """Runtime devices of `ctx`: GPUs by index, then CPUs by index (initializes `ctx`)."""
    entry = _built.get(id(ctx))
    if entry is not None and entry[0] is ctx:
        return entry[1]
    with _lock:
        infos = ctx.ensure_initialized("the first op")
        ordered = sorted(infos, key=lambda i: (DEVICE_TYPE_PRIORITY.index(i.device_type), i.index))
        estimating = ctx.estimating
        if estimating:
            read_as_zeros(estimating == "zeros")
        built = [make_device(info, estimating) for info in ordered]
        if ctx.environ.get(op_times.RECORD_ENV_VAR):
            op_times.start_recording(built, ctx.environ[op_times.RECORD_ENV_VAR])
        _built.clear()
        _built[id(ctx)] = (ctx, built)
    return built


def find(ctx, full_name: str) -> Device | None:
    """The runtime device whose canonical name is `full_name`, or None."""
    for device in devices(ctx):
        if device.name == full_name:
            return device
    return None
