"""Neural-network ops: activations, their fused gradients, bias add, softmax cross-entropy, erf."""

import numpy as np_module

from ..framework import errors
from . import shape_rules as rules
from .host_reductions import leading_sum
from .emit import emit, expand_dims, is_unconnected, reduce_sum, shape_of, zeros_like
from .registry import FLOATS, NUMBERS, REAL_NUMBERS, define


def _relu_into(xp, out, a):
    return xp.maximum(a, 0, out=out)


# The gradient reads the output (relu(x) > 0 exactly where x > 0), as TensorFlow's: the input can die at Relu.
@define("Relu", REAL_NUMBERS, shape=rules.same, grad=lambda e, g: [emit("ReluGrad", (g, e.outputs[0]))],
        forward=_relu_into, grad_reads=((), (0,)))
def _relu(xp, a):
    return xp.maximum(a, 0).astype(a.dtype, copy=False)


def _sigmoid_into(xp, out, a):
    """1 / (1 + exp(-a)) in `out`: the same roundings as the kernel, step by step."""
    xp.negative(a, out=out)
    xp.exp(out, out=out)
    out += 1
    return xp.divide(1, out, out=out)


@define("Sigmoid", FLOATS, shape=rules.same, grad=lambda e, g: [g * e.outputs[0] * (1.0 - e.outputs[0])],
        forward=_sigmoid_into, grad_reads=((), (0,)))
def _sigmoid(xp, a):
    """1 / (1 + exp(-a)) in one new buffer (a GPU's pool sees one allocation, not four)."""
    return _sigmoid_into(xp, xp.empty_like(a), a)


define("Tanh", FLOATS, shape=rules.same, grad=lambda e, g: [g * (1.0 - e.outputs[0] * e.outputs[0])],
       forward=lambda xp, out, a: xp.tanh(a, out=out), grad_reads=((), (0,)))(lambda xp, a: xp.tanh(a))


SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _where_positive(x, yes, no):
    return emit("SelectV2", (emit("Greater", (x, zeros_like(x))), yes, no))


def _relu6_grad(e, g):
    x, zeros = e.inputs[0], zeros_like(g)
    inside = emit("LogicalAnd", (emit("Greater", (x, zeros)), emit("Less", (x, zeros + 6.0))))
    return [emit("SelectV2", (inside, g, zeros))]


@define("Relu6", REAL_NUMBERS, shape=rules.same, grad=_relu6_grad)
def _relu6(xp, a):
    return xp.clip(a, 0, 6).astype(a.dtype, copy=False)


@define("LeakyRelu", FLOATS, shape=rules.same,
        grad=lambda e, g: [_where_positive(e.inputs[0], g, g * e.attrs.get("alpha", 0.2))])
def _leaky_relu(xp, a, alpha=0.2):
    return xp.where(a > 0, a, a * alpha).astype(a.dtype, copy=False)


@define("Elu", FLOATS, shape=rules.same,
        grad=lambda e, g: [_where_positive(e.inputs[0], g, g * (e.outputs[0] + 1.0))])
def _elu(xp, a):
    return xp.where(a > 0, a, xp.expm1(xp.minimum(a, 0))).astype(a.dtype, copy=False)


def _selu_grad(e, g):
    """TF's SeluGrad: the negative branch where the output is below 0 (so at 0 the slope is the scale)."""
    out = e.outputs[0]
    return [emit("SelectV2", (emit("Less", (out, zeros_like(out))), g * (out + SELU_SCALE * SELU_ALPHA),
                              g * SELU_SCALE))]


@define("Selu", FLOATS, shape=rules.same, grad=_selu_grad)
def _selu(xp, a):
    negative = SELU_SCALE * SELU_ALPHA * xp.expm1(xp.minimum(a, 0))
    return xp.where(a > 0, SELU_SCALE * a, negative).astype(a.dtype, copy=False)


@define("Softplus", FLOATS, shape=rules.same, grad=lambda e, g: [g * emit("Sigmoid", (e.inputs[0],))])
def _softplus(xp, a):
    return (xp.maximum(a, 0) + xp.log1p(xp.exp(-xp.abs(a)))).astype(a.dtype, copy=False)


def _softmax_grad(e, g):
    z = e.outputs[0]
    return [z * (g - reduce_sum(g * z, axis=e.attrs.get("axis", -1), keepdims=True))]


def _log_softmax_grad(e, g):
    return [g - emit("Exp", (e.outputs[0],)) * reduce_sum(g, axis=e.attrs.get("axis", -1), keepdims=True)]


