"""placeflow.nn: activations, bias_add and softmax cross-entropy."""

from ..eager.execute import execute
from ..framework import dtypes, errors
from .axis_args import axis_arg, rank_of
from ..eager.convert import convert_to_tensor
from .array_ops import transpose, zeros_like
from . import math_ops
from .math_ops import sigmoid, tanh  # noqa: F401 - also public under nn
from . import nn_experimental as experimental  # noqa: F401 - tf.nn.experimental
from .special_math import zero_fraction  # noqa: F401 - also public under nn
from .special_math import approx_max_k, approx_min_k  # noqa: F401 - also public under nn (as TF)
from .nn_losses import log_poisson_loss, weighted_cross_entropy_with_logits  # noqa: F401
from .math_ops import in_top_k, top_k  # noqa: F401 - also public under nn
from .ctc import ctc_beam_search_decoder, ctc_greedy_decoder, ctc_loss  # noqa: F401 - CTC loss and decoders
from .nn_more import (  # noqa: F401,E402 - nn_more.py, nn_pooling.py, nn_embedding.py, nn_sampling.py
    all_candidate_sampler, atrous_conv2d_transpose, collapse_repeated, compute_accidental_hits, ctc_unique_labels,
    depthwise_conv2d_backprop_filter, depthwise_conv2d_backprop_input, dilation2d, embedding_lookup_sparse, erosion2d,
    fixed_unigram_candidate_sampler, isotonic_regression, learned_unigram_candidate_sampler, max_pool_with_argmax,
    nce_loss, pool, safe_embedding_lookup_sparse, sampled_softmax_loss, space_to_batch, with_space_to_batch,
)
from .normalization import (  # noqa: F401
    batch_norm_with_global_normalization, local_response_normalization, lrn, normalize_moments,
    sufficient_statistics, weighted_moments,
)


def relu(features, name=None):
    """max(features, 0)."""
    x = convert_to_tensor(features)
    return execute("Relu", (x,), x.dtype, name=name)


def softmax(logits, axis=None, name=None):
    """exp(logits) / sum(exp(logits)) along `axis` (last when None)."""
    x = convert_to_tensor(logits)
    return execute("Softmax", (x,), x.dtype, {"axis": _softmax_axis(x, axis)}, name=name)


def log_softmax(logits, axis=None, name=None):
    """logits - log(sum(exp(logits))) along `axis` (last when None)."""
    x = convert_to_tensor(logits)
    return execute("LogSoftmax", (x,), x.dtype, {"axis": _softmax_axis(x, axis)}, name=name)


def _softmax_axis(x, axis):
    """TF's softmax axis rules: an int in [-rank, rank) (InvalidArgumentError otherwise, floats included)."""
    if axis is None:
        return -1
    axis = axis_arg(axis, float_error=errors.InvalidArgumentError)
    rank = rank_of(x)
    if rank is not None and not -rank <= axis < rank:
        raise errors.InvalidArgumentError(None, None, f"`dim` must be in the range [-{rank}, {rank}) where {rank} is "
                                                      f"the number of dimensions in the input. Received: dim={axis}")
    return axis


