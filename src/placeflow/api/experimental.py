"""placeflow.experimental: the placement report, the memory summary and DLPack."""

from ..placement.report import PlacementReport, placement_report  # noqa: F401
from ..placement.report import reset as reset_placement_report  # noqa: F401
from . import dlpack, dtensor  # noqa: F401
from .optional import Optional  # noqa: F401
from . import tnp as numpy  # noqa: F401
from . import extension_type  # noqa: F401  (tf.experimental.extension_type.as_dict)
from .extension_type import (  # noqa: F401
    BatchableExtensionType, ExtensionType, ExtensionTypeBatchEncoder, ExtensionTypeSpec,
)
from .dispatch import (  # noqa: F401
    dispatch_for_api, dispatch_for_binary_elementwise_apis, dispatch_for_binary_elementwise_assert_apis,
    dispatch_for_unary_elementwise_apis, unregister_dispatch_for,
)
from .experimental_more import async_clear_error, async_scope, enable_strict_mode, function_executor_type  # noqa: F401
from .row_partition import DynamicRaggedShape, RowPartition  # noqa: F401
from ..framework.dtypes import (  # noqa: F401,E402 - tf.experimental's narrow dtypes (misc-names)
    float4_e2m1fn, float8_e4m3b11fnuz, float8_e4m3fn, float8_e4m3fnuz, float8_e5m2, float8_e5m2fnuz, int2, int4, uint2,
    uint4,
)
