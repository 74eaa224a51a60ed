"""Device scopes: `with device(...)` per thread (contextvars), merged field by field as in TensorFlow."""

from __future__ import annotations

import contextvars

from ..framework.device_spec import DeviceSpec

CPU_BASE = DeviceSpec.from_string("/job:localhost/replica:0/task:0/device:CPU:0")
EMPTY = DeviceSpec()


class Scope:
    """One active device scope: a merged full name, a device function, or a cleared scope."""

    __slots__ = ("key", "spec", "fn", "parent", "user")

    def __init__(self, key, spec, fn, parent, user=None):
        self.key = key        # the merged device name string; None when unscoped or a function decides
        self.spec = spec      # DeviceSpec of key
        self.fn = fn          # device function called with each op, or None
        self.parent = parent  # the enclosing Scope (or None)
        self.user = user      # DeviceSpec of only the fields the user gave (a graph op's requested device)


current = contextvars.ContextVar("placeflow_device_scope", default=None)


def _as_spec(device) -> DeviceSpec:
    """A DeviceSpec from a name, a DeviceSpec, or anything with a `.name` (LogicalDevice)."""
    if isinstance(device, DeviceSpec):
        return device
    name = getattr(device, "name", None)
    return DeviceSpec.from_string(name if isinstance(name, str) and not isinstance(device, str) else device)


def make_scope(device, parent: Scope | None) -> Scope:
    """The scope `with device(device)` opens inside `parent`."""
    if device is None:
        return Scope(None, None, None, parent)
    if callable(device) and not isinstance(device, (str, DeviceSpec)):
        return Scope(None, None, device, parent)
    spec = _as_spec(device)
    if spec.to_string() == "":
        return parent if parent is not None else Scope(None, None, None, None)
    base = parent.spec if parent is not None and parent.spec is not None else CPU_BASE
    merged = base.make_merged_spec(spec)
    user_base = parent.user if parent is not None and parent.user is not None else EMPTY
    return Scope(merged.to_string(), merged, None, parent, user_base.make_merged_spec(spec))


def resolve(scope: Scope, op_info) -> str | None:
    """The requested device name for one op under `scope` (calls device functions)."""
    chosen, scope = _ask_functions(scope, op_info, "spec", CPU_BASE)
    if chosen is not None:
        return chosen.to_string()
    return scope.key if scope is not None else None


def requested_in_graph(scope: Scope | None, op) -> str:
    """The device string a graph op records under `scope`: only the fields the user gave ('' if none)."""
    chosen, scope = _ask_functions(scope, op, "user", EMPTY)
    if chosen is not None:
        return chosen.to_string()
    return scope.user.to_string() if scope is not None and scope.user is not None else ""


def _ask_functions(scope, op, field: str, default: DeviceSpec):
    """(merged answer of the innermost device function that names a device, None) or (None, first plain scope)."""
    while scope is not None and scope.fn is not None:
        chosen = scope.fn(op)
        if chosen:
            return _outer(scope.parent, field, default).make_merged_spec(_as_spec(chosen)), None
        scope = scope.parent
    return None, scope


def _outer(scope: Scope | None, field: str, default: DeviceSpec) -> DeviceSpec:
    """The nearest enclosing scope's spec (`field` 'spec': full name, 'user': the user's fields)."""
    while scope is not None:
        value = getattr(scope, field)
        if value is not None:
            return value
        if scope.fn is None:
            break
        scope = scope.parent
    return default
