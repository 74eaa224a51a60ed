"""placeflow.data.experimental: prefetch_to_device, AUTOTUNE, AutoShardPolicy, cardinality constants."""

from .dataset import AUTOTUNE, prefetch_to_device  # noqa: F401
from .options import (  # noqa: F401
    AutoShardPolicy, AutotuneOptions, DistributeOptions, ExternalStatePolicy, OptimizationOptions, ThreadingOptions,
)

INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


def cardinality(dataset):
    """The dataset's number of elements (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY)."""
    return dataset.cardinality()
