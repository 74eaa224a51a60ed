"""placeflow.device: the `with device(...)` scope (its class lives with the other scopes, in placement)."""

from ..placement.device_scope import device  # noqa: F401
