"""The graph placer (seed 003's simple placer): where each graph node runs, decided once and kept.

It applies the placement policy (policy.py: kernel types, device matching, the fallback warning,
strict placement) to colocation groups instead of single ops:

1. a node placed in an earlier run stays there; so does a node pinned to a resource's device;
2. nodes that must share a device (a variable with its reads and assigns, `colocate_with`) form
   a group, placed together;
3. a group with a requested device goes there when it exists and has kernels for every member;
   with soft placement the type and index are dropped and the best remaining device is used;
4. otherwise GPU:0, or the CPU when there is no GPU or no GPU kernel;
5. constants and placeholders follow their consumers when those all share a device.
"""

from __future__ import annotations

from ..config.placement_log import ensure_handler, logger as placement_logger
from ..framework import errors
from ..framework.device_spec import DeviceSpec, is_complete_specification
from ..framework.dtypes import enum_name
from ..ops.registry import list_kernels
from ..runtime import registry
from . import cluster_devices
from .policy import log_fallback, matching, strict_error, supported_types

GENERATORS = frozenset({"Const", "Placeholder"})
METADATA = frozenset({"Shape", "Size", "Rank"})
REF_CONSUMERS = frozenset({"Assign", "AssignAdd", "AssignSub"})


class _Group:
    """Nodes that must share one device, with their merged request and common kernel types."""

    __slots__ = ("members", "requested", "assigned", "types", "device", "reason")

    def __init__(self):
        self.members, self.requested, self.assigned, self.types, self.device = [], None, None, None, None
        self.reason = ("default", "")


class _Policy:
    """What the placer may do: soft fallbacks, strict placement (fallbacks become errors)."""

    __slots__ = ("soft", "strict")

    def __init__(self, soft: bool, strict: bool):
        self.soft, self.strict = soft, strict


def place(ops, placed: dict, ctx, soft: bool, log_placement: bool, reasons: dict | None = None) -> dict:
    """Assign a runtime device to every op of `ops` not in `placed`; returns `placed`. `reasons`, when
    given, gets (reason, detail) per newly placed op, for the placement report.

    `placed` is updated only when every op could be placed: an error leaves it as it was.
    """
    devices = registry.devices(ctx)
    if all(op in placed for op in ops):
        return placed
    why: dict = {}
    assigned = _assign(ops, dict(placed), devices, _Policy(soft, ctx.strict_placement), why)
    new = [op for op in assigned if op not in placed]
    placed.update(assigned)
    if reasons is not None:
        reasons.update(why)
    if log_placement:
        ensure_handler()
        for op in new:
            placement_logger.info("%s: (%s): %s", op.name, op.type, placed[op].name)
    return placed


def _assign(ops, placed, devices, policy, why) -> dict:
    """Pass 1 in node order (generators deferred), pass 2 for generators; returns {op: device} in that order."""
    todo = [op for op in ops if op not in placed]
    groups = _colocation_groups(ops, placed, policy.soft)
    deferred = []
    order = []
    for op in todo:
        if op.type in GENERATORS and not op.inputs and groups[op].device is None:
            deferred.append(op)
            continue
        placed[op] = _place_group(groups[op], op, devices, policy, placed)
        why[op] = groups[op].reason
        order.append(op)
    consumers = _consumer_map(ops) if deferred else {}
    for op in deferred:
        group = groups[op]
        if group.device is None:
            group.device = _follow_consumers(op, consumers.get(op, ()), group, devices, policy, placed)
        placed[op] = group.device
        why[op] = group.reason
        order.append(op)
    return {op: placed[op] for op in order}


# -- colocation groups -------------------------------------------------------------------------------
def _colocation_groups(ops, placed, soft) -> dict:
    parent = {op: op for op in ops}

    def root(op):
        """The representative of `op`'s group (with path halving)."""
        while parent[op] is not op:
            parent[op] = parent[parent[op]]
            op = parent[op]
        return op

    by_group_name = {}
    for op in ops:
        for name in op._colocation:
            first = by_group_name.setdefault(name, op)
            if first is not op:
                parent[root(op)] = root(first)
        for index, tensor in enumerate(op.inputs):
            source = tensor.op
            if source.type == "VariableV2" and source in parent and (op.type in REF_CONSUMERS and index == 0):
                parent[root(op)] = root(source)
    groups = {}
    for op in ops:
        group = groups.setdefault(root(op), _Group())
        group.members.append(op)
        groups[op] = group
    for group in {id(g): g for g in groups.values()}.values():
        _merge_group(group, placed, soft)
    return groups