def _softmax_into(xp, out, a, axis=-1):
    """Softmax written into `out` (TF's kernel forwards its input too): the same steps as `_softmax`."""
    if a.dtype.itemsize < 4:  # computed in float32: no room in `out` for the wide intermediates
        out[...] = _softmax(xp, a, axis)
        return out
    xp.subtract(a, a.max(axis=axis, keepdims=True), out=out)
    xp.exp(out, out=out)
    return xp.divide(out, out.sum(axis=axis, keepdims=True), out=out)


@define("Softmax", FLOATS, shape=rules.same, grad=_softmax_grad, grad_reads=((), (0,)), forward=_softmax_into)
def _softmax(xp, a, axis=-1):
    wide = _widened(xp, a)
    shifted = xp.exp(wide - wide.max(axis=axis, keepdims=True))
    return (shifted / shifted.sum(axis=axis, keepdims=True)).astype(a.dtype, copy=False)


def _widened(xp, a):
    """Half-precision input as float32: TensorFlow's softmax kernels compute in float32 and round once."""
    return a.astype(xp.float32) if a.dtype.itemsize < 4 else a


def _log_softmax_into(xp, out, a, axis=-1):
    """LogSoftmax written into `out`: the same steps as `_log_softmax`."""
    if a.dtype.itemsize < 4:
        out[...] = _log_softmax(xp, a, axis)
        return out
    xp.subtract(a, a.max(axis=axis, keepdims=True), out=out)
    return xp.subtract(out, xp.log(xp.exp(out).sum(axis=axis, keepdims=True)), out=out)


@define("LogSoftmax", FLOATS, shape=rules.same, grad=_log_softmax_grad, grad_reads=((), (0,)),
        forward=_log_softmax_into)
def _log_softmax(xp, a, axis=-1):
    wide = _widened(xp, a)
    shifted = wide - wide.max(axis=axis, keepdims=True)
    return (shifted - xp.log(xp.exp(shifted).sum(axis=axis, keepdims=True))).astype(a.dtype, copy=False)


@define("ReluGrad", REAL_NUMBERS, shape=rules.same, grad=lambda e, g: [emit("ReluGrad", (g, e.inputs[1])), None],
        forward=lambda xp, out, gradients, features: xp.multiply(gradients, features > 0, out=out))
def _relu_grad(xp, gradients, features):
    return gradients * (features > 0)


def _bias_add_into(xp, out, value, bias):
    _check_bias(value, bias)
    return xp.add(value, bias, out=out)


@define("BiasAdd", NUMBERS, shape=rules.bias_add, grad=lambda e, g: [g, emit("BiasAddGrad", (g,))],
        forward=_bias_add_into, grad_reads=((), ()))
def _bias_add(xp, value, bias):
    _check_bias(value, bias)
    return value + bias


def _check_bias(value, bias):
    if bias.ndim != 1 or value.ndim < 2 or bias.shape[0] != value.shape[-1]:
        raise errors.InvalidArgumentError(None, None, (
            f"Must provide as many biases as the last dimension of the input tensor: {list(bias.shape)} vs. "
            f"{list(value.shape)}" if bias.ndim == 1 else f"Biases must be 1D: {list(bias.shape)}"))


def _bias_add_grad_grad(e, g):
    return [zeros_like(e.inputs[0]) + g]


@define("BiasAddGrad", NUMBERS, shape=lambda shapes, attrs: None if shapes[0] is None else shapes[0][-1:],
        grad=_bias_add_grad_grad)
def _bias_add_grad(xp, gradients):
    if xp is np_module:
        total = leading_sum(gradients, tuple(range(gradients.ndim - 1)))
        if total is not None:
            return total
    return gradients.reshape(-1, gradients.shape[-1]).sum(axis=0)


def _xent_grad(e, g_loss, g_backprop=None):
    """d loss / d logits = backprop * upstream (per example), plus (as TF) the backprop output's own gradient
    when it was used (second derivatives); class-index labels get none."""
    return [_with_second_order(expand_dims(g_loss, -1) * e.outputs[1], g_backprop, lambda: _sparse_softmax(e)), None]


def _with_second_order(grad, g_backprop, softmax_of):
    """TF's term for a used backprop output: its gradient through softmax's Jacobian (softmax_of() made only then)."""
    if is_unconnected(g_backprop):
        return grad
    softmax = softmax_of()
    return grad + (g_backprop - reduce_sum(g_backprop * softmax, -1, keepdims=True)) * softmax


def _sparse_softmax(e):
    """softmax(logits) as backprop + one_hot(labels): the logits need not be kept for the gradient."""
    backprop, labels = e.outputs[1], e.inputs[1]
    depth = shape_of(backprop)[-1]
    hot = emit("OneHot", (labels,), backprop.dtype, {"depth": depth, "on_value": 1, "off_value": 0, "axis": -1,
                                                    "dtype": backprop.dtype})
    return backprop + hot


