"""More of tf.nn: depthwise convolution backprops, atrous_conv2d_transpose, collapse_repeated, ctc_unique_labels,
isotonic_regression and experimental.general_dropout; with the names of nn_pooling, nn_embedding and
nn_sampling (imported into placeflow.nn from here)."""

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes
from .nn_pooling import (  # noqa: F401 - re-exported under tf.nn
    batch_to_space, dilation2d, erosion2d, max_pool_with_argmax, pool, space_to_batch, with_space_to_batch,
)
from .nn_embedding import embedding_lookup_sparse, safe_embedding_lookup_sparse  # noqa: F401
from .nn_sampling import (  # noqa: F401
    all_candidate_sampler, compute_accidental_hits, fixed_unigram_candidate_sampler, learned_unigram_candidate_sampler,
    nce_loss, sampled_softmax_loss,
)


def _depthwise_attrs(strides, padding, data_format, dilations):
    from .nn import _four, _nhwc_only, _padding, _spatial_dilations
    _nhwc_only(data_format)
    rates = _spatial_dilations(dilations, 2)
    if rates != (1, 1):  # TF 2.21's CPU kernels ignore them (the result is the undilated one): refused instead
        raise NotImplementedError(f"depthwise_conv2d_backprop_*(dilations={list(dilations)}) is not implemented in "
                                  f"placeflow; TensorFlow's CPU kernels ignore dilations here. Use dilations=1.")
    return _four(strides, "strides"), _padding(padding)


def _grouped(filter_shape):
    """A depthwise filter [h, w, in, multiplier] as the grouped-convolution filter [h, w, 1, in * multiplier]."""
    height, width, channels, multiplier = (int(d) for d in filter_shape)
    return [height, width, 1, channels * multiplier]


