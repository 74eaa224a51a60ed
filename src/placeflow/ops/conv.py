"""Convolution and pooling on NHWC images (HWIO filters), with TensorFlow's SAME/VALID padding, and their
gradients: Conv2D, Conv2DBackpropInput (also conv2d_transpose), Conv2DBackpropFilter, MaxPool, AvgPool."""

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .emit import emit, shape_of, zeros_like
from .registry import FLOATS, HEAVY, define
from .shape_rules import Incompatible


def _windows_xp(xp):
    if xp is np:
        return np.lib.stride_tricks.sliding_window_view
    from cupy.lib.stride_tricks import sliding_window_view
    return sliding_window_view


def output_size(size: int, window: int, stride: int, padding: str) -> int:
    """Output length along one axis (TensorFlow's rule)."""
    if padding == "SAME":
        return -(-size // stride)
    return max((size - window) // stride + 1, 0)


def _pads(size: int, window: int, stride: int, padding: str) -> tuple:
    if padding != "SAME":
        return 0, 0
    out = output_size(size, window, stride, padding)
    total = max((out - 1) * stride + window - size, 0)
    return total // 2, total - total // 2


def _check(padding, strides):
    if padding not in ("SAME", "VALID"):
        raise InvalidArgumentError(None, None, f"padding must be 'SAME' or 'VALID', got {padding!r}")
    if strides[0] != 1 or strides[3] != 1:
        raise InvalidArgumentError(None, None, "Current implementation does not yet support strides in the batch "
                                               "and depth dimensions.")


def _padded(xp, x, kh, kw, strides, padding, fill=0.0):
    (top, bottom), (left, right) = (_pads(x.shape[1], kh, strides[1], padding),
                                    _pads(x.shape[2], kw, strides[2], padding))
    if top or bottom or left or right:
        x = xp.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)), constant_values=fill)
    return x, (top, left)


def _patches(xp, x, kh, kw, strides, padding, fill=0.0):
    """[N, OH, OW, C, kh, kw] windows of the padded input, taken every stride."""
    padded, _ = _padded(xp, x, kh, kw, strides, padding, fill)
    windows = _windows_xp(xp)(padded, (kh, kw), axis=(1, 2))
    return windows[:, ::strides[1], ::strides[2]][:, :output_size(x.shape[1], kh, strides[1], padding),
                                                  :output_size(x.shape[2], kw, strides[2], padding)]


def _conv_shape(shapes, attrs):
    x, w = shapes
    for shape in (x, w):
        if shape is not None and len(shape) != 4:
            raise Incompatible(f"Shape must be rank 4 but is rank {len(shape)}")
    if x is not None and w is not None and None not in (x[3], w[2]) and w[2] and x[3] % w[2]:
        raise Incompatible(f"Depth of input ({x[3]}) is not a multiple of input depth of filter ({w[2]})")
    if x is None or w is None or None in (x[1], x[2], w[0], w[1]):
        return None
    strides, padding = attrs.get("strides", (1, 1, 1, 1)), attrs.get("padding", "VALID")
    return (x[0], output_size(x[1], w[0], strides[1], padding), output_size(x[2], w[1], strides[2], padding), w[3])


def _conv_grad(e, g):
    x, w = e.inputs
    attrs = {"strides": e.attrs.get("strides", (1, 1, 1, 1)), "padding": e.attrs.get("padding", "VALID")}
    return [emit("Conv2DBackpropInput", (w, g), g.dtype, dict(attrs, input_sizes=shape_of(x))),
            emit("Conv2DBackpropFilter", (x, g), g.dtype, dict(attrs, filter_sizes=shape_of(w)))]


