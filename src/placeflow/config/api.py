"""The public tf.config functions: thin wrappers over the process Context."""

from __future__ import annotations

from ..framework import graph_mode
from . import placement_log
from .context import context
from .physical import PhysicalDevice


def list_physical_devices(device_type: str | None = None) -> list:
    """Physical devices, optionally of one type ('CPU', 'GPU'); never initializes the runtime."""
    infos = context().physical_infos()
    return [i.device for i in infos if device_type is None or i.device.device_type == device_type]


# Devices of other tasks of the cluster, listed after this process's own (distribute.remote registers a
# callable returning LogicalDevices once `experimental_connect_to_cluster` connected).
cluster_logical_devices = None


def list_logical_devices(device_type: str | None = None) -> list:
    """Logical devices ('/device:GPU:0', ...), then those of connected tasks; initializes the runtime."""
    devices = context().ensure_initialized("list_logical_devices()")
    local = [d.logical_device for d in devices if device_type is None or d.device_type == device_type]
    remote = cluster_logical_devices() if cluster_logical_devices is not None else []
    return local + [d for d in remote if device_type is None or d.device_type == device_type]


def get_visible_devices(device_type: str | None = None) -> list:
    """Physical devices that are visible to the runtime (all by default)."""
    infos = context().visible_infos()
    return [i.device for i in infos if device_type is None or i.device.device_type == device_type]


def set_visible_devices(devices, device_type: str | None = None) -> None:
    """Make only `devices` visible (of `device_type` when given); before initialization only."""
    context().set_visible_devices(devices, device_type)


def get_memory_growth(device: PhysicalDevice) -> bool:
    """Whether a physical GPU's memory grows on demand (placeflow's default) or is preallocated."""
    ctx = context()
    return ctx.memory_growth(ctx.physical_info(device))


def set_memory_growth(device: PhysicalDevice, enable: bool) -> None:
    """Grow a physical GPU's memory on demand (True) or preallocate its limit (False)."""
    context().set_memory_growth(device, enable)


def get_logical_device_configuration(device: PhysicalDevice):
    """The LogicalDeviceConfiguration list of a physical device, or None when not split."""
    return context().logical_configuration(device)


def set_logical_device_configuration(device: PhysicalDevice, logical_devices) -> None:
    """Split a physical device into logical devices (GPUs need memory_limit in MB)."""
    context().set_logical_configuration(device, logical_devices)


def get_soft_device_placement() -> bool:
    """Whether ops fall back to a working device: the value set, else whether this thread runs eagerly.

    As in TensorFlow, inside a graph (`Graph.as_default`, `disable_eager_execution`) the default is False.
    """
    explicit = context().soft_placement_set
    if explicit is not None:
        return explicit
    return graph_mode.active() is None


def set_soft_device_placement(enabled: bool) -> None:
    """Turn soft placement on or off (may change at any time)."""
    context().set_placement_flag("soft_device_placement", enabled)


def get_device_details(device: PhysicalDevice) -> dict:
    """Hardware details of a physical device: GPU name and compute capability; {} for a CPU."""
    if not isinstance(device, PhysicalDevice):
        raise ValueError(f"device must be a tf.config.PhysicalDevice, but got: {device!r}")
    info = context().physical_info(device)
    if info.gpu is None:
        return {}
    if info.gpu.simulated:
        return {"device_name": info.gpu.name, "simulated": True}
    return {"device_name": info.gpu.name, "compute_capability": info.gpu.compute_capability}


def get_log_device_placement() -> bool:
    """Whether every op's device is logged."""
    return context().log_device_placement


def set_log_device_placement(enabled: bool) -> None:
    """Log the device of every op through the 'placeflow.placement' logger (stderr unless redirected)."""
    context().log_device_placement = bool(enabled)
    if enabled:
        placement_log.ensure_handler()


def get_strict_placement() -> bool:
    """Whether implicit fallbacks and implicit cross-device copies raise instead of happening."""
    return context().strict_placement


def set_strict_placement(enabled: bool) -> None:
    """Turn every soft/kernel fallback and every implicit cross-device copy into an error."""
    context().set_placement_flag("strict_placement", enabled)


DEVICE_POLICIES = ("explicit", "warn", "silent", "silent_for_int32")


def set_device_policy(device_policy) -> None:
    """What an eager op does with an input on another device: 'silent' copies (None: the default, silent),
    'warn' copies and logs each kind of copy once, 'explicit' refuses, 'silent_for_int32' copies int32 only."""
    if device_policy is not None and device_policy not in DEVICE_POLICIES:
        raise ValueError(f"Not a valid device policy: {device_policy!r}; expected one of {DEVICE_POLICIES} or "
                         f"None.")
    context().device_policy = device_policy or "silent"


def get_device_policy() -> str:
    """The device policy ('silent' unless set_device_policy changed it)."""
    return context().device_policy


def set_synchronous_execution(enable: bool) -> None:
    """Whether eager ops must finish before returning. placeflow's eager ops always finish before they return
    (synchronous is one valid schedule of TF's asynchronous mode: same results, errors raised at the op)."""
    if not isinstance(enable, (bool, int)) and enable is not None:
        raise TypeError(f"set_synchronous_execution expects a bool or None, got {enable!r}.")
    context().synchronous_execution = True if enable is None else bool(enable)


def get_synchronous_execution() -> bool:
    """The flag set_synchronous_execution stored (True by default)."""
    return context().synchronous_execution


def get_per_process_memory_fraction() -> float | None:
    """The fraction of each GPU's total memory this process may use, or None for the default limit."""
    return context().memory_fraction


def set_per_process_memory_fraction(fraction: float) -> None:
    """Limit every GPU (not split into logical devices) to `fraction` of its total memory; 0 resets."""
    context().set_memory_fraction(fraction)