def bias_add(value, bias, data_format=None, name=None):
    """value + bias, with `bias` a vector along the channels: the last dimension ("N...C", the default) or the
    second ("NC...")."""
    x = convert_to_tensor(value)
    b = convert_to_tensor(bias, dtype=x.dtype)
    if data_format is None or (data_format.startswith("N") and data_format.endswith("C")):
        return execute("BiasAdd", (x, b), x.dtype, name=name)
    if not (data_format.startswith("NC") and x.shape is not None and len(x.shape) >= 2):
        raise ValueError(f"data_format must be of the form `N...C` or `NC...`; got {data_format!r} for a value of "
                         f"shape {x.shape}.")
    from .array_ops import reshape  # channels second: the bias broadcast along every later dimension
    if len(b.shape) != 1 or (x.shape[1] is not None and b.shape[0] is not None and b.shape[0] != x.shape[1]):
        raise errors.InvalidArgumentError(None, None, f"Must provide as many biases as the channel dimension of the "
                                          f"input tensor: {list(b.shape)} vs. {list(x.shape)}")
    return math_ops.add(x, reshape(b, [-1] + [1] * (len(x.shape) - 2)), name=name)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Per-example cross-entropy between integer class `labels` and unscaled `logits`."""
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels)
    if labels.dtype not in (dtypes.int32, dtypes.int64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'Tlabels' of {_attr_name(labels.dtype)} is not "
                                                      "in the list of allowed values: int32, int64")
    if logits.shape is not None and labels.shape is not None and len(labels.shape) != len(logits.shape) - 1:
        raise ValueError(f"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: labels.shape="
                         f"{tuple(labels.shape)} of rank {len(labels.shape)} and logits.shape={tuple(logits.shape)} "
                         f"of rank {len(logits.shape)}")
    if logits.shape is None or len(logits.shape) == 2:  # (unknown rank: the op checks for 2-D when it runs)
        return execute("SparseSoftmaxCrossEntropyWithLogits", (logits, labels), logits.dtype, name=name)[0]
    from .array_ops import reshape  # the fused op takes [examples, classes]: flatten, then restore
    rows = reshape(logits, [-1, _dimension_or_minus_one(logits.shape, -1)])
    loss = execute("SparseSoftmaxCrossEntropyWithLogits", (rows, reshape(labels, [-1])), logits.dtype)[0]
    return reshape(loss, _reshape_target(labels), name=name)


def _dimension_or_minus_one(shape, axis: int) -> int:
    return -1 if shape is None or shape[axis] is None else int(shape[axis])


def _reshape_target(tensor):
    """`tensor`'s shape for a reshape: its static dims with one unknown as -1, else its run-time shape."""
    from .array_ops import shape
    dims = None if tensor.shape is None else list(tensor.shape)
    if dims is not None and sum(d is None for d in dims) <= 1:
        return [-1 if d is None else int(d) for d in dims]
    return shape(tensor)


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


def crelu(features, name=None, axis=-1):
    """[relu(x), relu(-x)] concatenated along `axis` (concatenated ReLU)."""
    from .array_ops import concat
    x = convert_to_tensor(features)
    return concat([relu(x), relu(math_ops.negative(x))], axis=axis, name=name)


def relu6(features, name=None):
    """min(max(features, 0), 6) (Relu6)."""
    return _activation("Relu6", features, name)


def leaky_relu(features, alpha=0.2, name=None):
    """features where positive, else alpha * features (LeakyRelu); integers are cast to float32 first, as TF."""
    x = convert_to_tensor(features)
    if x.dtype.is_integer:
        x = math_ops.cast(x, dtypes.float32)
    return _activation("LeakyRelu", x, name, {"alpha": float(alpha)})


def elu(features, name=None):
    """features where positive, else exp(features) - 1 (Elu)."""
    return _activation("Elu", features, name)


def selu(features, name=None):
    """Scaled ELU with TensorFlow's constants (Selu)."""
    return _activation("Selu", features, name)


def softplus(features, name=None):
    """log(exp(features) + 1), computed stably (Softplus)."""
    return _activation("Softplus", features, name)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x ** 2, axis), epsilon)); `dim` is TF's deprecated name of `axis`."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'.")
        axis = dim
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
    zeros = zeros_like(logits)
    positive = math_ops.greater_equal(logits, zeros)   # TF's selects, so that its gradient at 0 is TF's too
    relu_logits = math_ops.where(positive, logits, zeros)
    neg_abs_logits = math_ops.where(positive, -logits, logits)
    return relu_logits - logits * labels + math_ops.log1p(math_ops.exp(neg_abs_logits))


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


def _four(value, name) -> tuple:
    """TensorFlow's stride/ksize forms (an int, [h, w], or [1, h, w, 1]) as 4 ints."""
    if isinstance(value, int):
        return (1, value, value, 1)
    value = [int(v) for v in value]
    if len(value) == 1:
        return (1, value[0], value[0], 1)
    if len(value) == 2:
        return (1, value[0], value[1], 1)
    if len(value) == 4:
        return tuple(value)
    raise ValueError(f"{name} should be of length 1, 2 or 4. Received: {name}={value} of length {len(value)}")


