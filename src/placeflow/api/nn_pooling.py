"""Space-to-batch rearrangements (space_to_batch_nd, batch_to_space, required_space_to_batch_paddings,
with_space_to_batch), the N-D tf.nn.pool built on them, grayscale dilation and erosion, and max_pool_with_argmax."""

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import build_errors, dtypes, errors


def _invalid(message, graph_message=None):
    """The kernel's InvalidArgumentError eagerly; while a graph is built, TF's shape function's ValueError
    (`graph_message`, when TF's shape function checks it)."""
    if graph_message is None:
        return errors.InvalidArgumentError(None, None, message)
    return build_errors.invalid(graph_message, message)


def _matrix(value, rows, what):
    from .array_ops import get_static_value
    known = get_static_value(convert_to_tensor(value)) if hasattr(value, "dtype") else np.asarray(value)
    if known is None:
        raise NotImplementedError(f"{what} must be known while the graph is built in placeflow; got {value!r}.")
    flat = [int(v) for v in np.asarray(known).reshape(-1)]
    given = tuple(value.shape) if hasattr(value, "shape") else np.shape(np.asarray(value))
    if len(flat) != 2 * rows or len(given) != 2:
        shown = ",".join(str(g) for g in given)
        raise _invalid(f"{what} should have shape [{rows}, 2] instead of [{shown}]",
                       f"Dimension 0 in both shapes must be equal, but are {given[0] if given else 0} and {rows}. "
                       f"Shapes are [{shown}] and [{rows},2].")
    return [list(flat[2 * i:2 * i + 2]) for i in range(rows)]


