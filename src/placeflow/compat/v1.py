"""placeflow.compat.v1: TensorFlow 1 names (graphs, sessions, ConfigProto); any other name is placeflow's own."""

from .. import train
from ..config.proto import ConfigProto, GPUOptions, apply_config
from ..eager.variables import Variable
from ..framework.device_spec import DeviceSpecV1 as DeviceSpec
from ..graph.gradients import gradients
from ..graph.graph import Graph, Operation, Tensor, get_default_graph, reset_default_graph
from ..graph.session import InteractiveSession, Session, get_default_session
from ..graph.step_stats import RunMetadata, RunOptions
from ..graph.v1_api import (
    colocate_with, control_dependencies, disable_eager_execution, executing_eagerly, group, name_scope, no_op,
    placeholder,
)
from ..graph.variable_scope import AUTO_REUSE, get_variable, variable_scope
from ..graph.v1_api import placeholder_with_default
from ..api.script_ops import py_func
from ..api.control_flow import cond_v1 as cond, while_loop_v1 as while_loop
from .summary_metadata import SummaryMetadata
from .v1_namespaces import data, ragged, random  # noqa: F401 - TF1's data/random/ragged names beside TF2's
from ..api.random import set_seed as set_random_seed  # TF1's name; eagerly the same global seed as tf.random.set_seed
from ..api.tf1_values import SparseTensorValue  # noqa: F401 - what a TF1 Session returns for a SparseTensor
from ..api.ctc import compat_v1_nn as nn  # noqa: F401 - placeflow.nn with TF1's CTC signatures
from ..init_ops import (
    Constant as constant_initializer, GlorotUniform as glorot_uniform_initializer, Ones as ones_initializer,
    RandomNormal as random_normal_initializer, RandomUniform as random_uniform_initializer,
    Zeros as zeros_initializer,
)
from ..graph.variables import (
    global_variables, global_variables_initializer, trainable_variables, variables_initializer,
)

__all__ = ["AUTO_REUSE", "colocate_with", "cond", "while_loop", "ConfigProto", "constant_initializer", "control_dependencies",
           "DeviceSpec", "disable_eager_execution", "enable_eager_execution", "executing_eagerly",
           "get_default_graph", "get_default_session", "get_variable", "global_variables",
           "global_variables_initializer", "glorot_uniform_initializer", "GPUOptions", "gradients", "Graph", "group",
           "InteractiveSession", "name_scope", "no_op", "ones_initializer", "Operation", "placeholder",
           "placeholder_with_default", "py_func", "random_normal_initializer", "random_uniform_initializer",
           "reset_default_graph", "RunMetadata", "RunOptions", "Session", "set_random_seed", "SparseTensorValue",
           "SummaryMetadata", "Tensor", "train", "trainable_variables",
           "Variable", "variable_scope", "variables_initializer", "zeros_initializer"]


_DEVICE_POLICIES = {0: "explicit", 1: "warn", 2: "silent", 3: "silent_for_int32"}  # TF's DEVICE_PLACEMENT_* values


def enable_eager_execution(config=None, device_policy=None, execution_mode=None) -> None:
    """Eager execution is on unless disabled; a ConfigProto configures devices, memory and threads, and
    `device_policy` (TF's DEVICE_PLACEMENT_* value or its name) the implicit copies between devices."""
    from ..config.api import set_device_policy
    from ..graph.v1_api import enable_eager_execution_again
    if execution_mode not in (None, 0, "sync"):
        raise NotImplementedError(f"enable_eager_execution(execution_mode={execution_mode!r}): placeflow runs eager "
                                  f"ops synchronously only; leave execution_mode at SYNC.")
    enable_eager_execution_again()
    apply_config(config)
    if device_policy is not None:
        set_device_policy(_DEVICE_POLICIES.get(device_policy, device_policy))


def initialize_all_variables():
    """Deprecated TensorFlow 1 name of global_variables_initializer()."""
    return global_variables_initializer()


def __getattr__(name):
    import placeflow
    from .v1_root import resolve
    tf1_only = resolve(name)   # a TF1-only root name: placeflow's TF2 function of it, an adapter, or a refusal
    if tf1_only is not None:
        return tf1_only
    try:
        return getattr(placeflow, name)
    except AttributeError:
        raise AttributeError(f"placeflow.compat.v1 has no attribute {name!r}; placeflow supports the TensorFlow 1 "
                             f"names listed in placeflow.compat.v1.__all__ and placeflow's own API.") from None