_CHANNELS_LAST = {"NCW": "NWC", "NCHW": "NHWC", "NCDHW": "NDHWC"}


def _move_channels(value, to_last: bool):
    rank = len(value.shape)
    return transpose(value, [0, *range(2, rank), 1] if to_last else [0, rank - 1, *range(1, rank - 1)])


def _last_form(value, spatial: int):
    """A full-rank NC... strides/ksize/dilations/shape list in its N...C order (ints and spatial lists as they
    are)."""
    if isinstance(value, (list, tuple)) and len(value) == spatial + 2:
        return [value[0], *value[2:], value[1]]
    return value


def _accepts_channels_first(spatial: int, shape_arg=None):
    """Run a channels-last op on NC... data by moving the channels last and back (TensorFlow's GPU kernels and
    XLA take NC...; its CPU kernels refuse it, which Keras works around with XLA: placeflow computes it)."""
    import functools
    import inspect

    def wrap(fn):
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def run(*args, **kwargs):
            arguments = signature.bind(*args, **kwargs).arguments
            data_format = arguments.get("data_format")
            if data_format not in _CHANNELS_LAST:
                return fn(*args, **kwargs)
            arguments["input"] = _move_channels(convert_to_tensor(arguments["input"]), to_last=True)
            arguments["data_format"] = _CHANNELS_LAST[data_format]
            for name in ("strides", "ksize", "dilations"):
                if name in arguments:
                    arguments[name] = _last_form(arguments[name], spatial)
            if shape_arg is not None:
                from .array_ops import _ints
                arguments[shape_arg] = _last_form(_ints(arguments[shape_arg]), spatial)
            return _move_channels(fn(**arguments), to_last=False)
        return run
    return wrap


def _nhwc_only(data_format, dilations=None):
    if data_format not in (None, "NHWC", "NWC"):
        raise NotImplementedError(f"data_format={data_format!r} is not implemented in placeflow; use NHWC.")
    if dilations not in (None, 1, [1, 1], (1, 1), [1, 1, 1, 1], (1, 1, 1, 1)):
        raise NotImplementedError("dilated transposed convolutions are not implemented in placeflow; use "
                                  "dilations=1.")


def _spatial_dilations(dilations, spatial: int) -> tuple:
    """Per spatial dimension dilation rates from an int, [d, ...] (spatial), or the full NHWC/NWC form."""
    if dilations is None:
        return (1,) * spatial
    values = [int(dilations)] * spatial if isinstance(dilations, int) else [int(v) for v in dilations]
    if len(values) == spatial + 2:
        if values[0] != 1 or values[-1] != 1:
            raise ValueError(f"dilations in the batch and depth dimensions must be 1. Received: {dilations}")
        values = values[1:-1]
    if len(values) == 1:
        values = values * spatial
    if len(values) != spatial or min(values) < 1:
        raise ValueError(f"dilations should be of length 1, {spatial} or {spatial + 2}, each at least 1. "
                         f"Received: dilations={dilations}")
    return tuple(values)


def _dilated_filters(filters, rates: tuple):
    """`filters` (spatial dims first) with rate-1 zeros between taps: a dilated convolution is a plain one
    with this filter, of effective size (k - 1) * rate + 1 (differentiable: pad, reshape, slice)."""
    from .array_ops import expand_dims, reshape
    from .indexing import pad, slice as slice_
    for axis, rate in enumerate(rates):
        if rate == 1:
            continue
        shape = list(filters.shape)
        taps = int(shape[axis])
        spread = expand_dims(filters, axis + 1)
        spread = pad(spread, [[0, 0]] * (axis + 1) + [[0, rate - 1]] + [[0, 0]] * (len(shape) - axis - 1))
        spread = reshape(spread, shape[:axis] + [taps * rate] + shape[axis + 1:])
        size = [-1] * len(shape)
        size[axis] = (taps - 1) * rate + 1
        filters = slice_(spread, [0] * len(shape), size)
    return filters


