"""tf.raw_ops, nn family: convolutions, pooling, their gradient ops, CTC and the candidate samplers.

The samplers take TF's (seed, seed2) attrs as one op seed of placeflow's samplers: the same seeds repeat
placeflow's draws (combined with a global seed where one is set), not TensorFlow's.
"""

from __future__ import annotations

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes
from . import math_ops, nn, nn_pooling, nn_sampling
from .raw_ops_common import invalid, named, nhwc_only, outputs, refuse


def _ints(value) -> tuple:
    """A static list of ints (a list, tuple or constant tensor) as a tuple."""
    if hasattr(value, "numpy"):
        value = value.numpy()
    return tuple(int(v) for v in (value.tolist() if hasattr(value, "tolist") else value))


def _padding(padding: str, explicit_paddings):
    """TF's padding attr: "SAME"/"VALID", or "EXPLICIT" with explicit_paddings as per-dimension pairs."""
    padding = padding.decode() if isinstance(padding, bytes) else padding
    if padding != "EXPLICIT":
        if list(explicit_paddings):
            invalid(f"explicit_paddings should be empty when padding is {padding!r}; got {list(explicit_paddings)}")
        return padding
    values = [int(v) for v in explicit_paddings]
    return [values[i:i + 2] for i in range(0, len(values), 2)]


def _no_dilation(op: str, dilations):
    if any(int(v) != 1 for v in dilations):
        refuse(op, "dilations", list(dilations), "dilations of 1 (use tf.nn.conv2d_transpose or tf.nn.conv2d)")


