"""Public namespaces that TensorFlow puts in a lower layer but whose functions live higher up.

`tf.config.experimental` is the config layer's module, yet `list_kernels` belongs to ops and the
memory queries to runtime; `tf.experimental.memory_summary` is a tools view. The facade adds them
here, so the layers themselves never import upward.
"""

from .api import experimental as _experimental
from .config import experimental as _config_experimental
from .ops.registry import list_kernels
from .runtime import memory_queries
from .tools.memory_view import memory_summary

_config_experimental.list_kernels = list_kernels
for _name in ("get_memory_info", "get_memory_usage", "memory_stats", "release_unused_memory", "reset_memory_stats"):
    setattr(_config_experimental, _name, getattr(memory_queries, _name))
_experimental.memory_summary = memory_summary