def _attr_name(dtype) -> str:
    return {"float32": "float", "float64": "double", "float16": "half"}.get(dtype.name, dtype.name)


def _padding(padding) -> str:
    if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'padding' of \"{padding}\" is not in the list "
                                                      "of allowed values: \"SAME\", \"VALID\"")
    return padding.upper()


@_accepts_channels_first(2)
def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):  # noqa: A002
    """2-D convolution of NHWC `input` with HWIO `filters` (Conv2D); dilations as a zero-spread filter."""
    _nhwc_only(data_format)
    x = convert_to_tensor(input)
    w = _dilated_filters(convert_to_tensor(filters, dtype=x.dtype), _spatial_dilations(dilations, 2))
    return execute("Conv2D", (x, w), x.dtype, {"strides": _four(strides, "strides"), "padding": _padding(padding)},
                   name=name)


@_accepts_channels_first(1)
def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):  # noqa: A002
    """1-D convolution of NWC `input` with WIO `filters` (a Conv2D of height 1, as TensorFlow does it)."""
    from .array_ops import expand_dims, squeeze
    _nhwc_only(data_format)
    stride = stride if isinstance(stride, int) else int(list(stride)[-2] if len(list(stride)) == 3 else stride[0])
    rate = _spatial_dilations(dilations, 1)[0]
    out = conv2d(expand_dims(input, 1), expand_dims(filters, 0), (1, 1, stride, 1), padding, dilations=(1, rate))
    return squeeze(out, [1])


def convolution(input, filters, strides=None, padding="VALID", data_format=None, dilations=None,  # noqa: A002
                name=None):
    """N-D convolution by the filters' rank: 1-D (NWC input, WIO filters), 2-D (NHWC, HWIO) or 3-D (NDHWC,
    DHWIO); channels-first data formats too."""
    rank = len(convert_to_tensor(filters).shape) - 2
    if rank == 1:
        stride = 1 if strides is None else (strides if isinstance(strides, int) else list(strides)[0])
        return conv1d(input, filters, stride, padding, data_format or "NWC", dilations, name)
    if rank == 2:
        return conv2d(input, filters, 1 if strides is None else strides, padding, data_format or "NHWC", dilations,
                      name)
    if rank == 3:
        return conv3d(input, filters, 1 if strides is None else strides, padding, data_format or "NDHWC", dilations,
                      name)
    raise ValueError(f"`filters` must be of rank 3, 4 or 5 (a 1-, 2- or 3-D convolution); got shape "
                     f"{tuple(convert_to_tensor(filters).shape)}.")


def _five(value, name) -> tuple:
    """TensorFlow's 3-D stride/ksize forms (an int, [d, h, w], or [1, d, h, w, 1]) as 5 ints."""
    values = [int(value)] * 3 if isinstance(value, int) else [int(v) for v in value]
    if len(values) == 1:
        values = values * 3
    if len(values) == 3:
        return (1, *values, 1)
    if len(values) == 5:
        return tuple(values)
    raise ValueError(f"{name} should be of length 1, 3 or 5. Received: {name}={value} of length {len(values)}")


def _ndhwc_only(data_format):
    if data_format not in (None, "NDHWC"):
        raise NotImplementedError(f"data_format={data_format!r} is not implemented in placeflow (TensorFlow's CPU "
                                  f"kernels have NDHWC only); use NDHWC.")


@_accepts_channels_first(3)
def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):  # noqa: A002
    """3-D convolution of NDHWC `input` with DHWIO `filters` (Conv3D); dilations as a zero-spread filter."""
    _ndhwc_only(data_format)
    x = convert_to_tensor(input)
    w = _dilated_filters(convert_to_tensor(filters, dtype=x.dtype), _spatial_dilations(dilations, 3))
    return execute("Conv3D", (x, w), x.dtype, {"strides": _five(strides, "strides"), "padding": _padding(padding)},
                   name=name)


