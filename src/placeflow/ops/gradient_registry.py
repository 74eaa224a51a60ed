"""The gradient registry: for each differentiable op, a function from upstream gradients to input gradients.

A gradient function is called as fn(entry, *upstream) where entry has .op, .attrs, .inputs and
.outputs of the forward op; it returns one gradient (or None) per input.
"""

from __future__ import annotations

_GRADIENTS: dict = {}

NOT_DIFFERENTIABLE = frozenset({
    "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr", "LogicalNot",
    "ArgMax", "ArgMin", "Shape", "OneHot", "Fill", "ZerosLike", "OnesLike", "Range", "Eye", "RandomUniform",
    "RandomStandardNormal", "FloorDiv", "FloorMod", "Sign", "Where", "_EagerConst", "VarHandleOp",
})


def register(op: str):
    """Decorator: register the gradient function of `op`."""
    def decorate(fn):
        _GRADIENTS[op] = fn
        return fn
    return decorate


def get(op: str):
    """The gradient function of `op`, or None."""
    return _GRADIENTS.get(op)


def names() -> set:
    """Ops with a registered gradient."""
    return set(_GRADIENTS)
