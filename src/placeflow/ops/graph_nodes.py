"""Graph-only ops: constants, placeholders, TensorFlow 1 ref variables, control and transfer nodes.

The executor gives these ops their meaning (feeds, variable slots, copies); the registry says on which
device types and dtypes they may be placed, exactly as for any other op. None is differentiated
through: sources and state have no gradient, and transfers are added after differentiation.
"""

from . import shape_rules as rules
from .registry import ALL, ANY, CHEAP, NARROW, NOT_DIFFERENTIABLE, NUMBERS, define
from .state import GPU_VARIABLE_DTYPES


def _node(op, dtypes, gpu, shape, fn):
    define(op, dtypes, gpu=gpu, shape=shape, grad=NOT_DIFFERENTIABLE, cost=CHEAP)(fn)


_node("Const", ANY | NARROW, ALL, lambda shapes, attrs: tuple(attrs["value"].shape), lambda xp, value: xp.asarray(value))
_node("Placeholder", ANY, ALL, rules.from_shape_attr, lambda xp, value: value)
_node("_Arg", ANY, ALL, rules.from_shape_attr, lambda xp, value: value)
_node("VariableV2", ALL, GPU_VARIABLE_DTYPES, rules.from_shape_attr, lambda xp, value: value)
_node("Assign", ALL, GPU_VARIABLE_DTYPES, rules.same, lambda xp, old, new: new)
_node("AssignAdd", NUMBERS, GPU_VARIABLE_DTYPES & NUMBERS, rules.same, lambda xp, old, delta: old + delta)
_node("AssignSub", NUMBERS, GPU_VARIABLE_DTYPES & NUMBERS, rules.same, lambda xp, old, delta: old - delta)
_node("NoOp", ANY, ALL, rules.scalar, lambda xp: None)
_node("_Send", ANY, ALL, rules.same, lambda xp, value: value)
_node("_Recv", ANY, ALL, rules.same, lambda xp, value: value)
define("PlaceholderWithDefault", ANY, gpu=ALL, shape=rules.from_shape_attr, grad=lambda e, g: [g], cost=CHEAP)(
    lambda xp, value, shape=None: value)  # its input, unless a value is fed for it