@_accepts_channels_first(3, shape_arg="output_shape")
def conv3d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NDHWC",  # noqa: A002
                     dilations=None, name=None):
    """The transpose (gradient) of conv3d: NDHWC `input` to `output_shape`, filters DHW(out)(in)."""
    from .array_ops import _ints
    _ndhwc_only(data_format)
    x = convert_to_tensor(input)
    w = _dilated_filters(convert_to_tensor(filters, dtype=x.dtype), _spatial_dilations(dilations, 3))
    return execute("Conv3DBackpropInputV2", (w, x), x.dtype, {"input_sizes": _ints(output_shape),
                                                             "strides": _five(strides, "strides"),
                                                             "padding": _padding(padding)}, name=name)


def _pool3d(op, input, ksize, strides, padding, data_format, name):  # noqa: A002
    _ndhwc_only(data_format)
    x = convert_to_tensor(input)
    if len(x.shape) != 5:
        raise ValueError(f"Input tensor must be of rank 5 (NDHWC); got shape {tuple(x.shape)}")
    return execute(op, (x,), x.dtype, {"ksize": _five(ksize, "ksize"), "strides": _five(strides, "strides"),
                                       "padding": _padding(padding)}, name=name)


@_accepts_channels_first(3)
def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """The maximum of each window of NDHWC `input` (MaxPool3D)."""
    return _pool3d("MaxPool3D", input, ksize, strides, padding, data_format, name)


@_accepts_channels_first(3)
def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """The mean of each window of NDHWC `input`; SAME border windows average their valid entries (AvgPool3D)."""
    return _pool3d("AvgPool3D", input, ksize, strides, padding, data_format, name)


@_accepts_channels_first(2, shape_arg="output_shape")
def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC",  # noqa: A002
                     dilations=None, name=None):
    """The transpose (gradient) of conv2d: NHWC `input` to `output_shape`, filters HW(out)(in); dilations as a
    zero-spread filter."""
    from .array_ops import _ints
    _nhwc_only(data_format)
    x = convert_to_tensor(input)
    w = _dilated_filters(convert_to_tensor(filters, dtype=x.dtype), _spatial_dilations(dilations, 2))
    return execute("Conv2DBackpropInput", (w, x), x.dtype, {"input_sizes": _ints(output_shape),
                                                           "strides": _four(strides, "strides"),
                                                           "padding": _padding(padding)}, name=name)


@_accepts_channels_first(1, shape_arg="output_shape")
def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",  # noqa: A002
                     dilations=None, name=None):
    """The transpose of conv1d: NWC `input` to `output_shape`, filters W(out)(in) (a 2-D one of height 1)."""
    from .array_ops import _ints, expand_dims, squeeze
    _nhwc_only(data_format)
    batch, width, depth = _ints(output_shape)
    stride = _window(strides, "strides")
    rate = _spatial_dilations(dilations, 1)[0]
    out = conv2d_transpose(expand_dims(input, 1), expand_dims(filters, 0), [batch, 1, width, depth],
                           (1, 1, stride, 1), padding, dilations=(1, rate), name=name)
    return squeeze(out, [1])


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002
                   dilations=None, name=None):
    """The transpose of convolution, by the filters' rank: 1-D (rank 3), 2-D (rank 4) or 3-D (rank 5)."""
    rank = len(convert_to_tensor(filters).shape) - 2
    if rank == 1:
        return conv1d_transpose(input, filters, output_shape, strides, padding, data_format or "NWC", dilations,
                                name)
    if rank == 2:
        return conv2d_transpose(input, filters, output_shape, strides, padding, data_format or "NHWC", dilations,
                                name)
    if rank == 3:
        return conv3d_transpose(input, filters, output_shape, strides, padding, data_format or "NDHWC", dilations,
                                name)
    raise ValueError(f"`filters` must be of rank 3, 4 or 5 (a 1-, 2- or 3-D transposed convolution); got shape "
                     f"{tuple(convert_to_tensor(filters).shape)}.")


