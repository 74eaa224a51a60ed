"""Variable kernels. Per seed 003, integer variables other than int64 have no GPU kernel."""

from ..framework import dtypes as d
from .registry import ALL, COMPLEX, FLOATS, NUMBERS, register

GPU_VARIABLE_DTYPES = FLOATS | COMPLEX | {d.int64}

register("VarHandleOp", ALL, gpu=GPU_VARIABLE_DTYPES)(lambda xp, value: value)
register("ReadVariableOp", ALL, gpu=GPU_VARIABLE_DTYPES)(lambda xp, value: value)
register("AssignVariableOp", ALL, gpu=GPU_VARIABLE_DTYPES)(lambda xp, old, new: new)
register("AssignAddVariableOp", NUMBERS, gpu=GPU_VARIABLE_DTYPES & NUMBERS)(lambda xp, old, delta: old + delta)
register("AssignSubVariableOp", NUMBERS, gpu=GPU_VARIABLE_DTYPES & NUMBERS)(lambda xp, old, delta: old - delta)


@register("ResourceApplyGradientDescent", FLOATS, gpu=GPU_VARIABLE_DTYPES & FLOATS)
def _apply_gradient_descent(xp, old, delta, alpha=0.01):
    """old - alpha * delta, in one new buffer (SGD's fused update)."""
    update = delta * (-alpha)
    update += old
    return update.astype(old.dtype, copy=False)
