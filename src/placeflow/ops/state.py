"""Variable ops. Per seed 003, integer variables other than int64 have no GPU kernel."""

from ..framework import dtypes as d
from . import shape_rules as rules
from .registry import ALL, COMPLEX, FLOATS, NOT_DIFFERENTIABLE, NUMBERS, define

GPU_VARIABLE_DTYPES = FLOATS | COMPLEX | {d.int64}


def _state_op(op, dtypes, fn, grad=NOT_DIFFERENTIABLE):
    define(op, dtypes, gpu=GPU_VARIABLE_DTYPES & dtypes, shape=rules.same, grad=grad)(fn)


_state_op("VarHandleOp", ALL | {d.string}, lambda xp, value: value)  # string variables live on the host, as TF's
_state_op("ReadVariableOp", ALL | {d.string}, lambda xp, value: value, grad=lambda e, g: [g])
_state_op("AssignVariableOp", ALL | {d.string}, lambda xp, old, new: new)
# `_in_place`: the variable's buffer is its own (no live read), so the update writes into it (eager/variables.py)
_state_op("AssignAddVariableOp", NUMBERS,
          lambda xp, old, delta, _in_place=False: xp.add(old, delta, out=old) if _in_place else old + delta)
_state_op("AssignSubVariableOp", NUMBERS,
          lambda xp, old, delta, _in_place=False: xp.subtract(old, delta, out=old) if _in_place else old - delta)


@define("ResourceApplyGradientDescent", FLOATS, gpu=GPU_VARIABLE_DTYPES & FLOATS, shape=rules.scalar,
        grad=NOT_DIFFERENTIABLE)
def _apply_gradient_descent(xp, old, delta, alpha=0.01, _in_place=False):
    """old - alpha * delta (SGD's fused update): in one new buffer, or written into the variable's own."""
    update = delta * (-alpha)
    if _in_place:
        return xp.add(old, update.astype(old.dtype, copy=False), out=old)
    update += old
    return update.astype(old.dtype, copy=False)


@define("_SliceAssignVariableOp", ALL, gpu=GPU_VARIABLE_DTYPES, shape=rules.same, grad=NOT_DIFFERENTIABLE)
def _slice_assign(xp, old, value, key=()):
    """The variable's value with old[key] = value (TensorFlow's ResourceStridedSliceAssign)."""
    target = old[key]
    if tuple(xp.shape(value)) != tuple(target.shape) and xp.ndim(value) != 0:
        from ..framework.errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, f"sliced l-value shape {list(target.shape)} does not match r-value "
                                               f"shape {list(xp.shape(value))}")
    out = old.copy()
    out[key] = value
    return out
