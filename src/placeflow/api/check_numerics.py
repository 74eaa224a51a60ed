"""Process-wide debugging and determinism switches: tf.debugging.enable_check_numerics / disable_check_numerics,
tf.config.experimental.enable_op_determinism and the TensorFloat-32 switch, tf.autograph's verbosity and loop
options, and tf.autograph.experimental.Feature.

After enable_check_numerics, every eager op whose floating-point output holds an infinity or NaN raises
InvalidArgumentError naming the op, as TensorFlow's does (ops that only move values, such as Reshape, Identity and
constants, are not checked, as in TF). The check is a hook in eager dispatch (eager/execute.py), which costs one
global read per op while disabled. It sees eager ops only: while it is on, running a traced `placeflow.function`
or a Session step raises NotImplementedError (graph/pipeline.py) rather than skip the check TensorFlow makes there."""

from __future__ import annotations

import enum

import numpy as np

from ..config.context import context
from ..eager import execute as execute_module
from ..framework import dtypes, errors

_FLOATS = frozenset({dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64})
_MOVES_ONLY = frozenset({
    "_EagerConst", "Const", "Identity", "IdentityN", "Snapshot", "Reshape", "ExpandDims", "Squeeze", "Concat",
    "ConcatV2", "Fill", "Slice", "StridedSlice", "Transpose", "Placeholder", "Shape", "ShapeN", "ZerosLike",
    "OnesLike",
})


def enable_check_numerics(stack_height_limit=30, path_length_limit=50) -> None:
    """From now on, an eager op producing an infinity or NaN in a floating-point output raises InvalidArgumentError."""
    if (stack_height_limit, path_length_limit) != (30, 50):
        raise NotImplementedError("enable_check_numerics's stack_height_limit and path_length_limit are not "
                                  "implemented in placeflow: they shape the creation stack TensorFlow prints for "
                                  "graph ops, and placeflow checks eager ops only; leave them at 30 and 50.")
    execute_module.numerics_check = _check_outputs


def disable_check_numerics() -> None:
    """Stop checking ops' outputs for infinities and NaNs (a no-op when checking is off)."""
    execute_module.numerics_check = None


def _check_outputs(op, inputs, outputs) -> None:
    if op in _MOVES_ONLY:
        return
    listed = outputs if isinstance(outputs, list) else [outputs]
    for index, tensor in enumerate(listed):
        if tensor.dtype in _FLOATS:
            values = np.asarray(tensor.numpy(), dtype=np.float64)
            if not np.all(np.isfinite(values)):
                raise _numerics_error(op, index, len(listed), tensor, values, inputs)


def _numerics_error(op, index, count, tensor, values, inputs):
    counts = [("-Inf", int(np.sum(np.isneginf(values)))), ("+Inf", int(np.sum(np.isposinf(values)))),
              ("NaN", int(np.sum(np.isnan(values))))]
    found = "\n".join(f"  # of {kind} elements: {n}" for kind, n in counts if n)
    shown = "\n".join(f"         {i}: {t!r}" for i, t in enumerate(inputs))
    listing = f"  Input tensor: {inputs[0]!r}" if len(inputs) == 1 else f"  Input tensors ({len(inputs)}):\n{shown}"
    kinds = " and ".join(kind for kind, n in counts if n)
    return errors.InvalidArgumentError(None, None, (
        f"\n\n!!! Detected Infinity or NaN in output {index} of eagerly-executing op \"{op}\" (# of outputs: "
        f"{count}) !!!\n  dtype: {tensor.dtype!r}\n  shape: {tuple(tensor.shape)}\n{found}\n\n{listing}\n\n : "
        f"Tensor had {kinds} values [Op:CheckNumericsV2]\nplaceflow: find where the op's inputs leave its "
        f"domain, or turn the check off with placeflow.debugging.disable_check_numerics()."))


def enable_op_determinism() -> None:
    """Make ops deterministic: as TensorFlow, unseeded random ops raise RuntimeError from now on (placeflow's
    NumPy and CuPy kernels are deterministic already)."""
    context().op_determinism = True


def enable_tensor_float_32_execution(enabled) -> None:
    """Allow (or forbid) TensorFloat-32 matmuls and convolutions. placeflow's kernels compute in the tensors'
    own dtype and never use TF32, so this records the setting that tensor_float_32_execution_enabled reports."""
    context().tensor_float_32 = bool(enabled)


def tensor_float_32_execution_enabled() -> bool:
    """Whether TensorFloat-32 execution is allowed (True until disabled, as in TensorFlow)."""
    return context().tensor_float_32


def op_determinism_enabled() -> bool:
    """Whether enable_op_determinism was called (TF's internal query, tf.config.experimental's sibling)."""
    return context().op_determinism


_AUTOGRAPH = {"verbosity": 0, "alsologtostdout": False}


def set_verbosity(level, alsologtostdout=False) -> None:
    """Set AutoGraph's log verbosity. placeflow's AutoGraph (api/autograph.py) writes no conversion log at any
    level, so this records the level (an int, as TensorFlow's AUTOGRAPH_VERBOSITY)."""
    if isinstance(level, bool) or not isinstance(level, int):
        raise TypeError(f"set_verbosity expects an int level (0 for quiet, higher for more), got {level!r}.")
    _AUTOGRAPH.update(verbosity=level, alsologtostdout=bool(alsologtostdout))


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                     shape_invariants=None) -> None:
    """Options for the loop around this call, as AutoGraph reads them. Eagerly it does nothing (as in TF);
    parallel_iterations and swap_memory are hints placeflow's loops need not follow (iterations run in order, on
    the loop's device); maximum_iterations and shape_invariants inside a traced function are not implemented."""
    from ..framework import graph_mode
    given = [name for name, value in (("maximum_iterations", maximum_iterations),
                                      ("shape_invariants", shape_invariants)) if value is not None]
    if given and graph_mode.active() is not None:
        raise NotImplementedError(f"autograph.experimental.set_loop_options({', '.join(given)}=...) is not "
                                  f"implemented in placeflow's AutoGraph; inside a function, write the loop with "
                                  f"placeflow.while_loop(..., {given[0]}=...) instead.")


class Feature(enum.Enum):
    """AutoGraph's optional conversions (tf.autograph.experimental.Feature), for experimental_autograph_options."""

    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"
