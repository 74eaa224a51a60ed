"""More nn kernels: grayscale dilation (Dilation2D and its two backprops), MaxPoolWithArgmax (and the gradient that
scatters through its argmax), IsotonicRegression (pool adjacent violators) and ComputeAccidentalHits.
Host kernels (gpu=()): their loops run over window taps or rows, as TensorFlow's CPU kernels do."""

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .conv import _pads, output_size
from .emit import emit
from .shape_rules import Incompatible
from .registry import FLOATS, NOT_DIFFERENTIABLE, REAL_NUMBERS, define, no_gradient_registered, no_gradient_yet


def _lowest(dtype):
    return -np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min


def _check_strides(strides, rates=(1, 1, 1, 1)):
    if len(strides) != 4 or strides[0] != 1 or strides[3] != 1 or len(rates) != 4 or rates[0] != 1 or rates[3] != 1:
        raise InvalidArgumentError(None, None, "Current implementation does not yet support strides or rates in the "
                                               "batch and depth dimensions.")


def _taps(in_size, taps, stride, rate, padding):
    """(output length, [taps, out] input positions, with in_size where a position falls outside the input)."""
    window = (taps - 1) * rate + 1
    out = output_size(in_size, window, stride, padding)
    start = _pads(in_size, window, stride, padding)[0]
    pos = np.arange(out)[None, :] * stride + np.arange(taps)[:, None] * rate - start
    return out, np.where((pos >= 0) & (pos < in_size), pos, in_size)


def _dilation_geometry(x_shape, f_shape, strides, rates, padding):
    _check_strides(strides, rates)
    if padding not in ("SAME", "VALID"):
        raise InvalidArgumentError(None, None, f"padding must be 'SAME' or 'VALID', got {padding!r}")
    if len(x_shape) != 4 or len(f_shape) != 3 or x_shape[3] != f_shape[2]:
        raise InvalidArgumentError(None, None, f"input and filter must have the same depth: input {list(x_shape)}, "
                                               f"filter {list(f_shape)}")
    oh, rows = _taps(x_shape[1], f_shape[0], strides[1], rates[1], padding)
    ow, cols = _taps(x_shape[2], f_shape[1], strides[2], rates[2], padding)
    return oh, ow, rows, cols


def _dilation_candidates(xp, x, f, strides, rates, padding):
    """[kh * kw, N, OH, OW, C] input + filter at every tap (row-major tap order; the lowest value outside the
    input), with the geometry (rows, cols)."""
    _, _, rows, cols = _dilation_geometry(x.shape, f.shape, strides, rates, padding)
    padded = xp.pad(x, ((0, 0), (0, 1), (0, 1), (0, 0)), constant_values=_lowest(x.dtype))
    outside = xp.asarray(_lowest(x.dtype), x.dtype)
    values = []
    for i in range(f.shape[0]):
        for j in range(f.shape[1]):
            window = padded[:, rows[i]][:, :, cols[j]]
            inside = (rows[i] < x.shape[1])[:, None, None] & (cols[j] < x.shape[2])[None, :, None]
            values.append(xp.where(inside, window + f[i, j], outside))
    return xp.stack(values), rows, cols


def _dilation_shape(shapes, attrs):
    x, f = shapes
    if x is not None and len(x) != 4:
        raise Incompatible(f"Shape must be rank 4 but is rank {len(x)}")
    if f is not None and len(f) != 3:
        raise Incompatible(f"Shape must be rank 3 but is rank {len(f)}")
    if x is not None and f is not None and None not in (x[3], f[2]) and x[3] != f[2]:
        raise Incompatible(f"Dimensions must be equal, but are {x[3]} and {f[2]}")
    if x is None or f is None or None in (x[1], x[2], f[0], f[1]):
        return None
    strides, rates, padding = attrs["strides"], attrs["rates"], attrs["padding"]
    return (x[0], output_size(x[1], (f[0] - 1) * rates[1] + 1, strides[1], padding),
            output_size(x[2], (f[1] - 1) * rates[2] + 1, strides[2], padding), x[3])


def _dilation_grad(e, g):
    x, f = e.inputs
    return [emit("Dilation2DBackpropInput", (x, f, g), g.dtype, dict(e.attrs)),
            emit("Dilation2DBackpropFilter", (x, f, g), g.dtype, dict(e.attrs))]


@define("Dilation2D", REAL_NUMBERS, gpu=(), shape=_dilation_shape, grad=_dilation_grad)
def _dilation2d(xp, x, f, strides=(1, 1, 1, 1), rates=(1, 1, 1, 1), padding="VALID"):
    """max over the taps of input + filter (TensorFlow's grayscale morphological dilation)."""
    values, _, _ = _dilation_candidates(xp, x, f, strides, rates, padding)
    return values.max(axis=0) if values.shape[0] else values.sum(axis=0)


