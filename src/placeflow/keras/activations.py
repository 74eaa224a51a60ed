"""Activation functions by name: relu, sigmoid, tanh, softmax, linear."""

from __future__ import annotations

from ..api import math_ops, nn


def linear(x):
    """x unchanged."""
    return x


_BY_NAME = {"relu": nn.relu, "sigmoid": math_ops.sigmoid, "tanh": math_ops.tanh, "softmax": nn.softmax,
            "linear": linear}


def get(identifier):
    """The activation function for a name, a callable, or None (linear)."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown activation function: '{identifier}'. Known: {', '.join(sorted(_BY_NAME))}.")
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")


def serialize(fn) -> str:
    """The name of an activation function."""
    for name, candidate in _BY_NAME.items():
        if candidate is fn:
            return name
    return getattr(fn, "__name__", repr(fn))