def _dims(x):
    from .array_ops import shape
    return [shape(x)[i] if d is None else int(d) for i, d in enumerate(x.shape)]


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002 - TensorFlow's name
    """Zero-pad the M spatial dimensions after the batch, cut them into blocks of `block_shape` and move the block
    offsets into the batch: [b, p1 / b1 ... pM / bM, rest] with batch b * prod(block_shape)."""
    from .array_ops import _ints, reshape, transpose
    from .indexing import pad
    x = convert_to_tensor(input)
    blocks = list(_ints(block_shape))
    m = len(blocks)
    pads = _matrix(paddings, m, "paddings")
    for i, b in enumerate(blocks):
        if b < 1:
            raise _invalid(f"All values in block_shape must be positive, got value, {b} at index {i}.",
                           "block_shape must be positive")
    if any(p < 0 for row in pads for p in row):
        raise _invalid("Paddings must be non-negative", "paddings cannot be negative")
    rank = len(x.shape)
    padded = pad(x, [[0, 0]] + pads + [[0, 0]] * (rank - 1 - m)) if any(p for r in pads for p in r) else x
    dims = _dims(padded)
    for i, b in enumerate(blocks):
        if isinstance(dims[i + 1], int) and dims[i + 1] % b:
            raise _invalid(f"padded_shape[{i}]={dims[i + 1]} is not divisible by block_shape[{i}]={b}",
                           f"Dimension size must be evenly divisible by {b} but is {dims[i + 1]}")
    split = [dims[0]] + [v for i, b in enumerate(blocks) for v in (dims[i + 1] // b, b)] + dims[m + 1:]
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(1 + 2 * m, len(split)))
    moved = transpose(reshape(padded, split), perm)
    return reshape(moved, [dims[0] * int(np.prod(blocks))] + [dims[i + 1] // b for i, b in enumerate(blocks)]
                   + dims[m + 1:], name=name)


def space_to_batch(input, block_shape, paddings, name=None):  # noqa: A002
    """tf.space_to_batch (TF 2): space_to_batch_nd."""
    return space_to_batch_nd(input, block_shape, paddings, name)


def batch_to_space(input, block_shape, crops, name=None):  # noqa: A002
    """The inverse of space_to_batch_nd: batch blocks moved back into the spatial dimensions, then cropped (an int
    block_shape means that block in both of two spatial dimensions)."""
    from .array_ops import _ints, reshape, transpose
    from .indexing import slice as slice_
    if isinstance(block_shape, (int, np.integer)):
        block_shape = [int(block_shape)] * 2
    x = convert_to_tensor(input)
    blocks = list(_ints(block_shape))
    m = len(blocks)
    cuts = _matrix(crops, m, "crops")
    for i, b in enumerate(blocks):
        if b < 1:
            raise _invalid(f"All values in block_shape must be positive, got value, {b} at index {i}.")
    if any(c < 0 for row in cuts for c in row):
        raise _invalid("Crops must be non-negative")
    dims = _dims(x)
    total = int(np.prod(blocks))
    if isinstance(dims[0], int) and dims[0] % total:
        raise _invalid(f"Input batch dimension ({dims[0]}) is not divisible by product of block sizes ({total})",
                       f"Dimension size must be evenly divisible by {total} but is {dims[0]}")
    for i, b in enumerate(blocks):
        if isinstance(dims[i + 1], int) and dims[i + 1] * b - sum(cuts[i]) < 0:
            raise _invalid(f"cropped_shape[{i}]={dims[i + 1] * b - sum(cuts[i])} must be non-negative",
                           f"Negative dimension size caused by subtracting {sum(cuts[i])} from {dims[i + 1] * b}")
    batch = dims[0] // total
    grid = reshape(x, blocks + [batch] + dims[1:])
    perm = [m] + [v for i in range(m) for v in (m + 1 + i, i)] + list(range(2 * m + 1, m + len(dims)))
    full = [dims[i + 1] * b for i, b in enumerate(blocks)]
    merged = reshape(transpose(grid, perm), [batch] + full + dims[m + 1:])
    if not any(c for row in cuts for c in row):
        return merged if name is None else execute("Identity", (merged,), merged.dtype, name=name)
    rest = len(dims) - 1 - m
    return slice_(merged, [0] + [c[0] for c in cuts] + [0] * rest,
                  [-1] + [f - sum(c) for f, c in zip(full, cuts)] + [-1] * rest, name=name)



def _required_paddings(shape, blocks, base):
    """([[start, end]] paddings, [[0, extra]] crops) as Python lists."""
    extra = [(b - (s + p[0] + p[1]) % b) % b for s, b, p in zip(shape, blocks, base)]
    return [[p[0], p[1] + e] for p, e in zip(base, extra)], [[0, e] for e in extra]


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """(paddings, crops) making each of `input_shape` plus `base_paddings` divisible by `block_shape` (the extra
    padding at the end, cropped back afterwards)."""
    from .array_ops import _ints
    shape, blocks = list(_ints(input_shape)), list(_ints(block_shape))
    base = [[0, 0]] * len(blocks) if base_paddings is None else _matrix(base_paddings, len(blocks), "base_paddings")
    paddings, crops = _required_paddings(shape, blocks, base)
    return (convert_to_tensor(np.array(paddings, np.int32).reshape(-1, 2)),
            convert_to_tensor(np.array(crops, np.int32).reshape(-1, 2)))


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None, spatial_dims=None,  # noqa: A002
                        data_format=None):
    """op(input, num_spatial_dims, padding) run at a dilation: the input cut into `dilation_rate` interleaved
    batches (space_to_batch_nd), `op` applied with VALID padding, and the result put back."""
    from .array_ops import _ints
    x = convert_to_tensor(input)
    rates = list(_ints(dilation_rate))
    n = len(rates)
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"`padding` must be either 'VALID' or 'SAME'. Received: padding={padding}")
    if any(r < 1 for r in rates):
        raise ValueError(f"`dilation_rate` must be positive. Received: dilation_rate={rates}")
    if all(r == 1 for r in rates):
        return op(x, n, padding)
    start = 2 if data_format is not None and data_format.startswith("NC") else 1
    dims = list(range(start, start + n)) if spatial_dims is None else [int(s) for s in spatial_dims]
    if sorted(set(dims)) != dims or len(dims) != n or dims[0] < 1:
        raise ValueError(f"`spatial_dims` must be unique and ascending positive dimensions. Received: {spatial_dims}")
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError(f"`filter_shape` must be specified for `padding='SAME'`. Received: filter_shape=None "
                             f"and padding={padding}")
        extra = [(int(k) - 1) * r for k, r in zip(_ints(filter_shape), rates)]
        base = [[e // 2, e - e // 2] for e in extra]
    else:
        base = [[0, 0]] * n
    span = list(range(1, dims[-1] + 1))  # block dims from 1 up to the last spatial one (1 where not spatial)
    sizes = [int(x.shape[d]) for d in span]
    full_rates = [rates[dims.index(d)] if d in dims else 1 for d in span]
    full_base = [base[dims.index(d)] if d in dims else [0, 0] for d in span]
    paddings, crops = _required_paddings(sizes, full_rates, full_base)
    converted = space_to_batch_nd(x, full_rates, paddings)
    return batch_to_space(op(converted, n, "VALID"), full_rates, crops)


def pool(input, window_shape, pooling_type, strides=None, padding="VALID", data_format=None,  # noqa: A002
         dilations=None, name=None):
    """N-D (1 to 3) max or average pooling over windows of `window_shape`, with strides or dilations."""
    from . import nn
    window = [int(w) for w in window_shape]
    n = len(window)
    if n not in (1, 2, 3):
        raise ValueError(f"`len(window_shape)` must be 1, 2, or 3. Received: window_shape={window_shape} of "
                         f"length {n}")
    strides = np.array([1] * n if strides is None else [int(s) for s in strides])
    rates = np.array([1] * n if dilations is None else [int(r) for r in dilations])
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"{n}-D {pooling_type} pooling is not supported.")
    if np.any(strides > window):
        raise ValueError(f"`strides` > `window_shape` not supported due to inconsistency between CPU and GPU "
                         f"implementations. Received: strides={strides} and window_shape={window_shape}")
    if np.any(strides > 1) and np.any(rates > 1):
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                         f"strides={strides} and dilation_rate={rates}")
    if padding == "SAME" and np.any(rates > 1):
        raise ValueError(f"pooling with 'SAME' padding is not implemented for `dilation_rate` > 1. Received: "
                         f"padding={padding} and dilation_rate={rates}")
    pool_fn = nn.max_pool if pooling_type == "MAX" else nn.avg_pool
    channels_first = data_format is not None and data_format.startswith("NC")

    def run(x, num_spatial, pad):
        full = [1, 1] + window if channels_first else [1] + window + [1]
        step = [1, 1] + strides.tolist() if channels_first else [1] + strides.tolist() + [1]
        return pool_fn(x, full, step, pad, data_format=data_format, name=None)
    out = with_space_to_batch(input, rates.tolist(), padding, run, filter_shape=window, data_format=data_format)
    return out if name is None else execute("Identity", (out,), out.dtype, name=name)


