"""placeflow.debugging: placement logging, assertions and check_numerics."""

from .api.debugging_ops import (  # noqa: F401
    Assert, assert_equal, assert_greater, assert_greater_equal, assert_less, assert_less_equal, assert_none_equal,
    assert_rank, check_numerics,
)
from .config.api import get_log_device_placement, set_log_device_placement  # noqa: F401
