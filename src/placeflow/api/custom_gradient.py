"""tf.custom_gradient: a function that gives its own gradient (the ops inside it are not differentiated)."""

from __future__ import annotations

import functools
import inspect

from ..eager import tape
from ..eager.convert import convert_to_tensor
from ..framework import nest
from . import math_ops


def custom_gradient(f=None):
    """Decorate `f(*x) -> (y, grad_fn)`; gradients of y flow to x through grad_fn(*dy) instead of f's ops."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        inputs = [a if _is_tensor(a) else None for a in args]
        with tape.paused_everywhere():
            result, grad_fn = f(*args, **kwargs)
        if "variables" in inspect.signature(grad_fn).parameters:
            raise NotImplementedError("custom_gradient with a grad_fn taking `variables` is not implemented in "
                                      "placeflow; pass the variables to the function as arguments instead.")
        leaves = [math_ops.identity(convert_to_tensor(leaf)) for leaf in nest.flatten(result)]
        tensors = [t for t in inputs if t is not None]

        def gradient(entry, *upstream):
            grads = grad_fn(*upstream)
            grads = list(grads) if isinstance(grads, (list, tuple)) else [grads]
            if len(grads) != len(tensors):
                raise ValueError(f"custom_gradient: grad_fn returned {len(grads)} gradients for {len(tensors)} tensor "
                                 f"inputs.")
            return [None if g is None else convert_to_tensor(g) for g in grads]

        tape.record_custom(tensors, leaves, gradient)
        return nest.pack_as(result, leaves)
    return wrapped


def _is_tensor(value) -> bool:
    return hasattr(value, "dtype") and hasattr(value, "shape") and not isinstance(value, (int, float))
