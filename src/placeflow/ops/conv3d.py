"""3-D convolution on NDHWC volumes (DHWIO filters) with TensorFlow's SAME/VALID padding, and its gradients:
Conv3D, Conv3DBackpropInputV2 (also conv3d_transpose), Conv3DBackpropFilterV2; MaxPool3D and AvgPool3D.

The same im2col scheme as conv.py's 2-D kernels, over three spatial axes."""

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .conv import _pads, _windows_xp, output_size
from .emit import emit, shape_of, zeros_like
from .registry import FLOATS, HEAVY, define

SPATIAL = (1, 2, 3)


def _check(padding, strides, x_rank=5):
    if padding not in ("SAME", "VALID"):
        raise InvalidArgumentError(None, None, f"padding must be 'SAME' or 'VALID', got {padding!r}")
    if len(strides) != 5 or strides[0] != 1 or strides[4] != 1:
        raise InvalidArgumentError(None, None, "Current implementation does not yet support strides in the batch "
                                               "and depth dimensions.")
    if x_rank != 5:
        raise InvalidArgumentError(None, None, f"input must be 5-dimensional, got rank {x_rank}")


def _padded(xp, x, window, strides, padding, fill=0.0):
    pads = [_pads(x.shape[axis], window[i], strides[axis], padding) for i, axis in enumerate(SPATIAL)]
    if any(p for pair in pads for p in pair):
        x = xp.pad(x, ((0, 0), *pads, (0, 0)), constant_values=fill)
    return x, [p[0] for p in pads]


def _out_sizes(shape, window, strides, padding) -> tuple:
    return tuple(output_size(shape[axis], window[i], strides[axis], padding) for i, axis in enumerate(SPATIAL))


def _patches(xp, x, window, strides, padding, fill=0.0):
    """[N, OD, OH, OW, C, kd, kh, kw] windows of the padded input, taken every stride."""
    padded, _ = _padded(xp, x, window, strides, padding, fill)
    views = _windows_xp(xp)(padded, tuple(window), axis=SPATIAL)
    od, oh, ow = _out_sizes(x.shape, window, strides, padding)
    return views[:, ::strides[1], ::strides[2], ::strides[3]][:, :od, :oh, :ow]


def _columns(xp, x, window, strides, padding):
    """im2col rows [N * OD * OH * OW, kd * kh * kw * C] (DHWC order, as DHWIO filters) and (N, OD, OH, OW)."""
    patches = _patches(xp, x, window, strides, padding)
    n, od, oh, ow = patches.shape[:4]
    rows = patches.transpose(0, 1, 2, 3, 5, 6, 7, 4).reshape(n * od * oh * ow, -1)
    return rows, (n, od, oh, ow)


