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
