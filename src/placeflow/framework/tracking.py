"""Object dependencies (TF's Trackable and AutoTrackable): what a checkpoint walks; Keras 3 builds on them.

Keras's callers: backend/tensorflow/trackable.py (`KerasAutoTrackable(AutoTrackable)`, `_track_trackable`),
backend/tensorflow/core.py (`Variable(..., Trackable)`), backend/tensorflow/layer.py
(`no_automatic_dependency_tracking`, `_trackable_children`). placeflow keeps the dependency graph
as TF does (named children per object); it is what a checkpoint of Keras objects walks.
"""

from __future__ import annotations

import functools


class Trackable:
    """An object with named dependencies on other trackables."""

    @property
    def _setattr_tracking(self) -> bool:
        return getattr(self, "_self_setattr_tracking", True)

    @_setattr_tracking.setter
    def _setattr_tracking(self, value) -> None:
        object.__setattr__(self, "_self_setattr_tracking", bool(value))

    def _maybe_initialize_trackable(self) -> None:
        if "_self_unconditional_dependencies" not in self.__dict__:
            object.__setattr__(self, "_self_unconditional_dependencies", {})

    def _track_trackable(self, trackable, name, overwrite=False):
        """Record `trackable` as this object's dependency called `name`; returns it."""
        self._maybe_initialize_trackable()
        dependencies = self.__dict__["_self_unconditional_dependencies"]
        if not overwrite and name in dependencies and dependencies[name] is not trackable:
            raise ValueError(f"Called Trackable._track_trackable() with name='{name}', but a Trackable with "
                             "this name is already declared as a dependency. Names must be unique "
                             "(or overwrite=True).")
        dependencies[name] = trackable
        pending = self.__dict__.get("_self_pending_restores")
        if pending and name in pending:
            for restore in pending.pop(name):
                restore(trackable)
        return trackable

    def _defer_restore(self, name: str, restore) -> None:
        """Call `restore(child)` when a dependency called `name` is added (a checkpoint restored before the
        object that holds the value existed: TF's restore-on-create)."""
        if "_self_pending_restores" not in self.__dict__:
            object.__setattr__(self, "_self_pending_restores", {})
        self.__dict__["_self_pending_restores"].setdefault(name, []).append(restore)

    def _trackable_children(self, save_type="checkpoint", **kwargs) -> dict:
        """{name: child trackable} of this object (the checkpoint view; TF's SavedModel options are refused)."""
        if kwargs:
            raise TypeError(f"_trackable_children() got unsupported arguments {sorted(kwargs)}; placeflow supports "
                            "save_type only")
        self._maybe_initialize_trackable()
        return dict(self.__dict__["_self_unconditional_dependencies"])


class NoDependency:
    """Wraps a value assigned to an attribute so that it is not tracked (and lists/dicts are not wrapped)."""

    def __init__(self, value):
        self.value = value


def wrap_or_unwrap(value):
    """`value` as tracking stores it: a NoDependency unwrapped, an exact list/dict wrapped so that its
    trackable elements become dependencies (TF's rule: subclasses such as Keras's TrackedList stay as they are)."""
    from . import tracked_structures as data_structures
    return data_structures.wrap_or_unwrap(value)


def sticky_attribute_assignment(trackable, name, value):
    """Track `value` as `trackable`'s dependency `name` when it is trackable; returns what to store."""
    if isinstance(value, NoDependency):
        return value.value
    value = wrap_or_unwrap(value)
    if isinstance(value, Trackable):
        trackable._track_trackable(value, name=name, overwrite=True)
    elif isinstance(value, tuple):
        from . import tracked_structures as data_structures
        view = data_structures.tuple_view(value)
        if view is not None:
            trackable._track_trackable(view, name=name, overwrite=True)
    return value


class AutoTrackable(Trackable):
    """A Trackable that tracks every trackable assigned to one of its attributes (lists and dicts too)."""

    def __setattr__(self, name, value):
        try:
            if getattr(self, name) is value:
                return
        except AttributeError:
            pass
        if getattr(self, "_self_setattr_tracking", True) and not name.startswith("_self_"):
            value = sticky_attribute_assignment(self, name, value)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self._maybe_initialize_trackable()
        self.__dict__["_self_unconditional_dependencies"].pop(name, None)
        object.__delattr__(self, name)


def no_automatic_dependency_tracking(method):
    """Run `method` with attribute tracking off on its object (TF's decorator of the same name)."""

    @functools.wraps(method)
    def wrapped(self, *args, **kwargs):
        previous = getattr(self, "_self_setattr_tracking", True)
        object.__setattr__(self, "_self_setattr_tracking", False)
        try:
            return method(self, *args, **kwargs)
        finally:
            object.__setattr__(self, "_self_setattr_tracking", previous)

    return wrapped