def _group_slices(depth, w_shape):
    """(input channels, output channels) of each group of a grouped convolution (input depth / filter depth)."""
    if len(w_shape) != 5 or w_shape[3] == 0 or depth % w_shape[3] or w_shape[4] % (depth // w_shape[3]):
        raise InvalidArgumentError(None, None, f"Input depth must be evenly divisible by filter depth: {depth} vs "
                                               f"{w_shape[3] if len(w_shape) == 5 else list(w_shape)}")
    groups = depth // w_shape[3]
    ci, co = w_shape[3], w_shape[4] // groups
    return [(slice(k * ci, (k + 1) * ci), slice(k * co, (k + 1) * co)) for k in range(groups)]


def _joined(xp, parts):
    return parts[0] if len(parts) == 1 else xp.concatenate(parts, axis=-1)


def _shape(shapes, attrs):
    x, w = shapes
    if x is None or w is None or None in (x[1], x[2], x[3], w[0], w[1], w[2]):
        return None
    strides, padding = attrs.get("strides", (1,) * 5), attrs.get("padding", "VALID")
    return (x[0], *_out_sizes(x, w[:3], strides, padding), w[4])


def _grad(e, g):
    x, w = e.inputs
    attrs = {"strides": e.attrs.get("strides", (1,) * 5), "padding": e.attrs.get("padding", "VALID")}
    return [emit("Conv3DBackpropInputV2", (w, g), g.dtype, dict(attrs, input_sizes=shape_of(x))),
            emit("Conv3DBackpropFilterV2", (x, g), g.dtype, dict(attrs, filter_sizes=shape_of(w)))]


@define("Conv3D", FLOATS, shape=_shape, grad=_grad, cost=HEAVY)
def _conv3d(xp, x, w, strides=(1,) * 5, padding="VALID"):
    _check(padding, strides, x.ndim)
    parts = []
    for inputs, outputs in _group_slices(x.shape[4], w.shape):
        rows, (n, od, oh, ow) = _columns(xp, x[..., inputs], w.shape[:3], strides, padding)
        kernel = w[..., outputs]
        parts.append((rows @ kernel.reshape(-1, kernel.shape[-1])).reshape(n, od, oh, ow, kernel.shape[-1]))
    return _joined(xp, parts).astype(x.dtype, copy=False)


def _backprop_input_grad(e, g):
    attrs = {"strides": e.attrs["strides"], "padding": e.attrs["padding"]}
    return [emit("Conv3DBackpropFilterV2", (g, e.inputs[1]), g.dtype, dict(attrs, filter_sizes=shape_of(e.inputs[0]))),
            emit("Conv3D", (g, e.inputs[0]), g.dtype, attrs)]


@define("Conv3DBackpropInputV2", FLOATS, shape=lambda shapes, attrs: tuple(attrs["input_sizes"]), cost=HEAVY,
        grad=_backprop_input_grad)
def _conv3d_backprop_input(xp, w, g, input_sizes=(), strides=(1,) * 5, padding="VALID"):
    """The gradient of Conv3D with respect to its input (also the transposed convolution)."""
    _check(padding, strides)
    sizes = tuple(int(s) for s in input_sizes)
    return _joined(xp, [_backprop_input(xp, w[..., outputs], g[..., outputs], sizes[:4] + (w.shape[3],), strides,
                                        padding) for _, outputs in _group_slices(sizes[4], w.shape)])


def _backprop_input(xp, w, g, input_sizes, strides, padding):
    n, depth, height, width, channels = input_sizes
    window = w.shape[:3]
    pads = [_pads(size, window[i], strides[i + 1], padding) for i, size in enumerate((depth, height, width))]
    out = xp.zeros((n, *(size + sum(p) for size, p in zip((depth, height, width), pads)), channels), g.dtype)
    od, oh, ow = g.shape[1:4]
    sd, sh, sw = strides[1:4]
    for i in range(window[0]):
        for j in range(window[1]):
            for k in range(window[2]):
                out[:, i:i + sd * od:sd, j:j + sh * oh:sh, k:k + sw * ow:sw] += xp.einsum("ndhwo,co->ndhwc", g,
                                                                                          w[i, j, k])
    (front, _), (top, _), (left, _) = pads
    return out[:, front:front + depth, top:top + height, left:left + width].astype(g.dtype, copy=False)


def _backprop_filter_grad(e, h):
    """As Conv2DBackpropFilter's: h's transposed convolution with out_backprop, and the input convolved with h."""
    x, g = e.inputs
    attrs = {"strides": e.attrs.get("strides", (1,) * 5), "padding": e.attrs.get("padding", "VALID")}
    return [emit("Conv3DBackpropInputV2", (h, g), g.dtype, dict(attrs, input_sizes=shape_of(x))),
            emit("Conv3D", (x, h), x.dtype, attrs)]


@define("Conv3DBackpropFilterV2", FLOATS, shape=lambda shapes, attrs: tuple(attrs["filter_sizes"]), cost=HEAVY,
        grad=_backprop_filter_grad)
def _conv3d_backprop_filter(xp, x, g, filter_sizes=(), strides=(1,) * 5, padding="VALID"):
    """The gradient of Conv3D with respect to its filter."""
    sizes = tuple(int(s) for s in filter_sizes)
    parts = []
    for inputs, outputs in _group_slices(x.shape[4], sizes):
        rows, _ = _columns(xp, x[..., inputs], sizes[:3], strides, padding)
        grads = g[..., outputs]
        parts.append((rows.T @ grads.reshape(-1, grads.shape[-1])).reshape(*sizes[:4], grads.shape[-1]))
    return _joined(xp, parts).astype(x.dtype, copy=False)


# -- pools ------------------------------------------------------------------------------------------------------

def _pool_shape(shapes, attrs):
    x = shapes[0]
    if x is None or None in x[1:4]:
        return None
    return (x[0], *_out_sizes(x, attrs["ksize"][1:4], attrs["strides"], attrs["padding"]), x[4])


def _pool_windows(xp, x, ksize, strides, padding, fill):
    _check(padding, strides, x.ndim)
    if len(ksize) != 5 or ksize[0] != 1 or ksize[4] != 1:
        raise InvalidArgumentError(None, None, "Pooling is not yet supported on the batch nor channel dimension.")
    return _patches(xp, x, ksize[1:4], strides, padding, fill)  # n, od, oh, ow, c, kd, kh, kw


def _max_pool_grad(e, g):
    return [emit("MaxPool3DGrad", (e.inputs[0], g), g.dtype, dict(e.attrs))]


@define("MaxPool3D", FLOATS - {d.float64}, shape=_pool_shape, grad=_max_pool_grad)
def _max_pool3d(xp, x, ksize=(1,) * 5, strides=(1,) * 5, padding="VALID"):
    return _pool_windows(xp, x, ksize, strides, padding, -xp.inf).max(axis=(5, 6, 7)).astype(x.dtype, copy=False)


def _max_pool3d_grad_grad(e, gg):
    """MaxPool3DGrad is linear in its upstream: its gradient picks gg at each window's maximum (TF's
    MaxPool3DGradGrad); with respect to x it is zero."""
    x = e.inputs[0]
    return [zeros_like(x), emit("_MaxPool3DGradGrad", (x, gg), gg.dtype, dict(e.attrs))]


@define("_MaxPool3DGradGrad", FLOATS - {d.float64}, shape=lambda shapes, attrs: _pool_shape(shapes[:1], attrs),
        grad=lambda e, g: [zeros_like(e.inputs[0]), emit("MaxPool3DGrad", (e.inputs[0], g), g.dtype, dict(e.attrs))])
def _max_pool3d_grad_grad_kernel(xp, x, gg, ksize=(1,) * 5, strides=(1,) * 5, padding="VALID"):
    """gg at each window's first maximum (row-major, as MaxPool3DGrad routes): the pool's output shape."""
    windows = _pool_windows(xp, x, ksize, strides, padding, -xp.inf)
    n, od, oh, ow, c = windows.shape[:5]
    first = windows.reshape(n, od, oh, ow, c, -1).argmax(axis=-1)
    picked = _pool_windows(xp, gg, ksize, strides, padding, 0.0).reshape(n, od, oh, ow, c, -1)
    return xp.take_along_axis(picked, first[..., None], axis=-1)[..., 0]


@define("MaxPool3DGrad", FLOATS - {d.float64}, shape=lambda shapes, attrs: shapes[0], grad=_max_pool3d_grad_grad)
def _max_pool3d_grad(xp, x, g, ksize=(1,) * 5, strides=(1,) * 5, padding="VALID"):
    """Each window's gradient to its first maximum (row-major in the window), as TensorFlow routes it."""
    windows = _pool_windows(xp, x, ksize, strides, padding, -xp.inf)
    n, od, oh, ow, c = windows.shape[:5]
    flat = windows.reshape(n, od, oh, ow, c, -1)
    first = flat.argmax(axis=-1)
    kd, kh, kw = ksize[1:4]
    padded, (front, top, left) = _padded(xp, x, ksize[1:4], strides, padding)
    out = xp.zeros(padded.shape, g.dtype)
    dd, hh, ww = first // (kh * kw), (first // kw) % kh, first % kw
    index = xp.indices((n, od, oh, ow, c))
    rows = (index[0], index[1] * strides[1] + dd, index[2] * strides[2] + hh, index[3] * strides[3] + ww, index[4])
    add = getattr(xp, "add").at if xp.__name__ == "numpy" else None
    if add is not None:
        add(out, rows, g)
    else:
        import cupyx
        cupyx.scatter_add(out, rows, g)
    return out[:, front:front + x.shape[1], top:top + x.shape[2], left:left + x.shape[3]]


def _avg_counts(xp, shape, ksize, strides, padding, dtype):
    ones = xp.ones((1, *shape[1:4], 1), dtype)
    return _pool_windows(xp, ones, ksize, strides, padding, 0.0).sum(axis=(5, 6, 7))


def _avg_pool_grad(e, g):
    return [emit("AvgPool3DGrad", (g,), g.dtype, dict(e.attrs, orig_input_shape=shape_of(e.inputs[0])))]


@define("AvgPool3D", FLOATS, shape=_pool_shape, grad=_avg_pool_grad)
def _avg_pool3d(xp, x, ksize=(1,) * 5, strides=(1,) * 5, padding="VALID"):
    """The mean of each window; SAME border windows average their valid entries, as TensorFlow does."""
    total = _pool_windows(xp, x, ksize, strides, padding, 0.0).sum(axis=(5, 6, 7))
    return (total / _avg_counts(xp, x.shape, ksize, strides, padding, x.dtype)).astype(x.dtype, copy=False)


def _avg_pool_grad_grad(e, g):
    """AvgPool3DGrad is linear in its upstream (the adjoint of AvgPool3D): its gradient pools again."""
    attrs = {k: v for k, v in e.attrs.items() if k != "orig_input_shape"}
    return [emit("AvgPool3D", (g,), g.dtype, attrs)]


@define("AvgPool3DGrad", FLOATS, shape=lambda shapes, attrs: tuple(attrs["orig_input_shape"]),
        grad=_avg_pool_grad_grad)
def _avg_pool3d_grad(xp, g, orig_input_shape=(), ksize=(1,) * 5, strides=(1,) * 5, padding="VALID"):
    shape = tuple(int(s) for s in orig_input_shape)
    share = g / _avg_counts(xp, shape, ksize, strides, padding, g.dtype)
    window = ksize[1:4]
    pads = [_pads(shape[axis], window[i], strides[axis], padding) for i, axis in enumerate(SPATIAL)]
    out = xp.zeros((shape[0], *(shape[a] + sum(p) for a, p in zip(SPATIAL, pads)), shape[4]), g.dtype)
    od, oh, ow = g.shape[1:4]
    sd, sh, sw = strides[1:4]
    for i in range(window[0]):
        for j in range(window[1]):
            for k in range(window[2]):
                out[:, i:i + sd * od:sd, j:j + sh * oh:sh, k:k + sw * ow:sw] += share
    (front, _), (top, _), (left, _) = pads
    return out[:, front:front + shape[1], top:top + shape[2], left:left + shape[3]]
