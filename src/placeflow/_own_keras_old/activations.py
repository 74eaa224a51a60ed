"""Activation functions, by name and as keras.activations.<name>.

sigmoid and softmax remember the logits they were computed from (as Keras 3's TensorFlow backend
does): a cross-entropy given their output then works from the logits, exactly as Keras computes it.
"""

from __future__ import annotations

import weakref

from ..api import math_ops, nn

_logits: dict = {}  # id(output) -> (weak reference to the output, kind, logits)


def _remember(output, kind, logits):
    key = id(output)
    try:
        ref = weakref.ref(output, lambda _, key=key: _logits.pop(key, None))
    except TypeError:
        return output
    _logits[key] = (ref, kind, logits)
    return output


def logits_of(output, kind):
    """The logits `output` was computed from by the `kind` ('sigmoid' or 'softmax') activation, or None (also
    for a traced Sigmoid/Softmax op, whose input is its logits)."""
    found = _logits.get(id(output))
    if found is not None and found[0]() is output and found[1] == kind:
        return found[2]
    op = getattr(output, "op", None)
    if op is not None and op.type == {"sigmoid": "Sigmoid", "softmax": "Softmax"}[kind] and len(op.inputs) == 1:
        return op.inputs[0]
    return None


def linear(x):
    """x unchanged."""
    return x


def sigmoid(x):
    """1 / (1 + exp(-x))."""
    return _remember(math_ops.sigmoid(x), "sigmoid", x)


def softmax(x, axis=-1):
    """exp(x) normalized over `axis`."""
    return _remember(nn.softmax(x, axis=axis), "softmax", x) if axis == -1 else nn.softmax(x, axis=axis)


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """max(x, 0) (Keras's options: a leaky slope, a cap and a threshold are refused unless default)."""
    if negative_slope or max_value is not None or threshold:
        if not threshold and max_value is None:
            return nn.leaky_relu(x, negative_slope)
        raise NotImplementedError("keras.activations.relu with max_value or threshold is not implemented in placeflow.")
    return nn.relu(x)


def tanh(x):
    """Hyperbolic tangent."""
    return math_ops.tanh(x)


def elu(x, alpha=1.0):
    """x where x > 0, else alpha * (exp(x) - 1)."""
    if alpha != 1.0:
        return math_ops.where(x > 0, x, (math_ops.exp(x) - 1.0) * alpha)
    return nn.elu(x)


def selu(x):
    """Scaled exponential linear unit."""
    return nn.selu(x)


def gelu(x, approximate=False):
    """Gaussian error linear unit."""
    return nn.gelu(x, approximate=approximate)


def softplus(x):
    """log(exp(x) + 1)."""
    return nn.softplus(x)


def softsign(x):
    """x / (|x| + 1)."""
    return x / (math_ops.abs(x) + 1.0)


def silu(x):
    """x * sigmoid(x) (swish)."""
    return x * math_ops.sigmoid(x)


def relu6(x):
    """min(max(x, 0), 6)."""
    return nn.relu6(x)


def leaky_relu(x, negative_slope=0.2):
    """x where x > 0, else negative_slope * x."""
    return nn.leaky_relu(x, negative_slope)


def exponential(x):
    """exp(x)."""
    return math_ops.exp(x)


def hard_sigmoid(x):
    """relu6(x + 3) / 6, as Keras 3."""
    return nn.relu6(x + 3.0) / 6.0


def log_softmax(x, axis=-1):
    """log(softmax(x))."""
    return nn.log_softmax(x, axis=axis)


swish = silu

_BY_NAME = {"relu": relu, "sigmoid": sigmoid, "tanh": tanh, "softmax": softmax, "linear": linear, "elu": elu,
            "selu": selu, "gelu": gelu, "softplus": softplus, "softsign": softsign, "silu": silu, "swish": silu,
            "relu6": relu6, "leaky_relu": leaky_relu, "exponential": exponential, "hard_sigmoid": hard_sigmoid,
            "log_softmax": log_softmax}


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
