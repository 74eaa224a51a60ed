"""placeflow.nn: activations, bias_add and softmax cross-entropy."""

from ..eager.execute import execute
from ..framework import dtypes, errors
from ..eager.convert import convert_to_tensor
from .array_ops import transpose
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


def bias_add(value, bias, data_format=None, name=None):
    """value + bias, with `bias` a vector along the last dimension."""
    x = convert_to_tensor(value)
    b = convert_to_tensor(bias, dtype=x.dtype)
    return execute("BiasAdd", (x, b), x.dtype, name=name)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Per-example cross-entropy between integer class `labels` and unscaled `logits`."""
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels)
    if labels.dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"labels must be int32 or int64 class indices, got {labels.dtype.name}; "
                         "cast them with placeflow.cast(labels, placeflow.int32).")
    return execute("SparseSoftmaxCrossEntropyWithLogits", (logits, labels), logits.dtype, name=name)[0]


def _classes_last(x, axis: int):
    if x.shape is None:  # a placeholder of unknown rank
        raise ValueError(f"softmax_cross_entropy_with_logits(axis={axis}) needs inputs of known rank; give the "
                         f"placeholder a shape, or use axis=-1.")
    rank = len(x.shape)
    if not -rank <= axis < rank:
        raise errors.InvalidArgumentError(None, None, f"axis {axis} is out of bounds for an input of rank {rank}; "
                                          f"expected an axis in [{-rank}, {rank}).")
    axis %= rank
    return x if axis == rank - 1 else transpose(x, [d for d in range(rank) if d != axis] + [axis])


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """Per-example cross-entropy between probability `labels` (one-hot) and unscaled `logits` along `axis`."""
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels, dtype=logits.dtype)
    if int(axis) != -1:  # classes along another axis: move them last, as TensorFlow does
        logits, labels = _classes_last(logits, int(axis)), _classes_last(labels, int(axis))
    return execute("SoftmaxCrossEntropyWithLogits", (logits, labels), logits.dtype, name=name)[0]


def _activation(op, features, name, attrs=None):
    x = convert_to_tensor(features)
    return execute(op, (x,), x.dtype, attrs, name=name)


def relu6(features, name=None):
    """min(max(features, 0), 6) (Relu6)."""
    return _activation("Relu6", features, name)


def leaky_relu(features, alpha=0.2, name=None):
    """features where positive, else alpha * features (LeakyRelu)."""
    return _activation("LeakyRelu", features, name, {"alpha": float(alpha)})


def elu(features, name=None):
    """features where positive, else exp(features) - 1 (Elu)."""
    return _activation("Elu", features, name)


def selu(features, name=None):
    """Scaled ELU with TensorFlow's constants (Selu)."""
    return _activation("Selu", features, name)


def softplus(features, name=None):
    """log(exp(features) + 1), computed stably (Softplus)."""
    return _activation("Softplus", features, name)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None):
    """x / sqrt(max(sum(x ** 2, axis), epsilon))."""
    from . import math_ops
    x = convert_to_tensor(x)
    squares = math_ops.reduce_sum(math_ops.square(x), axis=axis, keepdims=True)
    return x * math_ops.rsqrt(math_ops.maximum(squares, epsilon))


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Per-element logistic loss: max(x, 0) - x * z + log(1 + exp(-|x|)) (TensorFlow's stable form)."""
    from . import math_ops
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels, dtype=logits.dtype)
    if tuple(labels.shape) != tuple(logits.shape):
        raise ValueError(f"logits and labels must have the same shape ({tuple(logits.shape)} vs "
                         f"{tuple(labels.shape)})")
    relu_logits = math_ops.maximum(logits, 0.0)
    return relu_logits - logits * labels + math_ops.log1p(math_ops.exp(-math_ops.abs(logits)))


def moments(x, axes, shift=None, keepdims=False, name=None):
    """(mean, variance) of `x` over `axes`."""
    from . import math_ops
    if shift is not None:
        raise NotImplementedError("moments(shift=...) is not implemented in placeflow (TensorFlow ignores it too "
                                  "in TF 2); leave it None.")
    x = convert_to_tensor(x)
    mean = math_ops.reduce_mean(x, axis=axes, keepdims=True)
    variance = math_ops.reduce_mean(math_ops.square(x - math_ops.stop_gradient(mean)), axis=axes, keepdims=True)
    if not keepdims:
        from .array_ops import squeeze
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    return mean, variance


def gelu(features, approximate=False, name=None):
    """x * P(X <= x) for a standard normal X: with erf, or TensorFlow's tanh approximation."""
    from . import math_ops
    x = convert_to_tensor(features)
    if approximate:
        cube = x * x * x
        return 0.5 * x * (1.0 + math_ops.tanh(0.7978845608028654 * (x + 0.044715 * cube)))
    return 0.5 * x * (1.0 + execute("Erf", (x * 0.7071067811865476,), x.dtype))


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """x with each element zeroed with probability `rate` and the rest scaled by 1 / (1 - rate)."""
    from . import math_ops, random
    x = convert_to_tensor(x)
    rate = float(rate)
    if not 0.0 <= rate < 1.0:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
    if rate == 0.0:
        return x
    shape = tuple(x.shape) if noise_shape is None else tuple(int(d) for d in noise_shape)
    keep = math_ops.cast(random.uniform(shape, dtype=x.dtype, seed=seed) >= rate, x.dtype)
    return x * keep * (1.0 / (1.0 - rate))


def embedding_lookup(params, ids, max_norm=None, name=None):
    """The rows of `params` at `ids` (a gather along axis 0)."""
    from .indexing import gather
    if max_norm is not None:
        raise NotImplementedError("embedding_lookup(max_norm=...) is not implemented in placeflow.")
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise NotImplementedError("embedding_lookup over a partitioned list of params is not implemented in "
                                      "placeflow; pass one tensor.")
        params = params[0]
    return gather(params, ids)