def _dense_xent_grad(e, g_loss, g_backprop=None):
    """As the sparse form for the logits (TF's rule leaves the labels out of the second-order term); soft labels
    get -log p * upstream."""
    log_probs = emit("LogSoftmax", (e.inputs[0],), attrs={"axis": -1})
    grad = _with_second_order(expand_dims(g_loss, -1) * e.outputs[1], g_backprop,
                              lambda: emit("Softmax", (e.inputs[0],), attrs={"axis": -1}))
    return [grad, expand_dims(g_loss, -1) * -log_probs]


@define("SparseSoftmaxCrossEntropyWithLogits", FLOATS, shape=rules.sparse_softmax_xent, grad=_xent_grad,
        grad_reads=((1,), (1,)))
def _sparse_softmax_xent(xp, logits, labels):
    """(per-example loss, d loss / d logits); TensorFlow's fused kernel, labels as class indices.

    An out-of-range label is an error on the CPU; on a GPU, as in TensorFlow, its row is NaN (checking
    would cost a device-to-host sync every step)."""
    if logits.ndim != 2 or labels.ndim != 1:
        raise errors.InvalidArgumentError(None, None, f"logits must be 2-D, but got shape "
                                          f"[{','.join(map(str, logits.shape))}]" if logits.ndim != 2 else
                                          f"labels must be 1-D, but got shape [{','.join(map(str, labels.shape))}]")
    classes = logits.shape[-1]
    invalid = None
    if xp.__name__ == "numpy":
        if labels.size and _largest_unsigned(labels) >= classes:
            raise _label_error(labels, classes)
    else:
        invalid = (labels < 0) | (labels >= classes)
        labels = xp.where(invalid, 0, labels)
    wide = _widened(xp, logits)
    shifted = wide - wide.max(axis=-1, keepdims=True)
    exp = xp.exp(shifted)
    total = exp.sum(axis=-1, keepdims=True)
    picked = xp.arange(labels.shape[0]) * classes + labels  # (row, label) in the flattened rows
    loss = xp.log(total[:, 0]) - shifted.reshape(-1)[picked]
    exp /= total
    exp.reshape(-1)[picked] -= 1
    if invalid is not None:
        loss, exp = xp.where(invalid, xp.nan, loss), xp.where(invalid[:, None], xp.nan, exp)
    return loss.astype(logits.dtype, copy=False), exp.astype(logits.dtype, copy=False)


def _largest_unsigned(labels) -> int:
    """The largest label with negative ones counted huge (read as unsigned): one pass checks both ends."""
    if labels.dtype.kind == "i":
        labels = labels.view(labels.dtype.str.replace("i", "u"))
    return int(labels.max())


def _label_error(labels, classes) -> errors.InvalidArgumentError:
    bad = labels[(labels < 0) | (labels >= classes)][0]
    return errors.InvalidArgumentError(None, None, (
        f"Received a label value of {int(bad)} which is outside the valid range of [0, {classes}).  Label "
        f"values: {' '.join(str(int(v)) for v in labels)}\nplaceflow: labels must be class indices in "
        f"[0, {classes})."))


@define("SoftmaxCrossEntropyWithLogits", FLOATS, shape=rules.softmax_xent, grad=_dense_xent_grad,
        grad_reads=((0,), (1,)))
def _softmax_xent(xp, logits, labels):
    """(per-example loss, d loss / d logits) for one-hot (or soft) labels."""
    wide = _widened(xp, logits)
    shifted = wide - wide.max(axis=-1, keepdims=True)
    log_total = xp.log(xp.exp(shifted).sum(axis=-1, keepdims=True))
    log_probs = shifted - log_total
    loss = -(labels * log_probs).sum(axis=-1)
    return loss.astype(logits.dtype, copy=False), (xp.exp(log_probs) - labels).astype(logits.dtype, copy=False)


def _erf_kernel(xp, a):
    if xp is not np_module:  # CuPy: its special functions
        from cupyx.scipy.special import erf
        return erf(a)
    return _erf_host(a).astype(a.dtype, copy=False)


def _erf_host(a):
    import math
    flat = np_module.frompyfunc(math.erf, 1, 1)(a.astype(np_module.float64).reshape(-1))
    return flat.astype(np_module.float64).reshape(a.shape)


define("Erf", FLOATS, shape=rules.same,
       grad=lambda e, g: [g * (2.0 / 1.7724538509055159) * emit("Exp", (-(e.inputs[0] * e.inputs[0]),))])(_erf_kernel)