def _nhwc_morphology(data_format):
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")


def _attr4(value, what, op="Dilation2D"):
    values = [int(v) for v in value]
    if len(values) != 4:
        graph_text = f"Attr '{what}' of '{op}' Op passed list of length {len(values)} less than minimum 4." \
            if len(values) < 4 else f"Length for attr '{what}' of {len(values)} must be 4"
        raise _invalid(f"Length for attr '{what}' of {len(values)} must be at least minimum 4", graph_text)
    return tuple(values)


def _padding(padding, op="Dilation2D"):
    if padding not in ("SAME", "VALID"):
        raise build_errors.string_not_allowed(op, "padding", padding, ("SAME", "VALID"),
                                              f"Value for attr 'padding' of \"{padding}\" is not in the list of "
                                              "allowed values: \"SAME\", \"VALID\"")
    return padding


def dilation2d(input, filters, strides, padding, data_format, dilations, name=None):  # noqa: A002
    """Grayscale morphological dilation: the max over each window of input + filters (filters [h, w, depth])."""
    _nhwc_morphology(data_format)
    x = convert_to_tensor(input)
    f = convert_to_tensor(filters, dtype=x.dtype)
    return execute("Dilation2D", (x, f), x.dtype, {"strides": _attr4(strides, "strides"),
                                                   "rates": _attr4(dilations, "rates"), "padding": _padding(padding)},
                   name=name)


def erosion2d(value, filters, strides, padding, data_format, dilations, name=None):
    """Grayscale morphological erosion: the min over each window of value - filters (the dual of dilation2d with the
    filters mirrored)."""
    from .indexing import reverse
    _nhwc_morphology(data_format)
    x = convert_to_tensor(value)
    f = convert_to_tensor(filters, dtype=x.dtype)
    return -dilation2d(-x, reverse(f, [0, 1]), strides, padding, data_format, dilations, name=name)


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", output_dtype=dtypes.int64,  # noqa: A002
                         include_batch_in_index=False, name=None):
    """The maximum of each window and its position flattened as ((b * H + h) * W + w) * C + c (b only with
    include_batch_in_index)."""
    from .nn import _four
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")
    x = convert_to_tensor(input)
    if x.shape is not None and len(x.shape) != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {len(x.shape)} for '{{{{node MaxPoolWithArgmax}}}} = "
                         f"MaxPoolWithArgmax[]' with input shapes: {list(x.shape)}.")
    out_type = dtypes.as_dtype(output_dtype)
    if out_type not in (dtypes.int32, dtypes.int64):
        from .nn import _attr_name
        raise build_errors.dtype_not_allowed("Targmax", out_type, ("int32", "int64"), (
            f"Value for attr 'Targmax' of {_attr_name(out_type)} is not in the list of allowed values: int32, int64"))
    values, argmax = execute("MaxPoolWithArgmax", (x,), x.dtype, {
        "ksize": _four(ksize, "ksize"), "strides": _four(strides, "strides"), "padding": _padding(padding, "MaxPoolWithArgmax"),
        "Targmax": out_type, "include_batch_in_index": bool(include_batch_in_index)}, name=name)
    from collections import namedtuple
    return namedtuple("MaxPoolWithArgmax", ["output", "argmax"])(values, argmax)
