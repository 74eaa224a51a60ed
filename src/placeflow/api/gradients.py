"""Gradient functions of every differentiable op, built from public ops (so they run on any device).

Each function takes the recorded forward op (`e.inputs`, `e.outputs`, `e.attrs`) and the upstream
gradient(s), and returns one gradient per input (None where there is none).
"""

from __future__ import annotations

import numpy as np

from ..eager.execute import execute
from ..ops.gradient_registry import register
from . import array_ops, math_ops


def _shape(value) -> tuple:
    shape = getattr(value, "shape", None)
    return tuple(shape) if shape is not None else tuple(np.shape(value))


def _reduce_to(grad, shape):
    """Sum `grad` over the dimensions that broadcasting added or stretched, back to `shape`."""
    grad_shape = _shape(grad)
    if grad_shape == tuple(shape) or None in grad_shape or None in tuple(shape):
        return grad
    lead = len(grad_shape) - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(shape) if d == 1 and grad_shape[i + lead] != 1)
    out = math_ops.reduce_sum(grad, axis=list(axes)) if axes else grad
    return array_ops.reshape(out, list(shape))


def _binary(e, gx, gy):
    x, y = e.inputs[:2]
    return [_reduce_to(gx, _shape(x)), _reduce_to(gy, _shape(y))]


@register("AddV2")
def _add(e, g):
    return _binary(e, g, g)


@register("Sub")
def _sub(e, g):
    return _binary(e, g, math_ops.negative(g))


@register("Mul")
def _mul(e, g):
    x, y = e.inputs
    return _binary(e, g * y, g * x)


@register("RealDiv")
def _div(e, g):
    x, y = e.inputs
    return _binary(e, g / y, math_ops.negative(g) * x / (y * y))


@register("Pow")
def _pow(e, g):
    x, y = e.inputs
    z = e.outputs[0]
    positive = math_ops.greater(x, 0)
    safe_log = math_ops.log(math_ops.where(positive, x, array_ops.ones_like(z)))
    return _binary(e, g * y * math_ops.pow(x, y - 1), g * z * math_ops.where(positive, safe_log,
                                                                            array_ops.zeros_like(z)))


def _select_grad(e, g, mask):
    zeros = array_ops.zeros_like(g)
    return _binary(e, math_ops.where(mask, g, zeros), math_ops.where(mask, zeros, g))


@register("Maximum")
def _maximum(e, g):
    x, y = e.inputs
    return _select_grad(e, g, math_ops.greater_equal(x + array_ops.zeros_like(g), y))


@register("Minimum")
def _minimum(e, g):
    x, y = e.inputs
    return _select_grad(e, g, math_ops.less_equal(x + array_ops.zeros_like(g), y))


@register("SquaredDifference")
def _squared_difference(e, g):
    x, y = e.inputs
    d = g * 2.0 * (x - y)
    return _binary(e, d, math_ops.negative(d))


@register("Neg")
def _neg(e, g):
    return [math_ops.negative(g)]


@register("Abs")
def _abs(e, g):
    return [g * math_ops.sign(e.inputs[0])]


@register("Square")
def _square(e, g):
    return [g * 2.0 * e.inputs[0]]


@register("Exp")
def _exp(e, g):
    return [g * e.outputs[0]]


@register("Log")
def _log(e, g):
    return [g / e.inputs[0]]


@register("Sqrt")
def _sqrt(e, g):
    return [g * 0.5 / e.outputs[0]]


@register("Rsqrt")
def _rsqrt(e, g):
    z = e.outputs[0]
    return [g * -0.5 * z * z * z]


@register("Reciprocal")
def _reciprocal(e, g):
    z = e.outputs[0]
    return [math_ops.negative(g) * z * z]


@register("Identity")
def _identity(e, g):
    return [g]


register("ReadVariableOp")(_identity)


@register("Tanh")
def _tanh(e, g):
    z = e.outputs[0]
    return [g * (1.0 - z * z)]


@register("Sigmoid")
def _sigmoid(e, g):
    z = e.outputs[0]
    return [g * z * (1.0 - z)]


@register("Relu")
def _relu(e, g):
    return [execute("ReluGrad", (g, e.inputs[0]), g.dtype)]


@register("ReluGrad")
def _relu_grad(e, g):
    return [execute("ReluGrad", (g, e.inputs[1]), g.dtype), None]


@register("BiasAdd")
def _bias_add(e, g):
    return [g, execute("BiasAddGrad", (g,), g.dtype)]


@register("BiasAddGrad")
def _bias_add_grad(e, g):
    return [array_ops.zeros_like(e.inputs[0]) + g]


def _xent(e, g_loss, g_backprop=None):
    """Cross-entropy: d/d logits = backprop * upstream (per example); labels get none (sparse) or -log p."""
    return [array_ops.expand_dims(g_loss, -1) * e.outputs[1], None]


register("SparseSoftmaxCrossEntropyWithLogits")(_xent)


@register("SoftmaxCrossEntropyWithLogits")
def _dense_xent(e, g_loss, g_backprop=None):
    logits = e.inputs[0]
    log_probs = execute("LogSoftmax", (logits,), logits.dtype, {"axis": -1})
    return [_xent(e, g_loss)[0], array_ops.expand_dims(g_loss, -1) * -log_probs]


@register("Softmax")
def _softmax(e, g):
    z = e.outputs[0]
    axis = e.attrs.get("axis", -1)
    return [z * (g - math_ops.reduce_sum(g * z, axis=axis, keepdims=True))]