def _dilation_argmax(xp, x, f, g, strides, rates, padding):
    values, rows, cols = _dilation_candidates(xp, x, f, strides, rates, padding)
    if tuple(g.shape) != tuple(values.shape[1:]):
        raise InvalidArgumentError(None, None, f"out_backprop has incompatible size: {list(g.shape)}, expected "
                                               f"{list(values.shape[1:])}")
    return values.argmax(axis=0), rows, cols


@define("Dilation2DBackpropInput", REAL_NUMBERS, gpu=(), shape=lambda shapes, attrs: shapes[0],
        grad=no_gradient_registered("Dilation2DBackpropInput"))
def _dilation2d_backprop_input(xp, x, f, g, strides=(1, 1, 1, 1), rates=(1, 1, 1, 1), padding="VALID"):
    """Each output's gradient added at the input position its maximum came from (the first in tap order)."""
    best, rows, cols = _dilation_argmax(xp, x, f, g, strides, rates, padding)
    out = xp.zeros((x.shape[0], x.shape[1] + 1, x.shape[2] + 1, x.shape[3]), g.dtype)
    kw = f.shape[1]
    for k in range(f.shape[0] * kw):
        part = xp.where(best == k, g, 0)
        out[:, rows[k // kw][:, None], cols[k % kw][None, :]] += part  # distinct positions per tap (outside: spare)
    return out[:, :x.shape[1], :x.shape[2]]


@define("Dilation2DBackpropFilter", REAL_NUMBERS, gpu=(), shape=lambda shapes, attrs: shapes[1],
        grad=no_gradient_registered("Dilation2DBackpropFilter"))
def _dilation2d_backprop_filter(xp, x, f, g, strides=(1, 1, 1, 1), rates=(1, 1, 1, 1), padding="VALID"):
    """Each output's gradient added at the filter tap its maximum came from."""
    best, _, _ = _dilation_argmax(xp, x, f, g, strides, rates, padding)
    sums = [xp.where(best == k, g, 0).sum(axis=(0, 1, 2)) for k in range(f.shape[0] * f.shape[1])]
    return xp.stack(sums).reshape(f.shape).astype(g.dtype) if sums else xp.zeros(f.shape, g.dtype)


# -- max pool with argmax --------------------------------------------------------------------------------------

def _argmax_pool_shape(shapes, attrs):
    x = shapes[0]
    if x is None or None in (x[1], x[2]):
        return None
    ksize, strides, padding = attrs["ksize"], attrs["strides"], attrs["padding"]
    out = (x[0], output_size(x[1], ksize[1], strides[1], padding), output_size(x[2], ksize[2], strides[2], padding),
           x[3])
    return [out, out]


def _argmax_pool_grad(e, g, g_argmax=None):
    if g is None:
        return [None]
    return [emit("MaxPoolGradWithArgmax", (e.inputs[0], g, e.outputs[1]), g.dtype, {
        "include_batch_in_index": e.attrs.get("include_batch_in_index", False)})]


@define("MaxPoolWithArgmax", REAL_NUMBERS, gpu=(), shape=_argmax_pool_shape, grad=_argmax_pool_grad,
        dtype=lambda dtype, attrs: [dtype, d.as_dtype(attrs.get("Targmax", d.int64))])
def _max_pool_with_argmax(xp, x, ksize=(1, 1, 1, 1), strides=(1, 1, 1, 1), padding="VALID", Targmax=d.int64,
                          include_batch_in_index=False):
    """The maximum of each window and its flattened position ((b *) h * W + w) * C + c (the first maximum in
    row-major window order; padding never wins)."""
    _check_strides(strides)
    if len(ksize) != 4 or ksize[0] != 1 or ksize[3] != 1:
        raise InvalidArgumentError(None, None, "Pooling is not yet supported on the batch nor depth dimensions.")
    if x.ndim != 4:
        raise InvalidArgumentError(None, None, f"input must be 4-dimensional, got shape {list(x.shape)}")
    n, h, w, c = x.shape
    _, rows = _taps(h, ksize[1], strides[1], 1, padding)
    _, cols = _taps(w, ksize[2], strides[2], 1, padding)
    padded = xp.pad(x, ((0, 0), (0, 1), (0, 1), (0, 0)), constant_values=_lowest(x.dtype))
    stacked, places = [], []
    for i in range(ksize[1]):
        for j in range(ksize[2]):
            stacked.append(padded[:, rows[i]][:, :, cols[j]])
            places.append(rows[i][:, None] * w + cols[j][None, :])
    values = xp.stack(stacked)
    best = values.argmax(axis=0)
    out = xp.take_along_axis(values, best[None], axis=0)[0]
    place = xp.take_along_axis(xp.broadcast_to(xp.stack(places)[:, None, :, :, None], values.shape), best[None],
                               axis=0)[0].astype(np.int64)
    index = place * c + xp.arange(c)
    if include_batch_in_index:
        index = index + (xp.arange(n) * (h * w * c))[:, None, None, None]
    return out, index.astype(d.as_dtype(Targmax).numpy_dtype)


@define("MaxPoolGradWithArgmax", REAL_NUMBERS, gpu=(), shape=lambda shapes, attrs: shapes[0],
        grad=no_gradient_yet("MaxPoolGradWithArgmax"), shape_only_inputs=(0,))
def _max_pool_grad_with_argmax(xp, x, g, argmax, include_batch_in_index=False):
    """Each window's gradient added at the flattened position its argmax names."""
    n = x.shape[0]
    size = int(np.prod(x.shape[1:]))
    flat = argmax.reshape(n, -1).astype(np.int64)
    if not include_batch_in_index:
        flat = flat + (xp.arange(n) * size)[:, None]
    if flat.size and (flat.min() < 0 or flat.max() >= n * size):
        raise InvalidArgumentError(None, None, "Invalid argmax: an index is outside the input.")
    out = xp.zeros(n * size, g.dtype)
    np.add.at(out, flat.reshape(-1), g.reshape(-1)) if xp is np else xp.add.at(out, flat.reshape(-1), g.reshape(-1))
    return out.reshape(x.shape)


# -- isotonic regression ---------------------------------------------------------------------------------------

def _isotonic_dtype(dtype, attrs):
    out = d.as_dtype(attrs.get("output_dtype", d.float32))
    return [out, d.int32]


def _isotonic_grad(e, g, g_segments=None):
    """The gradient of a segment mean: each output's gradient averaged over its segment (per row)."""
    return [emit("_IsotonicRegressionGrad", (g, e.outputs[1]), g.dtype)]


@define("IsotonicRegression", REAL_NUMBERS, gpu=(), shape=lambda shapes, attrs: [shapes[0], shapes[0]],
        grad=_isotonic_grad, dtype=_isotonic_dtype)
def _isotonic_regression(xp, x, output_dtype=d.float32):
    """The non-increasing fit of each row (last axis) nearest in squared error, and each entry's segment id."""
    rows = np.asarray(x).reshape(-1, x.shape[-1] if x.ndim else 1).astype(d.as_dtype(output_dtype).numpy_dtype)
    out, segments = np.empty_like(rows), np.zeros(rows.shape, np.int32)
    for r, row in enumerate(rows):
        blocks = []  # [sum, count] of each pooled block
        for value in row:
            blocks.append([value, 1])
            while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] < blocks[-1][0] / blocks[-1][1]:
                total, count = blocks.pop()
                blocks[-1][0] += total
                blocks[-1][1] += count
        start = 0
        for k, (total, count) in enumerate(blocks):
            out[r, start:start + count] = total / count
            segments[r, start:start + count] = k
            start += count
    return xp.asarray(out.reshape(x.shape)), xp.asarray(segments.reshape(x.shape))


@define("_IsotonicRegressionGrad", FLOATS, gpu=(), shape=lambda shapes, attrs: shapes[0], grad=NOT_DIFFERENTIABLE)
def _isotonic_regression_grad(xp, g, segments):
    """Each gradient replaced by the mean of its row's gradients in the same segment."""
    rows = np.asarray(g).reshape(-1, g.shape[-1] if g.ndim else 1)
    ids = np.asarray(segments).reshape(rows.shape)
    out = np.empty_like(rows)
    for r in range(rows.shape[0]):
        sums = np.bincount(ids[r], weights=rows[r])
        counts = np.bincount(ids[r])
        out[r] = (sums / np.maximum(counts, 1))[ids[r]]
    return xp.asarray(out.reshape(g.shape).astype(g.dtype))


# -- accidental hits -------------------------------------------------------------------------------------------

def _hits_shape(shapes, attrs):
    return [(None,), (None,), (None,)]


@define("ComputeAccidentalHits", {d.int64}, gpu=(), shape=_hits_shape, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: [d.int32, d.int64, d.float32])
def _compute_accidental_hits(xp, true_classes, sampled, num_true=1):
    """(row, sampled position, -FLT_MAX) for each true class among the sampled ones (its last position there)."""
    true_classes, sampled = np.asarray(true_classes), np.asarray(sampled)
    if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
        raise InvalidArgumentError(None, None, f"true_classes must be a matrix with num_true={num_true} columns; got "
                                               f"shape {list(true_classes.shape)}")
    where_sampled = {int(v): i for i, v in enumerate(sampled.reshape(-1).tolist())}
    hits = [(row, where_sampled[int(v)]) for row in range(true_classes.shape[0]) for v in true_classes[row].tolist()
            if int(v) in where_sampled]
    rows = np.array([h[0] for h in hits], np.int32)
    ids = np.array([h[1] for h in hits], np.int64)
    weights = np.full(len(hits), -np.finfo(np.float32).max, np.float32)
    return xp.asarray(rows), xp.asarray(ids), xp.asarray(weights)
