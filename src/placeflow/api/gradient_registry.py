"""Gradient registration and conversion hooks: tf.RegisterGradient, tf.no_gradient, tf.AggregationMethod,
tf.recompute_grad and tf.register_tensor_conversion_function.

placeflow's own ops declare their gradients where they are defined (ops/registry.py), so, as in TensorFlow, a
gradient registered under the name of one of them is a duplicate (KeyError). Names of op types placeflow does not
define are kept in the registry (`registered_gradient` reads it); placeflow has no Graph.gradient_override_map and
loads no custom op libraries, so nothing differentiates through such a name yet."""

from __future__ import annotations

import itertools
import numbers

import numpy as np

from ..eager import convert as convert_module
from ..eager import tape as tape_module
from ..eager.tensor import EagerTensor
from ..framework import dtypes
from ..ops.registry import op_def
from .custom_gradient import custom_gradient

_GRADIENTS: dict = {}   # op type -> gradient function, or None (no_gradient)


def _register(op_type, gradient) -> None:
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    if op_type in _GRADIENTS or op_def(op_type) is not None:
        where = "placeflow's op definitions (ops/)" if op_def(op_type) is not None else "an earlier registration"
        raise KeyError(f"Registering two gradient with name '{op_type}'! (Previous registration was in {where}.) "
                       f"Register the gradient under a new op type name.")
    _GRADIENTS[op_type] = gradient


class RegisterGradient:
    """Decorator registering `f(op, *grads)` as the gradient of the op type `op_type`."""

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f):
        """Register `f` and return it unchanged."""
        _register(self._op_type, f)
        return f


def no_gradient(op_type: str) -> None:
    """Declare that the op type `op_type` has no gradient (its gradients are None)."""
    _register(op_type, None)


def registered_gradient(op_type: str):
    """The gradient function registered for `op_type` (None for no_gradient); LookupError if none was."""
    if op_type not in _GRADIENTS:
        raise LookupError(f"gradient registry has no entry for: {op_type}")
    return _GRADIENTS[op_type]


class AggregationMethod:
    """How gradients flowing into one tensor are summed (TF's constants; placeflow always adds them with AddN)."""

    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


def recompute_grad(f):
    """`f` whose gradients recompute its forward pass instead of keeping its intermediate values."""
    if not callable(f):
        raise TypeError(f"recompute_grad expects a callable, got {f!r}.")

    @custom_gradient
    def recomputing(*args, **kwargs):
        result = f(*args, **kwargs)

        def grad_fn(*upstream, variables=None):
            tensors = [a for a in args if isinstance(a, EagerTensor) or hasattr(a, "op")]
            watched = tensors + list(variables or [])
            with tape_module.GradientTape() as tape:
                tape.watch(tensors)
                recomputed = f(*args, **kwargs)
            grads = tape.gradient(recomputed, watched, output_gradients=_like(recomputed, upstream))
            return (grads[:len(tensors)], grads[len(tensors):]) if variables else grads[:len(tensors)]
        return result, grad_fn
    return recomputing


def _like(structure, upstream):
    """The upstream gradients in the structure of f's result (one tensor, or a list)."""
    return upstream[0] if len(upstream) == 1 and not isinstance(structure, (list, tuple, dict)) else list(upstream)


_CONVERSIONS: list = []   # [(priority, order, base types, function)], lowest priority first
_ORDER = itertools.count()
_NUMERIC = (numbers.Number, np.ndarray, np.generic)


def register_tensor_conversion_function(base_type, conversion_func, priority=100) -> None:
    """Make convert_to_tensor (and ops given such values) convert instances of `base_type` with
    `conversion_func(value, dtype=None, name=None, as_ref=False)`, which returns a tensor or NotImplemented."""
    bases = base_type if isinstance(base_type, tuple) else (base_type,)
    if not all(isinstance(b, type) for b in bases):
        raise TypeError(f"Argument `base_type` must be a type or a tuple of types. Obtained: {base_type}")
    if any(issubclass(b, _NUMERIC) for b in bases):
        raise TypeError("Cannot register conversions for Python numeric types and NumPy scalars and arrays.")
    if not callable(conversion_func):
        raise TypeError(f"Argument `conversion_func` must be callable. Received {conversion_func}.")
    _CONVERSIONS.append((priority, next(_ORDER), bases, conversion_func))
    _CONVERSIONS.sort(key=lambda entry: entry[:2])
    convert_module.conversion_hook = _convert_registered


def _convert_registered(value, dtype=None, name=None):
    """The tensor the first matching registered function makes of `value`, or None when none converts it."""
    for _, _, bases, function in _CONVERSIONS:
        if not isinstance(value, bases):
            continue
        out = function(value, dtype=dtype, name=name, as_ref=False)
        if out is NotImplemented:
            continue
        if not isinstance(out, EagerTensor) and not hasattr(out, "op"):
            raise RuntimeError(f"Conversion function {function!r} for type {type(value)} returned non-Tensor: "
                               f"{out!r}")
        if dtype is not None and out.dtype != dtypes.as_dtype(dtype):
            raise RuntimeError(f"Conversion function {function!r} for type {type(value)} returned incompatible "
                               f"dtype: requested = {dtypes.as_dtype(dtype).name}, actual = {out.dtype.name}")
        return out
    return None
