"""The placement policy, shared by eager and graph mode: which device runs an op, and why.

Order of decisions (TensorFlow's eager rules):
1. an op on a variable runs on the variable's device ('variable');
2. a requested device (scope) is honoured when it exists and has a kernel ('scope');
3. otherwise, with soft placement, type and index are dropped and the first device that has
   a kernel is taken ('soft fallback', logged once per op and request); without it, an error;
4. with no request, the first device of the highest-priority type with a kernel: GPU:0,
   else CPU:0 ('default', or 'kernel fallback' when a GPU exists but has no kernel).
Strict placement turns both fallbacks into errors.
"""

from __future__ import annotations

import logging

from ..framework import errors
from ..framework.device_spec import LOCAL_JOB, DeviceSpec, is_complete_specification
from ..framework.dtypes import cpp_name, enum_name
from ..ops.registry import find_kernel, list_kernels, op_def, registered_ops
from ..runtime import registry
from . import cluster_devices, report

log = logging.getLogger("placeflow.placement")


class UnknownDeviceError(errors.InvalidArgumentError, RuntimeError):
    """A device outside this process was requested (TensorFlow raises RuntimeError here)."""


class Decision:
    """Where one kind of op runs: device, kernel, reason; counts its own executions."""

    __slots__ = ("op", "device", "kernel", "fn", "presize", "reason", "detail", "count")

    def __init__(self, op, device, kernel, reason, detail=""):
        self.op, self.device, self.kernel = op, device, kernel
        self.fn, self.presize = kernel.fn, kernel.presize  # read by every eager call of this op
        self.reason, self.detail = reason, detail
        self.count = 0


def place(ctx, op: str, requested: str | None, dtype, resource_device=None) -> Decision:
    """Choose the device and kernel for `op` with input dtype `dtype` under request `requested`."""
    devices = registry.devices(ctx)
    supported = supported_types(op, dtype)
    if not supported:
        raise _not_allowed(op, dtype) or _no_kernel_anywhere(op, dtype)
    if resource_device is not None:
        decision = _on_resource_device(op, dtype, resource_device)
    elif requested:
        decision = _on_requested(ctx, devices, op, requested, dtype, supported)
    else:
        decision = _by_default(ctx, devices, op, dtype, supported)
    report.remember(decision)
    return decision


def _decision(op, device, dtype, reason, detail="") -> Decision:
    return Decision(op, device, find_kernel(op, device.device_type, dtype), reason, detail)


def _on_resource_device(op, dtype, device) -> Decision:
    if find_kernel(op, device.device_type, dtype) is None:
        raise errors.InvalidArgumentError(None, None, (
            f"{op} on a {_dtype_name(dtype)} variable has no kernel on {device.name}. "
            f"[Op:{op}] name: \nplaceflow: create the variable on a device that supports "
            f"{_dtype_name(dtype)} (kernels: {list_kernels(op)})."))
    return _decision(op, device, dtype, "variable", f"colocated with its variable on {device.short_name}")


def _on_requested(ctx, devices, op, requested, dtype, supported) -> Decision:
    spec, remote = cluster_devices.resolve(DeviceSpec.from_string(requested))
    if remote:
        devices = list(devices) + list(remote)
    elif spec.job not in (None, LOCAL_JOB) or spec.replica not in (None, 0) or spec.task not in (None, 0):
        raise _unknown_device(requested)
    match = _first_match(devices, spec, supported)
    if match is not None:
        return _decision(op, match, dtype, "scope")
    why = _why_unsatisfied(devices, spec, op, dtype)
    if not ctx.soft_device_placement:
        raise _unsatisfiable(devices, op, requested, supported, why)
    fallback = _first_match(devices, spec.replace(device_type=None, device_index=None), supported)
    detail = f"requested {_short(requested)}: {why}"
    if ctx.strict_placement:
        raise strict_error(op, f"asked for {_short(requested)} and would fall back to {fallback.short_name} ({why})")
    log_fallback(op, _short(requested), fallback, why)
    return _decision(op, fallback, dtype, "soft fallback", detail)


def _by_default(ctx, devices, op, dtype, supported) -> Decision:
    device = _first_match(devices, DeviceSpec(), supported)
    if devices[0].device_type == device.device_type:
        return _decision(op, device, dtype, "default")
    detail = f"no {devices[0].device_type} kernel for {_dtype_name(dtype)}"
    if ctx.strict_placement:
        raise strict_error(op, f"would run on {device.short_name}: {detail}")
    return _decision(op, device, dtype, "kernel fallback", detail)


