"""placeflow.config.gpu: TensorFlow 2.0-alpha's process-wide GPU memory options (seed 000)."""

from __future__ import annotations

from .api import get_per_process_memory_fraction, set_per_process_memory_fraction  # noqa: F401
from .context import context


def set_per_process_memory_growth(enabled: bool = True) -> None:
    """Grow every GPU's memory on demand (True, placeflow's default) or preallocate it (False)."""
    ctx = context()
    for info in ctx.physical_infos():
        if info.device.device_type == "GPU" and not ctx.logical_configuration(info.device):
            ctx.set_memory_growth(info.device, enabled)


def get_per_process_memory_growth() -> bool:
    """Whether GPU memory grows on demand (the setting of the first GPU; they must agree)."""
    ctx = context()
    gpus = [i for i in ctx.physical_infos() if i.device.device_type == "GPU"]
    return ctx.memory_growth(gpus[0]) if gpus else True
