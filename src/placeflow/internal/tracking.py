"""`tf.__internal__.tracking`: the object-dependency bases Keras 3 builds on.

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
        return trackable

    def _trackable_children(self, save_type="checkpoint", **kwargs) -> dict:
        """{name: child trackable} of this object (the checkpoint view; TF's SavedModel options are refused)."""
        if kwargs:
            raise TypeError(f"_trackable_children() got unsupported arguments {sorted(kwargs)}; placeflow supports "
                            "save_type only")
        self._maybe_initialize_trackable()
        return dict(self.__dict__["_self_unconditional_dependencies"])


class AutoTrackable(Trackable):
    """A Trackable that tracks every trackable assigned to one of its attributes."""

    def __setattr__(self, name, value):
        if getattr(self, "_self_setattr_tracking", True) and isinstance(value, Trackable) \
                and not name.startswith("_self_"):
            self._track_trackable(value, name, overwrite=True)
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