def _conv2d(*, input, filter, strides, padding, use_cudnn_on_gpu=True, explicit_paddings=(),  # noqa: A002
            data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """Conv2D: use_cudnn_on_gpu changes nothing (placeflow has no cuDNN; TF ignores it on CPU); EXPLICIT padding
    is zero padding followed by a VALID convolution."""
    pad = _padding(padding, explicit_paddings)
    if not isinstance(pad, str):
        from .indexing import pad as zero_pad
        input, pad = zero_pad(input, pad), "VALID"  # noqa: A001
    return nn.conv2d(input, filter, list(strides), pad, data_format, list(dilations), name=name)


def _conv2d_backprop_input(*, input_sizes, filter, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                           explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    pad = _padding(padding, explicit_paddings)
    if not isinstance(pad, str):
        refuse("Conv2DBackpropInput", "padding", "EXPLICIT", "padding='SAME' or 'VALID'")
    return nn.conv2d_transpose(out_backprop, filter, input_sizes, list(strides), pad, data_format, list(dilations),
                               name=name)


def _conv2d_backprop_filter(*, input, filter_sizes, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                            explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    nhwc_only("Conv2DBackpropFilter", data_format)
    _no_dilation("Conv2DBackpropFilter", dilations)
    pad = _padding(padding, explicit_paddings)
    if not isinstance(pad, str):
        refuse("Conv2DBackpropFilter", "padding", "EXPLICIT", "padding='SAME' or 'VALID'")
    x = convert_to_tensor(input)
    g = convert_to_tensor(out_backprop, dtype=x.dtype)
    return execute("Conv2DBackpropFilter", (x, g), x.dtype, {"filter_sizes": _ints(filter_sizes),
                                                            "strides": _ints(strides), "padding": pad}, name=name)


def _conv3d_backprop_filter(*, input, filter_sizes, out_backprop, strides, padding, data_format="NDHWC",  # noqa: A002
                            dilations=(1, 1, 1, 1, 1), name=None):
    nhwc_only("Conv3DBackpropFilterV2", data_format, "NDHWC")
    _no_dilation("Conv3DBackpropFilterV2", dilations)
    x = convert_to_tensor(input)
    g = convert_to_tensor(out_backprop, dtype=x.dtype)
    return execute("Conv3DBackpropFilterV2", (x, g), x.dtype, {"filter_sizes": _ints(filter_sizes),
                                                              "strides": _ints(strides), "padding": padding}, name=name)


def _window(ksize, strides, rank: int = 4):
    """TF's ksize and strides attrs: lists of one entry per dimension (at least `rank`)."""
    for attr, value in (("ksize", ksize), ("strides", strides)):
        if len(list(value)) < rank:
            invalid(f"Length for attr '{attr}' of {len(list(value))} must be at least minimum {rank}; give one entry "
                    "per dimension of the input.")
    return list(ksize), list(strides)


def _avg_pool(*, value, ksize, strides, padding, data_format="NHWC", name=None):
    return nn.avg_pool2d(value, *_window(ksize, strides), padding, data_format, name=name)


def _max_pool(*, input, ksize, strides, padding, explicit_paddings=(), data_format="NHWC", name=None):  # noqa: A002
    if padding == "EXPLICIT" or list(explicit_paddings):
        refuse("MaxPool", "padding", padding, "padding='SAME' or 'VALID'")
    return nn.max_pool2d(input, *_window(ksize, strides), padding, data_format, name=name)


def _pool3d(fn):
    def raw(*, input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
        return fn(input, *_window(ksize, strides, 5), padding, data_format, name=name)
    return raw


def _pool_attrs(ksize, strides, padding) -> dict:
    return {"ksize": _ints(ksize), "strides": _ints(strides), "padding": padding}


def _avg_pool_grad(op: str, default: str):
    def raw(*, orig_input_shape, grad, ksize, strides, padding, data_format=default, name=None):
        nhwc_only(op, data_format, default)
        g = convert_to_tensor(grad)
        attrs = dict(_pool_attrs(ksize, strides, padding), orig_input_shape=_ints(orig_input_shape))
        return execute(op, (g,), g.dtype, attrs, name=name)
    return raw


def _run_max_pool_grad(op, orig_input, grad, ksize, strides, padding, name):
    """MaxPoolGrad(3D): the gradient routed to each window's first maximum of orig_input (placeflow recomputes
    the maxima from orig_input, so orig_output must be that pool's output, as TF requires)."""
    x = convert_to_tensor(orig_input)
    g = convert_to_tensor(grad, dtype=x.dtype)
    return execute(op, (x, g), x.dtype, _pool_attrs(ksize, strides, padding), name=name)


def _max_pool_grad(*, orig_input, orig_output, grad, ksize, strides, padding, explicit_paddings=(),
                   data_format="NHWC", name=None):
    nhwc_only("MaxPoolGrad", data_format)
    if padding == "EXPLICIT" or list(explicit_paddings):
        refuse("MaxPoolGrad", "padding", padding, "padding='SAME' or 'VALID'")
    return _run_max_pool_grad("MaxPoolGrad", orig_input, grad, ksize, strides, padding, name)


def _max_pool3d_grad(*, orig_input, orig_output, grad, ksize, strides, padding, data_format="NDHWC", name=None):
    nhwc_only("MaxPool3DGrad", data_format, "NDHWC")
    return _run_max_pool_grad("MaxPool3DGrad", orig_input, grad, ksize, strides, padding, name)


def _max_pool_with_argmax(*, input, ksize, strides, padding, Targmax=dtypes.int64,  # noqa: A002,N803
                          include_batch_in_index=False, name=None):
    found = nn_pooling.max_pool_with_argmax(input, list(ksize), list(strides), padding, "NHWC", Targmax,
                                            include_batch_in_index, name=name)
    return outputs("MaxPoolWithArgmax", "output argmax", tuple(found))


def _max_pool_grad_with_argmax(*, input, grad, argmax, ksize, strides, padding,  # noqa: A002
                               include_batch_in_index=False, name=None):
    x = convert_to_tensor(input)
    g, where = convert_to_tensor(grad, dtype=x.dtype), convert_to_tensor(argmax)
    # argmax names each window's source, so ksize, strides and padding are not needed to route the gradient
    return execute("MaxPoolGradWithArgmax", (x, g, where), x.dtype,
                   {"include_batch_in_index": bool(include_batch_in_index)}, name=name)


def _dilation_grad(op: str):
    def raw(*, input, filter, out_backprop, strides, rates, padding, name=None):  # noqa: A002
        x = convert_to_tensor(input)
        f, g = convert_to_tensor(filter, dtype=x.dtype), convert_to_tensor(out_backprop, dtype=x.dtype)
        return execute(op, (x, f, g), x.dtype, {"strides": _ints(strides), "rates": _ints(rates),
                                                "padding": padding}, name=name)
    return raw


def _bias_add_grad(*, out_backprop, data_format="NHWC", name=None):
    g = convert_to_tensor(out_backprop)
    if data_format == "NCHW" and g.shape.rank is not None and g.shape.rank > 2:
        return math_ops.reduce_sum(g, [0] + list(range(2, g.shape.rank)), name=name)
    return execute("BiasAddGrad", (g,), g.dtype, name=name)


def _relu_grad(*, gradients, features, name=None):
    g = convert_to_tensor(gradients)
    return execute("ReluGrad", (g, convert_to_tensor(features, dtype=g.dtype)), g.dtype, name=name)


def _ctc_loss(*, inputs, labels_indices, labels_values, sequence_length, preprocess_collapse_repeated=False,
              ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False, name=None):
    x = convert_to_tensor(inputs)
    attrs = {"preprocess_collapse_repeated": bool(preprocess_collapse_repeated),
             "ctc_merge_repeated": bool(ctc_merge_repeated),
             "ignore_longer_outputs_than_inputs": bool(ignore_longer_outputs_than_inputs)}
    found = execute("CTCLoss", (x, convert_to_tensor(labels_indices, dtypes.int64),
                                convert_to_tensor(labels_values, dtypes.int32),
                                convert_to_tensor(sequence_length, dtypes.int32)), x.dtype, attrs, name=name)
    return outputs("CTCLoss", "loss gradient", found)


_DECODED = "decoded_indices decoded_values decoded_shape log_probability"


def _ctc_greedy(*, inputs, sequence_length, merge_repeated=False, blank_index=-1, name=None):
    x = convert_to_tensor(inputs)
    found = execute("CTCGreedyDecoder", (x, convert_to_tensor(sequence_length, dtypes.int32)), x.dtype,
                    {"merge_repeated": bool(merge_repeated), "blank_index": int(blank_index)}, name=name)
    return outputs("CTCGreedyDecoder", _DECODED, found)


def _ctc_beam(*, inputs, sequence_length, beam_width, top_paths, merge_repeated=True, name=None):
    x = convert_to_tensor(inputs)
    paths = int(top_paths)
    found = execute("CTCBeamSearchDecoder", (x, convert_to_tensor(sequence_length, dtypes.int32)), x.dtype,
                    {"beam_width": int(beam_width), "top_paths": paths, "merge_repeated": bool(merge_repeated)},
                    name=name)
    parts = (list(found[:paths]), list(found[paths:2 * paths]), list(found[2 * paths:3 * paths]), found[3 * paths])
    return outputs("CTCBeamSearchDecoder", _DECODED, parts)


def op_seed(seed, seed2):
    """TF's (seed, seed2) attrs as placeflow's op seed: None when both are 0 (unseeded), else one int."""
    return None if not seed and not seed2 else (int(seed) * 1000003 + int(seed2)) % 2147483647


def _sampler(op: str, fn):
    def raw(*, true_classes, num_true, num_sampled, unique, range_max, seed=0, seed2=0, name=None):
        found = fn(true_classes, num_true, num_sampled, unique, range_max, seed=op_seed(seed, seed2), name=name)
        return outputs(op, "sampled_candidates true_expected_count sampled_expected_count", tuple(found))
    return raw


def _all_sampler(*, true_classes, num_true, num_sampled, unique, seed=0, seed2=0, name=None):
    found = nn_sampling.all_candidate_sampler(true_classes, num_true, num_sampled, unique, op_seed(seed, seed2), name)
    return outputs("AllCandidateSampler", "sampled_candidates true_expected_count sampled_expected_count",
                   tuple(found))


def _fixed_sampler(*, true_classes, num_true, num_sampled, unique, range_max, vocab_file="", distortion=1,
                   num_reserved_ids=0, num_shards=1, shard=0, unigrams=(), seed=0, seed2=0, name=None):
    found = nn_sampling.fixed_unigram_candidate_sampler(
        true_classes, num_true, num_sampled, unique, range_max, vocab_file, distortion, num_reserved_ids, num_shards,
        shard, list(unigrams), op_seed(seed, seed2), name)
    return outputs("FixedUnigramCandidateSampler", "sampled_candidates true_expected_count sampled_expected_count",
                   tuple(found))


def _accidental_hits(*, true_classes, sampled_candidates, num_true, seed=0, seed2=0, name=None):
    """ComputeAccidentalHits draws nothing: its seeds change nothing in TF either."""
    found = nn_sampling.compute_accidental_hits(true_classes, sampled_candidates, num_true, name=name)
    return outputs("ComputeAccidentalHits", "indices ids weights", tuple(found))


_OPS = {
    "Conv2D": _conv2d, "Conv2DBackpropInput": _conv2d_backprop_input, "Conv2DBackpropFilter": _conv2d_backprop_filter,
    "Conv3D": lambda *, input, filter, strides, padding, data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None:
        nn.conv3d(input, filter, list(strides), padding, data_format, list(dilations), name=name),
    "Conv3DBackpropInputV2": lambda *, input_sizes, filter, out_backprop, strides, padding, data_format="NDHWC",
        dilations=(1, 1, 1, 1, 1), name=None: nn.conv3d_transpose(out_backprop, filter, input_sizes, list(strides),
                                                                  padding, data_format, list(dilations), name=name),
    "Conv3DBackpropFilterV2": _conv3d_backprop_filter,
    "AvgPool": _avg_pool, "MaxPool": _max_pool,
    "AvgPool3D": _pool3d(nn.avg_pool3d), "MaxPool3D": _pool3d(nn.max_pool3d),
    "AvgPoolGrad": _avg_pool_grad("AvgPoolGrad", "NHWC"), "AvgPool3DGrad": _avg_pool_grad("AvgPool3DGrad", "NDHWC"),
    "MaxPoolGrad": _max_pool_grad, "MaxPool3DGrad": _max_pool3d_grad,
    "MaxPoolWithArgmax": _max_pool_with_argmax, "MaxPoolGradWithArgmax": _max_pool_grad_with_argmax,
    "Dilation2D": lambda *, input, filter, strides, rates, padding, name=None: nn_pooling.dilation2d(
        input, filter, list(strides), padding, "NHWC", list(rates), name=name),
    "Dilation2DBackpropInput": _dilation_grad("Dilation2DBackpropInput"),
    "Dilation2DBackpropFilter": _dilation_grad("Dilation2DBackpropFilter"),
    "BiasAddGrad": _bias_add_grad, "ReluGrad": _relu_grad,
    "CTCLoss": _ctc_loss, "CTCGreedyDecoder": _ctc_greedy, "CTCBeamSearchDecoder": _ctc_beam,
    "UniformCandidateSampler": _sampler("UniformCandidateSampler", nn_sampling.uniform_candidate_sampler),
    "LogUniformCandidateSampler": _sampler("LogUniformCandidateSampler", nn_sampling.log_uniform_candidate_sampler),
    "LearnedUnigramCandidateSampler": _sampler("LearnedUnigramCandidateSampler",
                                               nn_sampling.learned_unigram_candidate_sampler),
    "FixedUnigramCandidateSampler": _fixed_sampler, "AllCandidateSampler": _all_sampler,
    "ComputeAccidentalHits": _accidental_hits,
}


def table() -> dict:
    """The nn family's raw ops by TF op name."""
    return {op: named(op, fn, f"tf.raw_ops.{op}, as TensorFlow's op of that name.") for op, fn in _OPS.items()}

