"""`tf.__internal__.tracking`: the object-dependency bases Keras 3 builds on (framework/tracking.py).

Keras's callers: backend/tensorflow/trackable.py (`KerasAutoTrackable(AutoTrackable)`, `_track_trackable`),
backend/tensorflow/core.py (`Variable(..., Trackable)`), backend/tensorflow/layer.py
(`no_automatic_dependency_tracking`, `_trackable_children`)."""

from ..framework.tracking import (AutoTrackable, NoDependency, Trackable,  # noqa: F401
                                  no_automatic_dependency_tracking, sticky_attribute_assignment, wrap_or_unwrap)