@_accepts_channels_first(2)
def atrous_conv2d(value, filters, rate, padding, name=None):
    """conv2d with its filter dilated by `rate` (unit strides, NHWC)."""
    rate = int(rate)
    if rate < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    return conv2d(value, filters, [1, 1, 1, 1], padding, dilations=[1, rate, rate, 1], name=name)


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None):  # noqa: A002
    """Each input channel convolved with its own `channel_multiplier` filters: filter [h, w, in, multiplier],
    output channels in * multiplier (channel c's filters at c * multiplier + m), as TensorFlow orders them."""
    import numpy as np
    from .array_ops import reshape
    _nhwc_only(data_format)
    x = convert_to_tensor(input)
    w = convert_to_tensor(filter, dtype=x.dtype)
    height, width, channels, multiplier = (int(d) for d in w.shape)
    # a grouped convolution with one group per input channel: a block-diagonal [h, w, in, in * multiplier] filter
    eye = np.eye(channels, dtype=x.dtype.numpy_dtype)
    block = reshape(w, [height, width, channels, 1, multiplier]) * reshape(
        convert_to_tensor(eye), [1, 1, channels, channels, 1])
    full = reshape(block, [height, width, channels, channels * multiplier])
    return conv2d(x, full, strides, padding, dilations=dilations, name=name)


@_accepts_channels_first(2)
def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None):
    """A depthwise convolution followed by a 1x1 convolution mixing its channels (pointwise_filter
    [1, 1, in * multiplier, out])."""
    _nhwc_only(data_format)
    depthwise = depthwise_conv2d(input, depthwise_filter, strides, padding, dilations=dilations)
    return conv2d(depthwise, pointwise_filter, 1, "VALID", name=name)


def _pool(op, input, ksize, strides, padding, data_format, name):  # noqa: A002
    _nhwc_only(data_format, None)
    x = convert_to_tensor(input)
    if len(x.shape) != 4:
        raise errors.InvalidArgumentError(None, None, f"Input must be 4 or 5-dimensional [Op:{op}]")
    return execute(op, (x,), x.dtype, {"ksize": _four(ksize, "ksize"), "strides": _four(strides, "strides"),
                                       "padding": _padding(padding)}, name=name)


@_accepts_channels_first(2)
def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The maximum of each window of NHWC `input` (MaxPool)."""
    return _pool("MaxPool", input, ksize, strides, padding, data_format, name)


@_accepts_channels_first(2)
def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The mean of each window of NHWC `input`; SAME border windows average their valid entries (AvgPool)."""
    return _pool("AvgPool", input, ksize, strides, padding, data_format, name)


def _window(value, name) -> int:
    values = [value] if isinstance(value, int) else [int(v) for v in value]
    if len(values) == 3:
        values = values[1:2]
    if len(values) != 1:
        raise ValueError(f"{name} should be of length 1 or 3 for a 1-D pool. Received: {name}={value}")
    return values[0]


def _pool1d(op, input, ksize, strides, padding, data_format, name):  # noqa: A002
    """A 1-D pool of NWC `input`, as a 2-D pool of height 1 (as TensorFlow does it)."""
    from .array_ops import expand_dims, squeeze
    _nhwc_only(data_format)
    size, stride = _window(ksize, "ksize"), _window(strides, "strides")
    return squeeze(_pool(op, expand_dims(input, 1), (1, size), (1, stride), padding, None, name), [1])


@_accepts_channels_first(1)
def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """The maximum of each window of NWC `input`."""
    return _pool1d("MaxPool", input, ksize, strides, padding, data_format, name)


@_accepts_channels_first(1)
def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """The mean of each window of NWC `input`."""
    return _pool1d("AvgPool", input, ksize, strides, padding, data_format, name)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """The maximum of each window: 1-D (rank-3 input), 2-D (rank 4) or 3-D (rank 5)."""
    return _pool_by_rank("max", input, ksize, strides, padding, data_format, name)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """The mean of each window: 1-D (rank-3 input), 2-D (rank 4) or 3-D (rank 5)."""
    return _pool_by_rank("avg", input, ksize, strides, padding, data_format, name)


