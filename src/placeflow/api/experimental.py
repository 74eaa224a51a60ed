"""placeflow.experimental: the placement report, the memory summary and DLPack."""

from ..placement.report import PlacementReport, placement_report  # noqa: F401
from ..placement.report import reset as reset_placement_report  # noqa: F401
from . import dlpack, dtensor  # noqa: F401
from .optional import Optional  # noqa: F401
from . import tnp as numpy  # noqa: F401
