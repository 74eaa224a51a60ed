"""placeflow.device: the `with device(...)` scope (strings, DeviceSpec, LogicalDevice, functions, None)."""

from __future__ import annotations

from . import scope as scope_module


class device:  # noqa: N801 - TensorFlow's public name
    """Run the ops created inside on a device: a name, a DeviceSpec, a device function or None (clear).

    Scopes are per thread and nest field by field ('/GPU:1' then 'CPU' gives CPU:1). Unlike
    TensorFlow 2, device functions work in eager mode too: called with each op, they return a
    device name (or None to leave the op to the enclosing scopes).
    """

    __slots__ = ("_device", "_token", "_scope")

    def __init__(self, device_name_or_function):
        self._device = device_name_or_function
        self._token = None
        self._scope = None

    def __enter__(self):
        parent = scope_module.current.get()
        self._scope = scope_module.make_scope(self._device, parent)
        self._token = scope_module.current.set(self._scope)
        return self

    def __exit__(self, *exc_info):
        if scope_module.current.get() is not self._scope:
            raise RuntimeError("Exiting device scope without proper scope nesting")
        scope_module.current.reset(self._token)
        return False