def _pool_by_rank(kind, input, ksize, strides, padding, data_format, name):  # noqa: A002
    rank = len(convert_to_tensor(input).shape)
    if rank == 3:
        return (max_pool1d if kind == "max" else avg_pool1d)(input, ksize, strides, padding, data_format or "NWC",
                                                             name)
    if rank == 4:
        return (max_pool2d if kind == "max" else avg_pool2d)(input, ksize, strides, padding, data_format or "NHWC",
                                                             name)
    if rank == 5:
        return (max_pool3d if kind == "max" else avg_pool3d)(input, ksize, strides, padding,
                                                             data_format or "NDHWC", name)
    raise ValueError(f"`input` of tf.nn.{kind}_pool must be of rank 3, 4 or 5 (a 1-, 2- or 3-D pool); got rank "
                     f"{rank}.")


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) / sqrt(variance + epsilon) * scale + offset (offset and scale may be None)."""
    from . import math_ops
    x = convert_to_tensor(x)
    inverse = math_ops.rsqrt(convert_to_tensor(variance, dtype=x.dtype) + variance_epsilon)
    if scale is not None:
        inverse = inverse * convert_to_tensor(scale, dtype=x.dtype)
    out = x * inverse - convert_to_tensor(mean, dtype=x.dtype) * inverse
    return out + convert_to_tensor(offset, dtype=x.dtype) if offset is not None else out


def softsign(features, name=None):
    """x / (1 + |x|)."""
    x = convert_to_tensor(features)
    return math_ops.divide(x, 1.0 + math_ops.abs(x), name=name)


def silu(features, beta=1.0, name=None):
    """x * sigmoid(beta * x) (also called swish)."""
    x = convert_to_tensor(features)
    return math_ops.multiply(x, math_ops.sigmoid(beta * x if beta != 1.0 else x), name=name)


swish = silu


def l2_loss(t, name=None):
    """sum(t ** 2) / 2."""
    x = convert_to_tensor(t)
    return math_ops.multiply(math_ops.reduce_sum(math_ops.square(x)), 0.5, name=name)



def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Blocks of channels moved into block_size x block_size spatial tiles: [b, h, w, bs*bs*c] -> [b, h*bs, w*bs, c]."""
    from .array_ops import reshape
    if data_format != "NHWC":
        raise NotImplementedError(f"depth_to_space(data_format={data_format!r}) is not implemented in placeflow; "
                                  f"use NHWC.")
    x = convert_to_tensor(input)
    size = int(block_size)
    batch, height, width, depth = (int(d) if d is not None else -1 for d in x.shape)
    if size < 2 or depth % (size * size):
        raise _shape_error(f"Input depth dimension {depth} should be divisible by: "
                                                      f"{size * size}" if size >= 2 else
                                          f"Value for attr 'block_size' of {size} must be at least minimum 2")
    channels = depth // (size * size)
    tiles = reshape(x, [batch, height, width, size, size, channels])
    return reshape(transpose(tiles, [0, 1, 3, 2, 4, 5]), [batch, height * size, width * size, channels], name=name)


def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """The inverse of depth_to_space: [b, h, w, c] -> [b, h/bs, w/bs, bs*bs*c]."""
    from .array_ops import reshape
    if data_format != "NHWC":
        raise NotImplementedError(f"space_to_depth(data_format={data_format!r}) is not implemented in placeflow; "
                                  f"use NHWC.")
    x = convert_to_tensor(input)
    size = int(block_size)
    batch, height, width, depth = (int(d) if d is not None else -1 for d in x.shape)
    if size < 2 or height % size or width % size:
        raise _shape_error(f"Image width {width} and height {height} should be divisible "
                                                      f"by block_size: {size}" if size >= 2 else
                                          f"Value for attr 'block_size' of {size} must be at least minimum 2")
    tiles = reshape(x, [batch, height // size, size, width // size, size, depth])
    return reshape(transpose(tiles, [0, 1, 3, 2, 4, 5]), [batch, height // size, width // size, size * size * depth],
                   name=name)


def _shape_error(message: str) -> Exception:
    """A bad shape: ValueError while a graph is built (TF's shape inference), InvalidArgumentError eagerly."""
    from ..framework import graph_mode
    return ValueError(message) if graph_mode.active() is not None else errors.InvalidArgumentError(None, None, message)
