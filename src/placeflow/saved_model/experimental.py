"""tf.saved_model.experimental: the base class of resources a SavedModel tracks, fingerprints and VariablePolicy."""

from ..api.misc_names import Fingerprint, VariablePolicy, read_fingerprint  # noqa: F401
from ..framework.tracking import AutoTrackable


class TrackableResource(AutoTrackable):
    """A resource (a lookup table, ...) that a SavedModel tracks; placeflow's own resources are not of this kind
    (they are saved through the objects that hold them)."""

    def __init__(self, device=""):
        super().__init__()
        self._resource_device = device

    @property
    def resource_handle(self):
        """The resource itself (placeflow has no separate handles)."""
        return self
