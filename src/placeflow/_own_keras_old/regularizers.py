"""keras.regularizers: L1, L2 and L1L2 penalties on weights, added to the loss fit minimizes (model.losses)."""

from __future__ import annotations

import numpy as np

from ..api import math_ops


class Regularizer:
    """Base: regularizer(weight) is the penalty (a scalar tensor)."""

    def __call__(self, x):
        return 0.0

    def get_config(self) -> dict:
        """The penalty's factors."""
        return {}


class L1L2(Regularizer):
    """l1 * sum(|x|) + l2 * sum(x ** 2)."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = _factor(l1, "l1"), _factor(l2, "l2")

    def __call__(self, x):
        penalty = 0.0
        if self.l1:
            penalty = penalty + self.l1 * math_ops.reduce_sum(math_ops.abs(x))
        if self.l2:
            penalty = penalty + self.l2 * math_ops.reduce_sum(math_ops.square(x))
        return penalty

    def get_config(self) -> dict:
        return {"l1": float(np.float32(self.l1)), "l2": float(np.float32(self.l2))}


class L1(Regularizer):
    """l1 * sum(|x|) (l1 = 0.01 by default)."""

    def __init__(self, l1=0.01):
        self.l1 = _factor(l1, "l1")

    def __call__(self, x):
        return self.l1 * math_ops.reduce_sum(math_ops.abs(x))

    def get_config(self) -> dict:
        return {"l1": float(np.float32(self.l1))}


class L2(Regularizer):
    """l2 * sum(x ** 2) (l2 = 0.01 by default)."""

    def __init__(self, l2=0.01):
        self.l2 = _factor(l2, "l2")

    def __call__(self, x):
        return self.l2 * math_ops.reduce_sum(math_ops.square(x))

    def get_config(self) -> dict:
        return {"l2": self.l2}


def _factor(value, name) -> float:
    value = float(value)
    if value < 0 or not np.isfinite(value):
        raise ValueError(f"Value for argument {name} should be a non-negative float. Received: {name}={value}")
    return value


l1, l2, l1_l2 = L1, L2, L1L2
_BY_NAME = {"l1": L1, "l2": L2}


def get(identifier):
    """A regularizer from a name ('l1', 'l2'), an instance or a callable; None stays None."""
    if identifier is None or isinstance(identifier, Regularizer) or (callable(identifier) and
                                                                      not isinstance(identifier, str)):
        return identifier
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]()
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")
