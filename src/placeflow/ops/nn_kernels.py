"""Activation kernels: relu, sigmoid, tanh, softmax, log_softmax."""

from .registry import FLOATS, register


@register("Relu", FLOATS)
def _relu(xp, a):
    return xp.maximum(a, 0).astype(a.dtype, copy=False)


@register("Sigmoid", FLOATS)
def _sigmoid(xp, a):
    return (1 / (1 + xp.exp(-a))).astype(a.dtype, copy=False)


register("Tanh", FLOATS)(lambda xp, a: xp.tanh(a))


@register("Softmax", FLOATS)
def _softmax(xp, a, axis=-1):
    shifted = xp.exp(a - a.max(axis=axis, keepdims=True))
    return shifted / shifted.sum(axis=axis, keepdims=True)


@register("LogSoftmax", FLOATS)
def _log_softmax(xp, a, axis=-1):
    shifted = a - a.max(axis=axis, keepdims=True)
    return shifted - xp.log(xp.exp(shifted).sum(axis=axis, keepdims=True))
