"""placeflow.nn: activations."""

from ..eager.execute import execute
from ..eager.convert import convert_to_tensor
from .math_ops import sigmoid, tanh  # noqa: F401 - also public under nn


def relu(features, name=None):
    """max(features, 0)."""
    x = convert_to_tensor(features)
    return execute("Relu", (x,), x.dtype, name=name)


def softmax(logits, axis=None, name=None):
    """exp(logits) / sum(exp(logits)) along `axis` (last when None)."""
    x = convert_to_tensor(logits)
    return execute("Softmax", (x,), x.dtype, {"axis": -1 if axis is None else int(axis)}, name=name)


def log_softmax(logits, axis=None, name=None):
    """logits - log(sum(exp(logits))) along `axis` (last when None)."""
    x = convert_to_tensor(logits)
    return execute("LogSoftmax", (x,), x.dtype, {"axis": -1 if axis is None else int(axis)}, name=name)