def _groups(depth: int, w_shape) -> int:
    """How many channel groups a convolution has: input depth / filter depth (TensorFlow's grouped conv)."""
    if len(w_shape) != 4 or w_shape[2] == 0 or depth % w_shape[2] or w_shape[3] % (depth // w_shape[2]):
        raise InvalidArgumentError(None, None, f"input depth must be evenly divisible by filter depth: {depth} vs "
                                               f"{w_shape[2] if len(w_shape) == 4 else list(w_shape)}")
    return depth // w_shape[2]


def _group_slices(depth: int, w_shape):
    """(input channels, output channels) of each group."""
    groups = _groups(depth, w_shape)
    ci, co = w_shape[2], w_shape[3] // groups
    return [(slice(k * ci, (k + 1) * ci), slice(k * co, (k + 1) * co)) for k in range(groups)]


def _im2col_scratch(x, kh, kw, attrs, itemsize) -> list:
    """The temporaries of an im2col convolution: the padded input (when padded) and the column matrix."""
    strides, padding = attrs.get("strides", (1, 1, 1, 1)), attrs.get("padding", "VALID")
    n, h, wid, c = x
    (top, bottom), (left, right) = _pads(h, kh, strides[1], padding), _pads(wid, kw, strides[2], padding)
    oh, ow = output_size(h, kh, strides[1], padding), output_size(wid, kw, strides[2], padding)
    padded = [n * (h + top + bottom) * (wid + left + right) * c * itemsize] if top or bottom or left or right else []
    return padded + [n * oh * ow * kh * kw * c * itemsize]


@define("Conv2D", FLOATS | {d.int32}, shape=_conv_shape, grad=_conv_grad, cost=HEAVY, buffer="view",
        scratch=lambda shapes, attrs, itemsize: _im2col_scratch(shapes[0], shapes[1][0], shapes[1][1], attrs, itemsize))
def _conv2d(xp, x, w, strides=(1, 1, 1, 1), padding="VALID"):
    _check(padding, strides)
    if x.ndim != 4:
        raise InvalidArgumentError(None, None, f"input must be 4-dimensional {list(x.shape)}")
    parts = []
    for inputs, outputs in _group_slices(x.shape[3], w.shape):
        columns, (n, oh, ow) = _columns(xp, x[..., inputs], w.shape[0], w.shape[1], strides, padding)
        kernel = w[..., outputs]
        parts.append((columns @ kernel.reshape(-1, kernel.shape[-1])).reshape(n, oh, ow, kernel.shape[-1]))
    out = parts[0] if len(parts) == 1 else xp.concatenate(parts, axis=-1)
    return out.astype(x.dtype, copy=False)


NARROW = 16   # host inputs with fewer channels than this are copied into columns tap by tap (_columns_by_tap)


def _columns(xp, x, kh, kw, strides, padding):
    """im2col: the windows as rows [N * OH * OW, kh * kw * C] (kh, kw, C order, as HWIO filters), and (N, OH, OW)."""
    if xp is np and x.shape[3] < NARROW and min(_padded_size(x, kh, kw, strides, padding)) > 0:
        return _columns_by_tap(x, kh, kw, strides, padding)
    patches = _patches(xp, x, kh, kw, strides, padding)  # n, oh, ow, c, kh, kw
    n, oh, ow = patches.shape[:3]
    rows = patches.transpose(0, 1, 2, 4, 5, 3).reshape(n * oh * ow, kh * kw * x.shape[3])
    return rows, (n, oh, ow)


def _padded_size(x, kh, kw, strides, padding) -> tuple:
    """How far each window fits into the padded input: (rows, columns) to spare, negative when it does not."""
    (top, bottom), (left, right) = _pads(x.shape[1], kh, strides[1], padding), _pads(x.shape[2], kw, strides[2],
                                                                                    padding)
    return x.shape[1] + top + bottom - kh + 1, x.shape[2] + left + right - kw + 1


def _columns_by_tap(x, kh, kw, strides, padding):
    """_columns for few channels: NumPy copies a window's C entries (C < NARROW) in an inner loop too short to
    pay for itself, so the columns are built transposed, [kh, kw, C, N, OH, OW], one filter tap at a time from a
    channel-major copy of the input (inner loops OW long); the rows are that array's transpose (a view)."""
    padded, _ = _padded(np, x, kh, kw, strides, padding)
    n, c = x.shape[0], x.shape[3]
    oh, ow = output_size(x.shape[1], kh, strides[1], padding), output_size(x.shape[2], kw, strides[2], padding)
    channels = np.ascontiguousarray(padded.transpose(3, 0, 1, 2))   # c, n, h, w
    columns = np.empty((kh, kw, c, n, oh, ow), x.dtype)
    for i in range(kh):
        for j in range(kw):
            columns[i, j] = channels[:, :, i:i + strides[1] * oh:strides[1], j:j + strides[2] * ow:strides[2]]
    return columns.reshape(kh * kw * c, n * oh * ow).T, (n, oh, ow)


def _backprop_input(xp, w, g, input_sizes, strides, padding):
    n, h, wid, c = input_sizes
    kh, kw = w.shape[0], w.shape[1]
    (top, bottom), (left, right) = _pads(h, kh, strides[1], padding), _pads(wid, kw, strides[2], padding)
    out = xp.zeros((n, h + top + bottom, wid + left + right, c), g.dtype)
    oh, ow = g.shape[1], g.shape[2]
    for i in range(kh):
        for j in range(kw):
            out[:, i:i + strides[1] * oh:strides[1], j:j + strides[2] * ow:strides[2]] += \
                xp.einsum("nhwo,co->nhwc", g, w[i, j])
    return out[:, top:top + h, left:left + wid]


def _padded_input(shapes, attrs):
    """The buffer Conv2DBackpropInput's kernel fills: the input's size plus the padding (the output is its inside)."""
    n, h, wid, c = attrs["input_sizes"]
    kh, kw = shapes[0][0], shapes[0][1]
    strides, padding = attrs.get("strides", (1, 1, 1, 1)), attrs.get("padding", "VALID")
    (top, bottom), (left, right) = _pads(h, kh, strides[1], padding), _pads(wid, kw, strides[2], padding)
    return (n, h + top + bottom, wid + left + right, c)


@define("Conv2DBackpropInput", FLOATS | {d.int32}, shape=lambda shapes, attrs: tuple(attrs["input_sizes"]), cost=HEAVY,
        buffer=_padded_input, scratch=lambda shapes, attrs, itemsize: [  # one filter tap's product at a time
            int(np.prod(shapes[1][:3])) * attrs["input_sizes"][3] * itemsize],
        grad=lambda e, g: [emit("Conv2DBackpropFilter", (g, e.inputs[1]), g.dtype, {
            "strides": e.attrs["strides"], "padding": e.attrs["padding"], "filter_sizes": shape_of(e.inputs[0])}),
            emit("Conv2D", (g, e.inputs[0]), g.dtype, {"strides": e.attrs["strides"],
                                                        "padding": e.attrs["padding"]})])
def _conv2d_backprop_input(xp, w, g, input_sizes=(), strides=(1, 1, 1, 1), padding="VALID"):
    """The gradient of Conv2D with respect to its input (also the transposed convolution)."""
    _check(padding, strides)
    sizes = tuple(input_sizes)
    parts = [_backprop_input(xp, w[..., outputs], g[..., outputs], sizes[:3] + (w.shape[2],), strides, padding)
             for _, outputs in _group_slices(sizes[3], w.shape)]
    out = parts[0] if len(parts) == 1 else xp.concatenate(parts, axis=-1)
    return out.astype(g.dtype, copy=False)


def _backprop_filter_grad(e, h):
    """TensorFlow's rule: the filter gradient is bilinear in (input, out_backprop): h's transposed convolution
    with out_backprop for the input, the convolution of the input with h for out_backprop."""
    x, g = e.inputs
    attrs = {"strides": e.attrs.get("strides", (1, 1, 1, 1)), "padding": e.attrs.get("padding", "VALID")}
    return [emit("Conv2DBackpropInput", (h, g), g.dtype, dict(attrs, input_sizes=shape_of(x))),
            emit("Conv2D", (x, h), x.dtype, attrs)]


@define("Conv2DBackpropFilter", FLOATS, shape=lambda shapes, attrs: tuple(attrs["filter_sizes"]), cost=HEAVY,
        buffer="view",
        scratch=lambda shapes, attrs, itemsize: _im2col_scratch(shapes[0], attrs["filter_sizes"][0],
                                                                attrs["filter_sizes"][1], attrs, itemsize),
        grad=_backprop_filter_grad)
def _conv2d_backprop_filter(xp, x, g, filter_sizes=(), strides=(1, 1, 1, 1), padding="VALID"):
    """The gradient of Conv2D with respect to its filter."""
    kh, kw = filter_sizes[0], filter_sizes[1]
    parts = []
    for inputs, outputs in _group_slices(x.shape[3], tuple(filter_sizes)):
        columns, _ = _columns(xp, x[..., inputs], kh, kw, strides, padding)
        grads = g[..., outputs]
        parts.append((columns.T @ grads.reshape(-1, grads.shape[-1])).reshape(kh, kw, -1, grads.shape[-1]))
    out = parts[0] if len(parts) == 1 else xp.concatenate(parts, axis=-1)
    return out.astype(x.dtype, copy=False)


def _pool_shape(shapes, attrs):
    x = shapes[0]
    if x is None or None in (x[1], x[2]):
        return None
    ksize, strides, padding = attrs["ksize"], attrs["strides"], attrs.get("padding", "VALID")
    return (x[0], output_size(x[1], ksize[1], strides[1], padding), output_size(x[2], ksize[2], strides[2], padding),
            x[3])


def _tiles(x, ksize, strides, padding):
    """The kh * kw strided views of x that hold each window's entries, in row-major window order, when the
    windows tile x (stride = window, no padding needed); else None. Elementwise maxima over these views
    are much faster than reductions over strided windows."""
    kh, kw = ksize[1], ksize[2]
    if (strides[1], strides[2]) != (kh, kw):
        return None
    oh, ow = output_size(x.shape[1], kh, kh, padding), output_size(x.shape[2], kw, kw, padding)
    if oh * kh > x.shape[1] or ow * kw > x.shape[2]:  # SAME windows that stick out need padding
        return None
    return [(i, j, x[:, i:oh * kh:kh, j:ow * kw:kw]) for i in range(kh) for j in range(kw)]


@define("MaxPool", FLOATS, shape=_pool_shape,
        grad=lambda e, g: [emit("MaxPoolGrad", (e.inputs[0], e.outputs[0], g), g.dtype, dict(e.attrs))])
def _max_pool(xp, x, ksize=(1, 1, 1, 1), strides=(1, 1, 1, 1), padding="VALID"):
    _check(padding, strides)
    tiles = _tiles(x, ksize, strides, padding)
    if tiles is not None:
        if len(tiles) == 1:
            return tiles[0][2].copy()
        out = xp.maximum(tiles[0][2], tiles[1][2])
        for _, _, view in tiles[2:]:
            xp.maximum(out, view, out=out)
        return out
    patches = _patches(xp, x, ksize[1], ksize[2], strides, padding, fill=-np.inf)
    return patches.max(axis=(4, 5)).astype(x.dtype, copy=False)


def _max_pool_grad_tiled(xp, x, best, g, tiles, ksize):
    """MaxPoolGrad for tiling windows, given the pool's output `best`: each window's gradient to its first
    (row-major) maximum (ties are common: a window of ReLU's zeros), in at most four passes a tile, each writing
    into a buffer it owns."""
    kh, kw = ksize[1], ksize[2]
    oh, ow = best.shape[1], best.shape[2]
    finite = bool(xp.isfinite(g).all())   # hits * g is 4x faster than copyto(where=), but 0 * inf is nan
    covered = finite and (oh * kh, ow * kw) == x.shape[1:3]   # every entry of the output written by a tile
    out = xp.empty(x.shape, g.dtype) if covered else xp.zeros(x.shape, g.dtype)
    hits, taken = xp.empty(best.shape, bool), None
    for number, (i, j, view) in enumerate(tiles):
        xp.equal(view, best, out=hits)
        if taken is not None:
            xp.greater(hits, taken, out=hits)          # a maximum no earlier entry of its window was
        target = out[:, i:oh * kh:kh, j:ow * kw:kw]
        if finite:
            xp.multiply(hits, g, out=target)
        else:
            xp.copyto(target, g, where=hits)
        if number == len(tiles) - 1:
            break
        if taken is None:
            taken, hits = hits, xp.empty(best.shape, bool)
        else:
            xp.logical_or(taken, hits, out=taken)
    return out


def _max_pool_grad_grad(e, gg):
    """MaxPoolGrad is linear in its upstream: its gradient picks gg at each window's maximum (TF's
    MaxPoolGradGrad); with respect to x (and the pool's output) it is zero (the maxima's positions are
    piecewise constant)."""
    x = e.inputs[0]
    return [zeros_like(x)] + [zeros_like(y) for y in e.inputs[1:-1]] + [
        emit("_MaxPoolGradGrad", (x, gg), gg.dtype, dict(e.attrs))]


@define("MaxPoolGrad", FLOATS, shape=lambda shapes, attrs: shapes[0], grad=_max_pool_grad_grad)
def _max_pool_grad(xp, x, *output_and_grad, ksize=(1, 1, 1, 1), strides=(1, 1, 1, 1), padding="VALID"):
    """Each window's gradient goes to its first maximum (row-major) of x, as TensorFlow's CPU kernel does. The
    inputs are TF's (orig_input, orig_output, grad), orig_output being MaxPool's output of x (as MaxPool's
    gradient passes it), or (orig_input, grad), the maxima then found again (tf.raw_ops.MaxPoolGrad, which like
    TF's CPU kernel reads only orig_output's shape, and graphs saved by earlier placeflow versions)."""
    if len(output_and_grad) not in (1, 2):
        raise InvalidArgumentError(None, None, f"MaxPoolGrad takes (orig_input, orig_output, grad), got "
                                               f"{1 + len(output_and_grad)} inputs")
    g = output_and_grad[-1]
    tiles = _tiles(x, ksize, strides, padding)
    if tiles is not None:
        best = output_and_grad[0] if len(output_and_grad) == 2 else _max_pool(xp, x, ksize, strides, padding)
        return _max_pool_grad_tiled(xp, x, best, g, tiles, ksize)
    kh, kw = ksize[1], ksize[2]
    patches = _patches(xp, x, kh, kw, strides, padding, fill=-np.inf)
    n, oh, ow, c = patches.shape[:4]
    flat = patches.reshape(n, oh, ow, c, kh * kw)
    winner = flat.argmax(axis=-1)
    padded, (top, left) = _padded(xp, xp.zeros_like(x), kh, kw, strides, padding)
    out = xp.zeros(padded.shape, g.dtype)
    for k in range(kh * kw):
        i, j = divmod(k, kw)
        out[:, i:i + strides[1] * oh:strides[1], j:j + strides[2] * ow:strides[2]] += xp.where(winner == k, g, 0)
    return out[:, top:top + x.shape[1], left:left + x.shape[2]]


def _max_pool_grad_grad_grad(e, g):
    """_MaxPoolGradGrad is linear in gg: its gradient routes g back as MaxPoolGrad does (zero for x)."""
    x = e.inputs[0]
    pooled = emit("MaxPool", (x,), x.dtype, dict(e.attrs))
    return [zeros_like(x), emit("MaxPoolGrad", (x, pooled, g), g.dtype, dict(e.attrs))]


@define("_MaxPoolGradGrad", FLOATS, shape=lambda shapes, attrs: _pool_shape(shapes[:1], attrs),
        grad=_max_pool_grad_grad_grad)
def _max_pool_grad_grad_kernel(xp, x, gg, ksize=(1, 1, 1, 1), strides=(1, 1, 1, 1), padding="VALID"):
    """gg at each window's first maximum (row-major, as MaxPoolGrad routes): the pool's output shape."""
    kh, kw = ksize[1], ksize[2]
    patches = _patches(xp, x, kh, kw, strides, padding, fill=-np.inf)
    n, oh, ow, c = patches.shape[:4]
    winner = patches.reshape(n, oh, ow, c, kh * kw).argmax(axis=-1)
    picked = _patches(xp, gg, kh, kw, strides, padding).reshape(n, oh, ow, c, kh * kw)
    return xp.take_along_axis(picked, winner[..., None], axis=-1)[..., 0]


def _avg_counts(xp, shape, ksize, strides, padding, dtype):
    ones = xp.ones((1, shape[1], shape[2], 1), dtype)
    return _patches(xp, ones, ksize[1], ksize[2], strides, padding).sum(axis=(4, 5))


@define("AvgPool", FLOATS, shape=_pool_shape,
        grad=lambda e, g: [emit("AvgPoolGrad", (g,), g.dtype, dict(e.attrs, orig_input_shape=shape_of(e.inputs[0])))])
def _avg_pool(xp, x, ksize=(1, 1, 1, 1), strides=(1, 1, 1, 1), padding="VALID"):
    """The mean of each window; SAME windows at the border average their valid entries only (as TF)."""
    _check(padding, strides)
    patches = _patches(xp, x, ksize[1], ksize[2], strides, padding)
    counts = _avg_counts(xp, x.shape, ksize, strides, padding, x.dtype)
    return (patches.sum(axis=(4, 5)) / counts).astype(x.dtype, copy=False)


@define("AvgPoolGrad", FLOATS, shape=lambda shapes, attrs: tuple(attrs["orig_input_shape"]),
        grad=lambda e, g: [emit("AvgPool", (g,), g.dtype, {k: e.attrs[k] for k in ("ksize", "strides", "padding")})])
def _avg_pool_grad(xp, g, orig_input_shape=(), ksize=(1, 1, 1, 1), strides=(1, 1, 1, 1), padding="VALID"):
    """Each window's gradient shared equally among the entries it averaged."""
    shape = tuple(orig_input_shape)
    counts = _avg_counts(xp, shape, ksize, strides, padding, g.dtype)
    share = g / counts
    kh, kw = ksize[1], ksize[2]
    padded, (top, left) = _padded(xp, xp.zeros(shape, g.dtype), kh, kw, strides, padding)
    out = xp.zeros(padded.shape, g.dtype)
    oh, ow = g.shape[1], g.shape[2]
    for i in range(kh):
        for j in range(kw):
            out[:, i:i + strides[1] * oh:strides[1], j:j + strides[2] * ow:strides[2]] += share
    return out[:, top:top + shape[1], left:left + shape[2]]
