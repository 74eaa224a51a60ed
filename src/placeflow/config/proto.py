"""TensorFlow 1's ConfigProto and GPUOptions as plain Python objects, and how they configure the runtime.

Fields left at None were not set by the user and keep placeflow's own defaults (memory growth on).
"""

from __future__ import annotations

from . import api
from .context import context
from .logical import LogicalDeviceConfiguration


class _Message:
    """A protocol-buffer-like record: keyword construction, attribute access, unknown fields refused."""

    _FIELDS: dict = {}

    def __init__(self, **fields):
        for name, default in self._FIELDS.items():
            value = fields.pop(name, default)
            object.__setattr__(self, name, value() if callable(value) else value)
        if fields:
            raise ValueError(f'Protocol message {type(self).__name__} has no "{next(iter(fields))}" field.')

    def __setattr__(self, name, value):
        if name not in self._FIELDS:
            raise AttributeError(f'Assignment not allowed (no field "{name}" in protocol message '
                                 f'{type(self).__name__}).')
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        set_fields = ", ".join(f"{k}={getattr(self, k)!r}" for k, d in self._FIELDS.items()
                               if not callable(d) and getattr(self, k) != d)
        return f"{type(self).__name__}({set_fields})"


class GPUOptions(_Message):
    """GPU memory options: allow_growth, per_process_gpu_memory_fraction, visible_device_list."""

    _FIELDS = {"allow_growth": None, "per_process_gpu_memory_fraction": 0.0, "visible_device_list": ""}


class ConfigProto(_Message):
    """Session and runtime options (TensorFlow 1's ConfigProto)."""

    _FIELDS = {
        "device_count": dict, "gpu_options": GPUOptions, "allow_soft_placement": None,
        "log_device_placement": False, "inter_op_parallelism_threads": 0, "intra_op_parallelism_threads": 0,
        "use_per_session_threads": False,
    }


def apply_config(config: ConfigProto) -> None:
    """Configure devices, memory, threads and placement flags from a ConfigProto (before initialization)."""
    if config is None:
        return
    apply_process_options(config)
    ctx = context()
    if config.allow_soft_placement is not None:
        ctx.set_placement_flag("soft_device_placement", config.allow_soft_placement)
    if config.log_device_placement:
        api.set_log_device_placement(True)


def apply_process_options(config: ConfigProto, threads: bool = True) -> None:
    """Devices, GPU memory and (unless `threads` is False) thread counts of a ConfigProto.

    A Session passes threads=False: its thread pools and placement flags are its own.
    """
    if not isinstance(config, ConfigProto):
        raise TypeError(f"config must be a placeflow.compat.v1.ConfigProto, got {config!r}.")
    ctx = context()
    _apply_visibility(ctx, config)
    _apply_gpu_memory(ctx, config.gpu_options)
    cpus = config.device_count.get("CPU")
    if cpus and cpus > 1:
        cpu = api.list_physical_devices("CPU")[0]
        ctx.set_logical_configuration(cpu, [LogicalDeviceConfiguration()] * cpus)
    if threads and config.inter_op_parallelism_threads:
        ctx.set_threads("inter", config.inter_op_parallelism_threads)
    if threads and config.intra_op_parallelism_threads:
        ctx.set_threads("intra", config.intra_op_parallelism_threads)


def _apply_visibility(ctx, config) -> None:
    gpus = api.list_physical_devices("GPU")
    chosen = gpus
    listed = config.gpu_options.visible_device_list
    if listed:
        chosen = []
        for piece in str(listed).split(","):
            if not piece.strip().isdigit() or int(piece) >= len(gpus):
                raise ValueError(f"Invalid visible device index: {piece.strip()}\nplaceflow: visible_device_list "
                                 f"{listed!r} must name GPU indices below {len(gpus)}, like '0,1'.")
            chosen.append(gpus[int(piece)])
    limit = config.device_count.get("GPU")
    if limit is not None:
        chosen = chosen[:limit]
    if chosen != gpus:
        ctx.set_visible_devices(chosen, "GPU")


def _apply_gpu_memory(ctx, options: GPUOptions) -> None:
    if options.per_process_gpu_memory_fraction:
        ctx.set_memory_fraction(options.per_process_gpu_memory_fraction)
    if options.allow_growth is not None:
        for gpu in api.list_physical_devices("GPU"):
            if not ctx.logical_configuration(gpu):
                ctx.set_memory_growth(gpu, bool(options.allow_growth))
