"""Public namespaces that TensorFlow puts in a lower layer but whose functions live higher up.

`tf.config.experimental` is the config layer's module, yet `list_kernels` belongs to ops, the
placer choice to placement and the memory queries to runtime; `tf.experimental.memory_summary` is a tools view. The facade adds them
here, so the layers themselves never import upward.
"""

from .api import experimental as _experimental
from .api import autograph as _autograph
from .api import nn as _nn
from .graph import function as _function_module
from . import config as _config
from .graph.function import functions_run_eagerly, run_functions_eagerly
from .distribute.loss_scaling import compute_average_loss, scale_regularization_loss
from .config import experimental as _config_experimental
from .api.math_ops import cast, saturate_cast
from .framework import dtypes as _dtypes
from .ops.registry import list_kernels
from .placement.placers import get_placer, set_placer
from .runtime import memory_queries
from .tools.memory_view import memory_summary

_config_experimental.list_kernels = list_kernels
_config_experimental.set_placer, _config_experimental.get_placer = set_placer, get_placer
from .perf.models import get_performance_model, preset_memories, set_performance_model  # noqa: E402
from .config import simulated as _simulated  # noqa: E402

_config_experimental.set_performance_model = set_performance_model
_config_experimental.get_performance_model = get_performance_model
_simulated.preset_memories = preset_memories  # PLACEFLOW_SIMULATED_GPUS=8:H100 (config sits below perf)
from .api import check_numerics as _check_numerics  # noqa: E402

for _name in ("enable_op_determinism", "enable_tensor_float_32_execution", "tensor_float_32_execution_enabled"):
    setattr(_config_experimental, _name, getattr(_check_numerics, _name))
_dtypes.cast, _dtypes.saturate_cast = cast, saturate_cast
for _name in ("get_memory_info", "get_memory_usage", "memory_stats", "release_unused_memory", "reset_memory_stats"):
    setattr(_config_experimental, _name, getattr(memory_queries, _name))
_experimental.memory_summary = memory_summary
_nn.compute_average_loss, _nn.scale_regularization_loss = compute_average_loss, scale_regularization_loss
_config.run_functions_eagerly, _config.functions_run_eagerly = run_functions_eagerly, functions_run_eagerly
_function_module.autograph_converter = _autograph.convert

from .distribute import remote as _remote  # noqa: E402

_config.experimental_connect_to_cluster = _remote.connect_to_cluster
_config.experimental_connect_to_host = _remote.connect_to_host