def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                                    data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of depthwise_conv2d with respect to its input (of shape `input_sizes`)."""
    from .array_ops import _ints, reshape
    strides, padding = _depthwise_attrs(strides, padding, data_format, dilations)
    g = convert_to_tensor(out_backprop)
    w = convert_to_tensor(filter, dtype=g.dtype)
    w = reshape(w, _grouped(w.shape))
    return execute("Conv2DBackpropInput", (w, g), g.dtype, {"input_sizes": _ints(input_sizes), "strides": strides,
                                                           "padding": padding}, name=name)


def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                                     data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of depthwise_conv2d with respect to its filter (of shape `filter_sizes`)."""
    from .array_ops import _ints, reshape
    strides, padding = _depthwise_attrs(strides, padding, data_format, dilations)
    sizes = _ints(filter_sizes)
    x = convert_to_tensor(input)
    g = convert_to_tensor(out_backprop, dtype=x.dtype)
    full = execute("Conv2DBackpropFilter", (x, g), x.dtype, {"filter_sizes": tuple(_grouped(sizes)),
                                                            "strides": strides, "padding": padding})
    return reshape(full, list(sizes), name=name)


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of atrous_conv2d: conv2d_transpose with the filters dilated by `rate` (filters
    [h, w, out, in])."""
    from .array_ops import _ints
    from .nn import conv2d_transpose
    x = convert_to_tensor(value)
    w = convert_to_tensor(filters, dtype=x.dtype)
    if x.shape[3] is not None and int(x.shape[3]) != int(w.shape[3]):
        raise ValueError(f"`value` channel count must be compatible with `filters` input channel count. Received: "
                         f"value.shape={tuple(x.shape)} with channel count {x.shape[3]} and filters.shape="
                         f"{tuple(w.shape)} with input channel count {w.shape[3]}.")
    if int(rate) < 1:
        raise ValueError(f"`rate` cannot be less than one. Received: rate={rate}")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"`padding` must be either 'VALID' or 'SAME'. Received: padding={padding}")
    shape = list(_ints(output_shape))
    if shape[3] != int(w.shape[2]):
        raise ValueError(f"`output_shape` channel count must be compatible with `filters` output channel count. "
                         f"Received: output_shape={shape} with channel count {shape[3]} and filters.shape="
                         f"{tuple(w.shape)} with output channel count {w.shape[2]}.")
    return conv2d_transpose(x, w, shape, 1, padding, dilations=int(rate), name=name)


def collapse_repeated(labels, seq_length, name=None):
    """Each row of `labels` (within its `seq_length`) with runs of one label merged, left-aligned and zero-padded to
    the longest result; and the new lengths."""
    from . import array_ops, math_ops
    from .indexing import gather, scatter_nd
    labels = convert_to_tensor(labels)
    lengths = convert_to_tensor(seq_length)
    width = int(labels.shape[1])
    changed = math_ops.not_equal(labels[:, 1:], labels[:, :-1])
    first = array_ops.ones_like(labels[:, :1], dtype=dtypes.bool)
    keep = math_ops.logical_and(array_ops.concat([first, changed], 1),
                                array_ops.sequence_mask(lengths, maxlen=width))
    counts = math_ops.cast(keep, dtypes.int32)
    new_lengths = math_ops.reduce_sum(counts, axis=1)
    position = math_ops.cumsum(counts, axis=1) - 1
    rows = _row_ids(labels, position)
    target = math_ops.where(keep, position, array_ops.ones_like(position) * width)  # dropped: a spare column
    full = scatter_nd(array_ops.stack([rows, target], axis=-1), labels, array_ops.shape(labels) + [0, 1])
    out = gather(full, array_ops.range(math_ops.reduce_max(new_lengths), dtype=dtypes.int32), axis=1)
    return out, math_ops.cast(new_lengths, lengths.dtype)


def _row_ids(labels, like):
    """The row index of every entry of `like` ([batch, width], int32)."""
    from . import array_ops
    batch = array_ops.range(array_ops.shape(labels)[0], dtype=dtypes.int32)
    return array_ops.ones_like(like) * array_ops.expand_dims(batch, 1)


def ctc_unique_labels(labels, name=None):
    """Each row's distinct labels in order of first appearance (int64, zero-padded to the row length) and, for each
    label, the position of its value among them (int32)."""
    from . import array_ops, math_ops
    from .indexing import gather, scatter_nd
    labels = math_ops.cast(convert_to_tensor(labels), dtypes.int64)
    width = int(labels.shape[1])
    same = math_ops.equal(array_ops.expand_dims(labels, 2), array_ops.expand_dims(labels, 1))  # [b, i, j]
    earlier = convert_to_tensor(np.tril(np.ones((width, width), bool), -1))
    is_first = math_ops.logical_not(math_ops.reduce_any(math_ops.logical_and(same, earlier), axis=2))
    position = math_ops.cumsum(math_ops.cast(is_first, dtypes.int32), axis=1) - 1
    first_of = math_ops.argmax(math_ops.cast(same, dtypes.int32), axis=2, output_type=dtypes.int32)
    idx = gather(position, first_of, batch_dims=1)
    rows = _row_ids(labels, position)
    target = math_ops.where(is_first, position, array_ops.ones_like(position) * width)
    full = scatter_nd(array_ops.stack([rows, target], axis=-1), labels, array_ops.shape(labels) + [0, 1])
    return [full[:, :width], idx]


def isotonic_regression(inputs, decreasing=True, axis=-1):
    """The monotone (non-increasing by default) fit along `axis` nearest in squared error, and the segment id of
    each entry (pool adjacent violators)."""
    from .array_ops import transpose
    x = convert_to_tensor(inputs)
    rank = len(x.shape)
    out_type = x.dtype if x.dtype.is_floating else (dtypes.float64 if x.dtype.size >= 4 else dtypes.float32)
    axis = int(axis) % max(rank, 1)
    perm = list(range(rank))
    if rank and axis != rank - 1:
        perm[axis], perm[-1] = perm[-1], perm[axis]
        x = transpose(x, perm)
    values, segments = execute("IsotonicRegression", (x if decreasing else -x,), x.dtype, {"output_dtype": out_type})
    if not decreasing:
        values = -values
    if rank and axis != rank - 1:
        values, segments = transpose(values, perm), transpose(segments, perm)
    if decreasing:
        from collections import namedtuple
        return namedtuple("IsotonicRegression", ["output", "segments"])(values, segments)
    return values, segments


def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None):
    """x scaled by 1 / (1 - rate), with the entries where uniform_sampler(shape=..., dtype=...) draws below `rate`
    zeroed."""
    from . import array_ops, math_ops
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. Received: "
                         f"x_dtype={x.dtype!r}")
    if isinstance(rate, (int, float)) and not 0 <= rate < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
    if isinstance(rate, (int, float)) and rate == 0:
        return x
    rate_t = convert_to_tensor(rate, dtype=x.dtype)
    shape = array_ops.shape(x) if noise_shape is None else _noise_shape(x, noise_shape)
    scaled = math_ops.multiply(x, 1.0 / (1.0 - rate_t))
    keep = math_ops.cast(uniform_sampler(shape=shape, dtype=x.dtype) >= rate_t, x.dtype)
    return math_ops.multiply(scaled, keep, name=name)


def _noise_shape(x, noise_shape):
    """noise_shape with its None entries taken from x's shape."""
    dims = list(noise_shape) if isinstance(noise_shape, (list, tuple)) else None
    if dims is None:
        return noise_shape
    return [int(x.shape[i]) if d is None else int(d) for i, d in enumerate(dims)]
