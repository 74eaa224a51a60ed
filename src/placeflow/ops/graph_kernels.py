"""Kernels of graph-only ops: constants, placeholders, TensorFlow 1 ref variables, control and transfer nodes.

The executor gives these ops their meaning (feeds, variable slots, copies); the registry says on which
device types and dtypes they may be placed, exactly as for any other op.
"""

from .registry import ALL, ANY, NUMBERS, register
from .state_kernels import GPU_VARIABLE_DTYPES

register("Const", ANY, gpu=ALL)(lambda xp, value: xp.asarray(value))
register("Placeholder", ANY, gpu=ALL)(lambda xp, value: value)
register("_Arg", ANY, gpu=ALL)(lambda xp, value: value)
register("VariableV2", ALL, gpu=GPU_VARIABLE_DTYPES)(lambda xp, value: value)
register("Assign", ALL, gpu=GPU_VARIABLE_DTYPES)(lambda xp, old, new: new)
register("AssignAdd", NUMBERS, gpu=GPU_VARIABLE_DTYPES & NUMBERS)(lambda xp, old, delta: old + delta)
register("AssignSub", NUMBERS, gpu=GPU_VARIABLE_DTYPES & NUMBERS)(lambda xp, old, delta: old - delta)
register("NoOp", ANY, gpu=ALL)(lambda xp: None)
register("_Send", ANY, gpu=ALL)(lambda xp, value: value)
register("_Recv", ANY, gpu=ALL)(lambda xp, value: value)