def _merge_group(group: _Group, placed: dict, soft: bool) -> None:
    """Merge the members' devices: assigned and resource devices strictly, requests loosely under soft."""
    types = None
    for op in group.members:
        fixed = placed.get(op) or op.attrs.get("_pinned_device")
        if fixed is not None:
            name = fixed.name if hasattr(fixed, "name") else fixed
            if group.assigned is not None and group.assigned != name:
                raise _assigned_conflict(group, op, name)
            group.assigned = name
        if op.device:
            spec = DeviceSpec.from_string(op.device)
            group.requested = spec if group.requested is None else _merge_requests(group, op, spec, soft)
        supported = supported_types(op.type, op.dtype)
        types = supported if types is None else [t for t in types if t in supported]
    group.types = types or []


def _merge_requests(group, op, spec, soft) -> DeviceSpec:
    merged = list(group.requested._fields)
    for i, value in enumerate(spec._fields):
        if value is None:
            continue
        if merged[i] is not None and merged[i] != value:
            if not soft:
                raise errors.InvalidArgumentError(None, None, (
                    f"Cannot colocate nodes {{{{colocation_node {group.members[0].name}}}}} and "
                    f"{{{{colocation_node {op.name}}}}}: Cannot merge devices with incompatible "
                    f"{'types' if i == 3 else 'ids' if i == 4 else 'fields'}: '{group.requested.to_string()}' "
                    f"and '{spec.to_string()}'\nplaceflow: nodes colocated with each other (a variable and its "
                    "ops, or colocate_with) must ask for the same device; fix one request, or allow soft placement."))
            merged[3:5] = [None, None] if i >= 3 else merged[3:5]
            continue
        merged[i] = value
    return DeviceSpec._from_fields(tuple(merged))


# -- choosing a device -------------------------------------------------------------------------------
def _place_group(group: _Group, op, devices, policy, placed):
    if group.device is not None:
        return group.device
    if group.assigned is not None:
        group.device = next(d for d in devices if d.name == group.assigned)
        group.reason = ("assigned", f"pinned to {group.device.short_name} (a resource or an earlier run)")
        return group.device
    candidates = _candidates(group, op, devices, policy)
    if op.type in METADATA and op.inputs and placed.get(op.inputs[0].op) in candidates:
        group.device = placed[op.inputs[0].op]
    else:
        group.device = candidates[0]
    return group.device


def _candidates(group: _Group, op, devices, policy) -> list:
    if not group.types:
        raise _no_kernel(op, group)
    spec = group.requested
    if spec is None or not spec.to_string():
        found = matching(devices, DeviceSpec(), group.types)
        if found[0].device_type != devices[0].device_type:
            detail = f"no {devices[0].device_type} kernel for {_type_name(op.dtype)}"
            if policy.strict:
                raise strict_error(op.type, f"({op.name}) would run on {found[0].short_name}: {detail}")
            group.reason = ("kernel fallback", detail)
        return found
    spec, remote = cluster_devices.resolve(spec)
    devices = list(devices) + list(remote) if remote else devices
    found = matching(devices, spec, group.types)
    if found:
        group.reason = ("scope", "")
        return found
    if not policy.soft:
        raise _unsatisfiable(op, group, spec, devices)
    loose = matching(devices, spec.replace(device_type=None, device_index=None), group.types)
    if not loose:
        loose = matching(devices, DeviceSpec(), group.types)
    why, requested = _why(devices, spec, group), spec.to_string()
    if policy.strict:
        raise strict_error(op.type, f"({op.name}) asked for {requested} and would fall back to "
                                    f"{loose[0].short_name} ({why})")
    log_fallback(f"{op.name} ({op.type})", requested, loose[0], why)
    group.reason = ("soft fallback", f"requested {requested}: {why}")
    return loose


def _follow_consumers(op, consumers, group, devices, policy, placed):
    candidates = _candidates(group, op, devices, policy)
    used = {placed[c] for c in consumers if c in placed}
    if len(used) == 1:
        device = used.pop()
        if device in candidates:
            if device is not candidates[0]:
                group.reason = ("colocation", "follows its consumers")
            return device
    return candidates[0]