@register("LogSoftmax")
def _log_softmax(e, g):
    axis = e.attrs.get("axis", -1)
    return [g - math_ops.exp(e.outputs[0]) * math_ops.reduce_sum(g, axis=axis, keepdims=True)]


@register("MatMul")
def _matmul(e, g):
    a, b = e.inputs
    ta, tb = e.attrs.get("transpose_a", False), e.attrs.get("transpose_b", False)
    mm = math_ops.matmul
    if not ta and not tb:
        return [mm(g, b, transpose_b=True), mm(a, g, transpose_a=True)]
    if ta and not tb:
        return [mm(b, g, transpose_b=True), mm(a, g)]
    if not ta and tb:
        return [mm(g, b), mm(g, a, transpose_a=True)]
    return [mm(b, g, transpose_a=True, transpose_b=True), mm(g, a, transpose_a=True, transpose_b=True)]


@register("AddN")
def _add_n(e, g):
    return [_reduce_to(g, _shape(x)) for x in e.inputs]


def _reduced_axes(e):
    axis = e.attrs.get("axis")
    rank = len(_shape(e.inputs[0]))
    axes = range(rank) if axis is None else np.atleast_1d(axis)
    return sorted(int(a) % rank for a in axes) if rank else []


def _expand_back(e, g):
    """The upstream gradient with the reduced dimensions restored (size 1), ready to broadcast."""
    if e.attrs.get("keepdims"):
        return g
    shape = list(_shape(e.inputs[0]))
    for axis in _reduced_axes(e):
        shape[axis] = 1
    return array_ops.reshape(g, shape)


def _broadcast_back(e, g, mean=False):
    """One _ReduceGrad op: the upstream gradient broadcast back over the reduced axes (divided by their size)."""
    attrs = {"axes": tuple(_reduced_axes(e)), "keepdims": bool(e.attrs.get("keepdims")), "mean": mean}
    return execute("_ReduceGrad", (g, e.inputs[0]), g.dtype, attrs)


@register("Sum")
def _sum(e, g):
    return [_broadcast_back(e, g)]


@register("Mean")
def _mean(e, g):
    return [_broadcast_back(e, g, mean=True)]


@register("_ReduceGrad")
def _reduce_grad(e, g):
    axes = list(e.attrs.get("axes", ()))
    reduce = math_ops.reduce_mean if e.attrs.get("mean") else math_ops.reduce_sum
    return [reduce(g, axis=axes, keepdims=e.attrs.get("keepdims", False)) if axes else g, None]


def _extremum(e, g):
    x = e.inputs[0]
    z = _expand_back(e, e.outputs[0])
    mask = math_ops.cast(math_ops.equal(x, z + array_ops.zeros_like(x)), x.dtype)
    ties = _expand_back(e, math_ops.reduce_sum(mask, axis=e.attrs.get("axis"), keepdims=e.attrs.get("keepdims",
                                                                                                     False)))
    return [mask * _expand_back(e, g) / ties]


register("Max")(_extremum)
register("Min")(_extremum)


@register("Prod")
def _prod(e, g):
    """d prod / d x = prod / x (inputs must be non-zero; TensorFlow's zero-safe form is not implemented)."""
    x = e.inputs[0]
    return [_expand_back(e, g) * _expand_back(e, e.outputs[0]) / x]


@register("Reshape")
def _reshape(e, g):
    return [array_ops.reshape(g, list(_shape(e.inputs[0])))]


register("ExpandDims")(_reshape)
register("Squeeze")(_reshape)


@register("Transpose")
def _transpose(e, g):
    perm = e.attrs.get("perm")
    if perm is None:
        return [array_ops.transpose(g)]
    return [array_ops.transpose(g, list(np.argsort(perm)))]


@register("ConcatV2")
def _concat(e, g):
    axis = e.attrs["axis"]
    sizes = [_shape(x)[axis] for x in e.inputs]
    return array_ops.split(g, sizes, axis=axis)


@register("Pack")
def _pack(e, g):
    axis = e.attrs.get("axis", 0)
    parts = array_ops.split(g, len(e.inputs), axis=axis)
    return [array_ops.reshape(p, list(_shape(x))) for p, x in zip(parts, e.inputs)]


@register("Split")
def _split(e, *grads):
    return [array_ops.concat(list(grads), axis=e.attrs["axis"])]


@register("StridedSlice")
def _strided_slice(e, g):
    x = e.inputs[0]
    return [execute("StridedSliceGrad", (g,), g.dtype, {"shape": _shape(x), "key": e.attrs["key"]})]


@register("Tile")
def _tile(e, g):
    shape = _shape(e.inputs[0])
    multiples = e.attrs["multiples"]
    split_shape = [d for pair in zip(multiples, shape) for d in pair]
    summed = math_ops.reduce_sum(array_ops.reshape(g, split_shape), axis=list(range(0, 2 * len(shape), 2)))
    return [summed]


@register("Cast")
def _cast(e, g):
    x = e.inputs[0]
    if not (x.dtype.is_floating or x.dtype.is_complex):
        return [None]
    return [math_ops.cast(g, x.dtype)]


@register("ClipByValue")
def _clip(e, g):
    x, low, high = e.inputs
    inside = math_ops.logical_and(math_ops.greater_equal(x, low), math_ops.less_equal(x, high))
    return [math_ops.where(inside, g, array_ops.zeros_like(g)), None, None]


@register("SelectV2")
def _select(e, g):
    condition, x, y = e.inputs
    zeros = array_ops.zeros_like(g)
    return [None, _reduce_to(math_ops.where(condition, g, zeros), _shape(x)),
            _reduce_to(math_ops.where(condition, zeros, g), _shape(y))]

