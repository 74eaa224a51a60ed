"""tf.nn's CTC functions as TensorFlow 2.21 computes them: ctc_loss (dense padded labels through the dense
forward-backward loss, SparseTensor labels through TF's CTCLoss op), the greedy and beam-search decoders, and
tf.compat.v1.nn's TF1 signatures (ctc_loss, ctc_beam_search_decoder) in the namespace `compat_v1_nn`."""

from __future__ import annotations

import types

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes, errors
from . import array_ops, math_ops
from .sparse import SparseTensor

_HALF = (dtypes.float16, dtypes.bfloat16)
_LABEL_TYPES = (dtypes.uint8, dtypes.int8, dtypes.int32, dtypes.int64)


def _classes(logits) -> int:
    shape = logits.shape
    if shape is None or len(shape) != 3:
        raise errors.InvalidArgumentError(None, None, f"logits must be 3-D [frames, batch, classes] (or [batch, "
                                                      f"frames, classes]); got shape {shape}")
    if shape[2] is None:
        raise ValueError("ctc_loss needs the number of classes (logits' last dimension) known statically; got "
                         f"logits of shape {shape}")
    return int(shape[2])


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None, blank_index=None,
             name=None):
    """Per-example CTC loss (negative log probability of `labels` given the `logits` frames), TF 2's signature."""
    if unique is not None:
        raise NotImplementedError(f"placeflow's tf.nn.ctc_loss does not implement `unique` (got {unique!r}); it is "
                                  "a TPU speed-up that does not change the loss: leave it None")
    logits = convert_to_tensor(logits)
    if isinstance(labels, SparseTensor):
        if blank_index is None:
            raise ValueError("Argument `blank_index` must be provided when `labels` is a `SparseTensor`.")
        classes = _classes(logits)
        blank = int(blank_index) + (classes if blank_index < 0 else 0)
        logits = array_ops.concat([logits[:, :, :blank], logits[:, :, blank + 1:], logits[:, :, blank:blank + 1]],
                                  axis=2)
        values = math_ops.where(labels.values < blank, labels.values, labels.values - 1)
        return _sparse_loss(SparseTensor(labels.indices, values, labels.dense_shape), logits, logit_length,
                            False, True, False, logits_time_major)
    blank = 0 if blank_index is None else int(blank_index)
    if blank < 0:
        blank += _classes(logits)
    labels = convert_to_tensor(labels)
    if labels.dtype not in _LABEL_TYPES:
        from ..framework import build_errors
        name = {"float32": "float", "float64": "double", "float16": "half"}.get(labels.dtype.name, labels.dtype.name)
        raise build_errors.dtype_not_allowed("indices", labels.dtype, ("uint8", "int8", "int32", "int64"), (
            f"Value for attr 'TI' of {name} is not in the list of allowed values: uint8, int8, int32, int64"))
    if logits.dtype == dtypes.float64:  # TF multiplies the float64 logits by a float32 mask
        from ..framework import build_errors
        raise build_errors.input_type_mismatch("Mul", "y", dtypes.float32, dtypes.float64, (
            "cannot compute Mul as input #1(zero-based) was expected to be a double tensor but is a float tensor "
            "[Op:Mul]"), of_argument="x")
    _check_label_length(label_length, logits, logits_time_major)
    original = logits.dtype
    if original in _HALF:
        logits = math_ops.cast(logits, dtypes.float32)
    loss = execute("CTCLossDense", (logits, labels, convert_to_tensor(label_length), convert_to_tensor(logit_length)),
                   logits.dtype, {"blank_index": blank, "time_major": bool(logits_time_major)}, name=name)[0]
    return math_ops.cast(loss, original) if original in _HALF else loss


def _check_label_length(label_length, logits, time_major) -> None:
    """While a graph is built, TF's dense loss multiplies a [batch, ...] mask by the label lengths: their shapes must
    agree then (ValueError); eagerly the kernel checks them."""
    from ..framework import build_errors
    lengths = convert_to_tensor(label_length)
    batch = logits.shape[1 if time_major else 0] if logits.shape is not None and len(logits.shape) == 3 else None
    if build_errors.building() and lengths.shape is not None and len(lengths.shape) == 1 and \
            None not in (lengths.shape[0], batch) and lengths.shape[0] != batch:
        raise ValueError(f"Dimensions must be equal, but are {lengths.shape[0]} and {batch} for '{{{{node mul}}}}' "
                         f"with input shapes: [{lengths.shape[0]}], [{batch}].")