def _consumer_map(ops) -> dict:
    consumers: dict = {}
    for op in ops:
        for tensor in op.inputs:
            consumers.setdefault(tensor.op, []).append(op)
    return consumers


# -- errors (TensorFlow's texts, then what to do) ----------------------------------------------------
def _available(devices) -> str:
    return ", ".join(d.name for d in sorted(devices, key=lambda d: d.name))


def _why(devices, spec, group) -> str:
    if not any(is_complete_specification(spec, d.spec) for d in devices):
        return f"no device matches {spec.to_string()}"
    return f"no {spec.device_type} kernel for every op of its group"


def _unsatisfiable(op, group, spec, devices) -> errors.InvalidArgumentError:
    requested = spec.to_string()
    if not any(is_complete_specification(spec, d.spec) for d in devices):
        detail = (f"Could not satisfy explicit device specification '{requested}' because no devices matching "
                  f"that specification are registered in this process; available devices: {_available(devices)}")
        if spec.device_type == "GPU" and not any(d.device_type == "GPU" for d in devices):
            detail += ". The requested device appears to be a GPU, but CUDA is not enabled."
        fix = ("ask for a device listed above, or create the session with "
               "ConfigProto(allow_soft_placement=True) to fall back to an existing device")
    else:
        members = "\n".join(f"  {m.name} ({m.type}) {m.device}" for m in group.members)
        detail = (f"Could not satisfy explicit device specification '{requested}' because no supported kernel for "
                  f"{spec.device_type} devices is available.\nColocation Debug Info:\nColocation group had the "
                  f"following types and supported devices: \n{_type_table(group)}\nColocation members, "
                  f"user-requested devices, and framework assigned devices, if any:\n{members}\n"
                  f"Op: {op.type}\nNode attrs: dtype={enum_name(op.dtype)}\nRegistered kernels:\n"
                  + "\n".join(f"  device='{t}'; T in [{', '.join(n)}]" for t, n in list_kernels(op.type)))
        fix = (f"{spec.device_type} has no {op.type} kernel for {enum_name(op.dtype)}: change the dtype "
               f"(e.g. a float32 variable), pin it to the CPU, or allow soft placement")
    return errors.InvalidArgumentError(None, None, (
        f"Cannot assign a device for operation {op.name}: {detail}\n\t [[{{{{node {op.name}}}}}]]\n"
        f"placeflow: {fix}."))


def _type_table(group) -> str:
    rows = []
    for member in group.members:
        types = supported_types(member.type, member.dtype)
        rows.append(f"{member.type}: {' '.join(types)} ")
    return "\n".join(dict.fromkeys(rows))


def _no_kernel(op, group) -> errors.InvalidArgumentError:
    if len(group.members) > 1:
        names = ", ".join(f"{m.name} ({m.type})" for m in group.members)
        return errors.InvalidArgumentError(None, None, (
            f"Cannot assign a device for operation {op.name}: Cannot colocate nodes because no device type "
            f"supports all of them: {names}.\nColocation Debug Info:\n{_type_table(group)}\n"
            "placeflow: change the dtype of the variable or ops so one device type has kernels for all of them."))
    return errors.InvalidArgumentError(None, None, (
        f"No OpKernel was registered to support Op '{op.type}' used by {{{{node {op.name}}}}} with these attrs: "
        f"[T={enum_name(op.dtype)}]\nRegistered devices: [{', '.join(registry.DEVICE_TYPE_PRIORITY)}]\n"
        "Registered kernels:\n" + ("\n".join(f"  device='{t}'; T in [{', '.join(n)}]"
                                             for t, n in list_kernels(op.type)) or "  <no registered kernels>")
        + f"\nplaceflow: cast the input of {op.name} to a dtype listed above."))


def _assigned_conflict(group, op, name) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, (
        f"Cannot place the graph because a reference or resource edge connects colocation groups with "
        f"incompatible assigned devices: {group.assigned} vs {name}. The edge src node is "
        f"{group.members[0].name} , and the dst node is {op.name}\nplaceflow: ops on one variable must run on "
        "its device; do not colocate ops of variables living on different devices."))


def _type_name(dtype) -> str:
    return "no dtype" if dtype is None else dtype.name