# -- shared with the graph placer ---------------------------------------------------------------------
def supported_types(op: str, dtype) -> list:
    """Device types with a kernel for `op` and `dtype`, in priority order (GPU first)."""
    return [t for t in registry.DEVICE_TYPE_PRIORITY if find_kernel(op, t, dtype) is not None]


def matching(devices, spec, types) -> list:
    """Devices of `types` (in that order of preference) that `spec` matches."""
    return [d for t in types for d in devices if d.device_type == t and is_complete_specification(spec, d.spec)]


def _first_match(devices, spec, supported):
    found = matching(devices, spec, supported)
    return found[0] if found else None


def log_fallback(who: str, requested: str, device, why: str) -> None:
    """The one warning a soft fallback logs: '<op> fell back from GPU:7 to GPU:0: <why>.'"""
    log.warning("%s fell back from %s to %s: %s.", who, requested, device.short_name, why)


def strict_error(op: str, what: str) -> errors.InvalidArgumentError:
    """The error strict placement raises instead of a fallback or an implicit copy."""
    return errors.InvalidArgumentError(None, None, (
        f"Strict placement: {op} {what}. [Op:{op}]\nplaceflow: place it explicitly with "
        "placeflow.device(...), or allow fallbacks with placeflow.config.experimental.set_strict_placement(False)."))


def _why_unsatisfied(devices, spec, op, dtype) -> str:
    if not any(is_complete_specification(spec, d.spec) for d in devices):
        return f"no device {_short(spec.to_string())} exists"
    return f"no {spec.device_type} kernel for {op} with {_dtype_name(dtype)}"


def _unsatisfiable(devices, op, requested, supported, why) -> errors.InvalidArgumentError:
    names = ", ".join(d.name for d in sorted(devices, key=lambda d: d.name))
    short_names = ", ".join(d.short_name for d in devices)
    return errors.InvalidArgumentError(None, None, (
        f"Could not satisfy device specification '{requested}'. enable_soft_placement=0. "
        f"Supported device types [{', '.join(supported)}]. All available devices [{names}]. [Op:{op}] name: \n"
        f"placeflow: {why} (devices here: {short_names}). Ask for one of those devices, or turn soft "
        "placement on with placeflow.config.set_soft_device_placement(True) to fall back automatically; "
        f"placeflow.config.experimental.list_kernels({op!r}) lists {op}'s kernels."))


def _unknown_device(requested: str) -> UnknownDeviceError:
    return UnknownDeviceError(None, None, (
        f"Error copying tensor to device: {requested}. {requested} unknown device.\n"
        f"placeflow: no connected task has this device; this process's devices are /job:{LOCAL_JOB}/replica:0/"
        "task:0's. Drop the job, replica and task from the name (e.g. '/device:GPU:0'), or connect to the "
        "cluster first: tf.config.experimental_connect_to_cluster(...)."))


def _not_allowed(op: str, dtype):
    """TensorFlow's InvalidArgumentError for a dtype the op does not admit at all (None when it does)."""
    definition = op_def(op)
    if definition is None or dtype is None or dtype in definition.allowed:
        return None
    names = sorted(definition.allowed, key=lambda t: t.name)
    listed = ", ".join(cpp_name(t) for t in names)
    enums = ", ".join(enum_name(t) for t in names)
    return errors.InvalidArgumentError(None, None, (
        f"Value for attr 'T' of {cpp_name(dtype)} is not in the list of allowed values: "
        f"{listed}\n\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; attr=T:type,allowed=[{enums}]> [Op:{op}]\n"
        f"placeflow: cast the input to one of the allowed types."))


def _no_kernel_anywhere(op: str, dtype) -> errors.NotFoundError:
    if op not in registered_ops():
        return errors.NotFoundError(None, None, f"Op type not registered '{op}' in placeflow. [Op:{op}]")
    kernels = "\n".join(f"  device='{t}'; T in [{', '.join(names)}]" for t, names in list_kernels(op))
    return errors.NotFoundError(None, None, (
        f"Could not find device for node: {{{{node {op}}}}} = {op}[T={_dtype_name(dtype)}]\n"
        f"All kernels registered for op {op}:\n{kernels}\n [Op:{op}]\n"
        f"placeflow: {op} has no kernel for {_dtype_name(dtype)}; cast the input to one of the types above."))


def _short(name: str) -> str:
    return name.rsplit("/", 1)[-1].replace("device:", "") if "/device:" in name else name


def _dtype_name(dtype) -> str:
    return "no dtype" if dtype is None else dtype.name
