"""tf.custom_gradient: a function that gives its own gradient (the ops inside it are not differentiated)."""

from __future__ import annotations

import functools
import inspect

from ..eager import tape
from ..eager.convert import convert_to_tensor
from ..eager.variables import Variable
from ..framework import nest
from . import math_ops


def custom_gradient(f=None):
    """Decorate `f(*x) -> (y, grad_fn)`; gradients of y flow to x through grad_fn(*dy) instead of f's ops. When f
    reads trainable variables, grad_fn(*dy, variables=[...]) returns (gradients of x, gradients of the
    variables), as in TensorFlow."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        args = [_read_if_variable(a) for a in args]  # variables passed in are read first, as TensorFlow does
        inputs = [a if _is_tensor(a) else None for a in args]
        with tape.paused_everywhere(), tape.GradientTape() as watcher:  # a fresh tape sees the variables f reads
            result, grad_fn = f(*args, **kwargs)
        variables = list(watcher.watched_variables())
        takes_variables = "variables" in inspect.signature(grad_fn).parameters
        if variables and not takes_variables:
            raise TypeError(f"@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function "
                            f"uses variables: {[v.name for v in variables]}")
        leaves = [math_ops.identity(convert_to_tensor(leaf)) for leaf in nest.flatten(result)]
        tensors = [t for t in inputs if t is not None]
        reads = [v.read_value() for v in variables]  # read where the caller's tapes see it: gradients reach v

        def gradient(entry, *upstream):
            if variables:
                grads, variable_grads = grad_fn(*upstream, variables=variables)
                variable_grads = list(variable_grads or [])
                if len(variable_grads) != len(variables):
                    raise ValueError(f"custom_gradient: grad_fn returned {len(variable_grads)} variable gradients "
                                     f"for {len(variables)} variables.")
            else:
                grads, variable_grads = grad_fn(*upstream), []
            grads = list(grads) if isinstance(grads, (list, tuple)) else [grads]
            if len(grads) != len(tensors):
                raise ValueError(f"custom_gradient: grad_fn returned {len(grads)} gradients for {len(tensors)} tensor "
                                 f"inputs.")
            return [None if g is None else convert_to_tensor(g) for g in grads + variable_grads]

        tape.record_custom(tensors + reads, leaves, gradient)
        return nest.pack_as(result, leaves)
    return wrapped


def _read_if_variable(value):
    """A variable (or an object acting as one, such as Keras's) as the tensor of its value; anything else as is."""
    if isinstance(value, Variable) or getattr(value, "_should_act_as_resource_variable", False):
        return convert_to_tensor(value)
    return value


def _is_tensor(value) -> bool:
    return hasattr(value, "dtype") and hasattr(value, "shape") and not isinstance(value, (int, float))
