"""placeflow.debugging: placement logging, assertions and check_numerics."""

from .api.debugging_ops import (  # noqa: F401
    Assert, assert_equal, assert_greater, assert_greater_equal, assert_less, assert_less_equal, assert_none_equal,
    assert_rank, check_numerics,
)
from .api.assertions import (  # noqa: F401
    assert_all_finite, assert_integer, assert_near, assert_negative, assert_non_negative, assert_non_positive,
    assert_positive, assert_proper_iterable, assert_rank_at_least, assert_rank_in, assert_same_float_dtype,
    assert_scalar, assert_type, is_numeric_tensor,
)
from .api.shape_assertions import assert_shapes  # noqa: F401
from .api.check_numerics import disable_check_numerics, enable_check_numerics  # noqa: F401
from .config.api import get_log_device_placement, set_log_device_placement  # noqa: F401
from .graph.error_layout import (  # noqa: F401
    disable_traceback_filtering, enable_traceback_filtering, is_traceback_filtering_enabled,
)
