"""The If and While ops: their bodies (traced graphs, see graph/control_flow.py) arrive as attributes and run
on the host; their gradients are built by whoever made the op (attribute `gradient`)."""

import numpy as np

from ..framework.errors import InvalidArgumentError
from .registry import ANY, CHEAP, define


def _outputs_shape(shapes, attrs):
    return [tuple(s) if s is not None else None for _, s in attrs["output_specs"]]


def _outputs_dtype(dtype, attrs):
    return [d for d, _ in attrs["output_specs"]]


def _built_gradient(e, *upstream):
    return e.attrs["gradient"](e, *upstream)


def _truth(value) -> bool:
    array = value.get() if hasattr(value, "get") else np.asarray(value)
    if array.size != 1:
        raise InvalidArgumentError(None, None, f"The predicate must be a scalar boolean, got shape {list(array.shape)}")
    return bool(array.reshape(()))


@define("If", ANY, gpu=(), shape=_outputs_shape, grad=_built_gradient, dtype=_outputs_dtype, cost=CHEAP)
def _if(xp, pred, *inputs, then_branch=None, else_branch=None, output_specs=(), gradient=None, _stateful=False):
    """Run the branch the predicate picks on the captured inputs."""
    return _single_or_tuple((then_branch if _truth(pred) else else_branch)(*inputs))


def _single_or_tuple(outputs):
    """A kernel's outputs: one array for an op with one output (plans read it without a port), else a tuple."""
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


@define("While", ANY, gpu=(), shape=_outputs_shape, grad=_built_gradient, dtype=_outputs_dtype, cost=CHEAP)
def _while(xp, *inputs, cond=None, body=None, loop_vars=0, maximum_iterations=None, output_specs=(),
           gradient=None, _stateful=False):
    """Run `body` while `cond` holds (at most maximum_iterations times) on the loop variables."""
    values, captured = tuple(inputs[:loop_vars]), inputs[loop_vars:]
    count = 0
    while (maximum_iterations is None or count < maximum_iterations) and _truth(cond(*values, *captured)[0]):
        values = body(*values, *captured)
        for index, (value, (_, shape)) in enumerate(zip(values, output_specs)):
            if shape is not None and len(np.shape(value)) != len(shape):
                raise InvalidArgumentError(None, None, f"Loop variable {index} changed rank in the loop body: "
                                                       f"{list(np.shape(value))} vs the invariant {list(shape)}")
        count += 1
    return _single_or_tuple(values if count else tuple(v.copy() for v in values))  # outputs own their buffers