def _sparse_loss(labels, inputs, sequence_length, collapse, merge, ignore, time_major):
    """TF's CTCLoss op on SparseTensor labels (blank last), with the time-major and half-precision handling."""
    inputs = convert_to_tensor(inputs)
    if not time_major:
        inputs = array_ops.transpose(inputs, [1, 0, 2])
    original = inputs.dtype
    if original in _HALF:
        inputs = math_ops.cast(inputs, dtypes.float32)
    values = labels.values
    if values.dtype != dtypes.int32:
        raise errors.InvalidArgumentError(None, None, f"cannot compute CTCLoss as input #2(zero-based) was expected "
                                                      f"to be a int32 tensor but is a {values.dtype.name} tensor")
    attrs = {"preprocess_collapse_repeated": bool(collapse), "ctc_merge_repeated": bool(merge),
             "ignore_longer_outputs_than_inputs": bool(ignore)}
    loss = execute("CTCLoss", (inputs, labels.indices, values, convert_to_tensor(sequence_length, dtypes.int32)),
                   inputs.dtype, attrs)[0]
    return math_ops.cast(loss, original) if original in _HALF else loss


def ctc_loss_v1(labels, inputs=None, sequence_length=None, preprocess_collapse_repeated=False,
                ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False, time_major=True, logits=None):
    """tf.compat.v1.nn.ctc_loss: TF's CTCLoss on SparseTensor labels, blank the last class."""
    if not isinstance(labels, SparseTensor):
        raise TypeError(f"Expected argument `labels` to be a SparseTensor. Received labels={labels} of type: "
                        f"{type(labels).__name__}")
    if inputs is not None and logits is not None:
        raise ValueError("Cannot specify both 'logits' and 'inputs'")
    return _sparse_loss(labels, logits if inputs is None else inputs, sequence_length, preprocess_collapse_repeated,
                        ctc_merge_repeated, ignore_longer_outputs_than_inputs, time_major)


def _sparse_result(indices, values, dense_shape):
    """A SparseTensor of a decoder's outputs; in a trace their count is unknown, which SparseTensor's own
    constructor cannot check, so the parts are set as they are."""
    if indices.shape[0] is not None:
        return SparseTensor(indices, values, dense_shape)
    result = SparseTensor.__new__(SparseTensor)
    result.indices, result.values, result.dense_shape = indices, values, dense_shape
    return result


def _decoder_inputs(inputs, sequence_length):
    x = convert_to_tensor(inputs)
    return x, convert_to_tensor(sequence_length, dtypes.int32)


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """([SparseTensor of the best class per frame, blanks dropped]), -sum of the frames' largest logits [batch, 1]."""
    x, lengths = _decoder_inputs(inputs, sequence_length)
    attrs = {"merge_repeated": bool(merge_repeated), "blank_index": -1 if blank_index is None else int(blank_index)}
    indices, values, shape, log_probs = execute("CTCGreedyDecoder", (x, lengths), x.dtype, attrs)
    return [_sparse_result(indices, values, shape)], log_probs


def ctc_beam_search_decoder_v1(inputs, sequence_length, beam_width=100, top_paths=1, merge_repeated=True):
    """tf.compat.v1.nn.ctc_beam_search_decoder: the top_paths best label sequences (SparseTensors) and log probs."""
    x, lengths = _decoder_inputs(inputs, sequence_length)
    paths = int(top_paths)
    attrs = {"beam_width": int(beam_width), "top_paths": paths, "merge_repeated": bool(merge_repeated)}
    out = execute("CTCBeamSearchDecoder", (x, lengths), x.dtype, attrs)
    decoded = [_sparse_result(out[j], out[paths + j], out[2 * paths + j]) for j in range(paths)]
    return decoded, out[3 * paths]


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """The top_paths best label sequences by beam search (blank last, repeats kept) and their log probabilities."""
    return ctc_beam_search_decoder_v1(inputs, sequence_length, beam_width=beam_width, top_paths=top_paths,
                                      merge_repeated=False)


class _CompatV1NN(types.ModuleType):
    """tf.compat.v1.nn: placeflow.nn, with TensorFlow 1's CTC signatures."""

    def __getattr__(self, name):
        from . import nn
        return getattr(nn, name)

    def __dir__(self):
        from . import nn
        return sorted(set(dir(nn)) | set(self.__dict__))


compat_v1_nn = _CompatV1NN("placeflow.compat.v1.nn", _CompatV1NN.__doc__)
compat_v1_nn.ctc_loss = ctc_loss_v1
compat_v1_nn.ctc_beam_search_decoder = ctc_beam_search_decoder_v1
compat_v1_nn.ctc_beam_search_decoder_v2 = ctc_beam_search_decoder
compat_v1_nn.in_top_k = math_ops.in_top_k_v1  # TF1's argument order: predictions, targets, k
