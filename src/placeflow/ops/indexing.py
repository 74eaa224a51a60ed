"""Indexing ops: gather, gather_nd, scatter_nd, tensor_scatter_nd_*, reverse, pad, broadcast_to, slice,
unstack, size and rank, with their gradients.

Index inputs are int32/int64 tensors. On the CPU an index out of range is InvalidArgumentError, with
TensorFlow's text; on a GPU, as TF's kernels, indices are not checked (no device sync).
"""

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .emit import emit, reduce_to, reshape, shape_of, zeros_like
from .indexed_slices import IndexedSlices
from .registry import ANY, NOT_DIFFERENTIABLE, NUMBERS, REAL_NUMBERS, define, no_gradient_yet

INDEX_TYPES = frozenset({d.int32, d.int64})


def _check_range(xp, indices, limit: int, what: str) -> None:
    if xp is not np or indices.size == 0:
        return
    if indices.size == 1:
        value = int(indices.reshape(-1)[0])
        if 0 <= value < limit:
            return
    elif 0 <= indices.min() and indices.max() < limit:
        return
    bad = np.argwhere((indices < 0) | (indices >= limit))
    if bad.size:
        where = ",".join(str(int(i)) for i in bad[0])
        raise InvalidArgumentError(None, None, f"{what}[{where}] = {int(indices[tuple(bad[0])])} is not in "
                                               f"[0, {limit})")


# -- gather ------------------------------------------------------------------------------------------------

def _gather_shape(shapes, attrs):
    params, indices = shapes
    if params is None or indices is None:
        return None
    axis = attrs.get("axis", 0) % len(params)
    return tuple(params[:axis]) + tuple(indices) + tuple(params[axis + 1:])


def _gather_grad(e, g):
    """The gradient of a gather: IndexedSlices of the gathered rows along axis 0 (as TF's), else dense."""
    params, indices = e.inputs
    rest = shape_of(params)[1:]
    if e.attrs.get("axis", 0) == 0 and None not in rest:
        values = reshape(g, (-1,) + tuple(rest))
        rows = reshape(indices, (-1,))
        dense_shape = emit("Shape", (params,), params.dtype, {"out_type": d.int64})
        slices = IndexedSlices(values, rows, dense_shape)
        slices._like = params
        return [slices, None]
    return [emit("_GatherGrad", (g, indices, params), g.dtype, {"axis": e.attrs.get("axis", 0)}), None]


@define("GatherV2", ANY, shape=_gather_shape, grad=_gather_grad)
def _gather(xp, params, indices, axis=0):
    axis %= max(params.ndim, 1)
    _check_range(xp, indices, params.shape[axis], "indices")
    return xp.take(params, indices, axis=axis)


def _gather_grad_grad(e, g):
    return [emit("GatherV2", (g, e.inputs[1]), g.dtype, {"axis": e.attrs.get("axis", 0)}), None, None]


@define("_GatherGrad", NUMBERS, shape=lambda shapes, attrs: shapes[2], grad=_gather_grad_grad,
        shape_only_inputs=(2,))
def _gather_backward(xp, grad, indices, params, axis=0):
    """The dense gradient of GatherV2: each gathered slice added back where it came from."""
    axis %= max(params.ndim, 1)
    out = xp.zeros(params.shape, grad.dtype)
    moved = xp.moveaxis(out, axis, 0)
    flat_grad = xp.moveaxis(grad.reshape(params.shape[:axis] + (indices.size,) + params.shape[axis + 1:]), axis, 0)
    _add_at(xp, moved, indices.reshape(-1), flat_grad)
    return out


def _add_at(xp, target, index, values) -> None:
    if xp is np:
        np.add.at(target, index, values)
    else:  # CuPy: scatter_add is its add.at
        import cupyx
        cupyx.scatter_add(target, index, values)


# -- gather_nd / scatter_nd ----------------------------------------------------------------------------------

def _nd_index(indices):
    return tuple(indices[..., i] for i in range(indices.shape[-1]))


def _gather_nd_shape(shapes, attrs):
    params, indices = shapes
    if params is None or indices is None or indices[-1] is None:
        return None
    return tuple(indices[:-1]) + tuple(params[indices[-1]:])


@define("GatherNd", ANY, shape=_gather_nd_shape,
        grad=lambda e, g: [emit("ScatterNd", (e.inputs[1], g), g.dtype, {"shape": shape_of(e.inputs[0])}), None])
def _gather_nd(xp, params, indices):
    for i in range(indices.shape[-1]):
        _check_range(xp, indices[..., i], params.shape[i], f"indices[...,{i}]")
    return params[_nd_index(indices)]


@define("ScatterNd", NUMBERS, shape=lambda shapes, attrs: tuple(attrs["shape"]),
        grad=lambda e, g: [None, emit("GatherNd", (g, e.inputs[0]), g.dtype)])
def _scatter_nd(xp, indices, updates, shape=()):
    out = xp.zeros(tuple(shape), updates.dtype)
    for i in range(indices.shape[-1]):
        _check_range(xp, indices[..., i], shape[i], f"indices[...,{i}]")
    _add_at(xp, out, _nd_index(indices), updates)
    return out


def _tensor_scatter_update_grad(e, g):
    tensor, indices, _ = e.inputs
    kept = emit("TensorScatterUpdate", (g, indices, emit("GatherNd", (zeros_like(g), indices), g.dtype)), g.dtype)
    return [kept, None, emit("GatherNd", (g, indices), g.dtype)]


@define("TensorScatterUpdate", ANY, shape=lambda shapes, attrs: shapes[0], grad=_tensor_scatter_update_grad)
def _tensor_scatter_update(xp, tensor, indices, updates):
    for i in range(indices.shape[-1]):
        _check_range(xp, indices[..., i], tensor.shape[i], f"indices[...,{i}]")
    out = tensor.copy()
    out[_nd_index(indices)] = updates
    return out


@define("TensorScatterAdd", NUMBERS, shape=lambda shapes, attrs: shapes[0],
        grad=lambda e, g: [g, None, emit("GatherNd", (g, e.inputs[1]), g.dtype)])
def _tensor_scatter_add(xp, tensor, indices, updates):
    for i in range(indices.shape[-1]):
        _check_range(xp, indices[..., i], tensor.shape[i], f"indices[...,{i}]")
    out = tensor.copy()
    _add_at(xp, out, _nd_index(indices), updates)
    return out


def _scatter_extreme(name, reducer):
    def kernel(xp, tensor, indices, updates):
        """A copy of `tensor` with each indexed element replaced by its max (min) with its updates."""
        for i in range(indices.shape[-1]):
            _check_range(xp, indices[..., i], tensor.shape[i], f"indices[...,{i}]")
        out = tensor.copy()
        if xp.__name__ == "numpy":
            getattr(np, reducer).at(out, _nd_index(indices), updates)
        else:
            import cupyx
            getattr(cupyx, f"scatter_{reducer[:3]}")(out, _nd_index(indices), updates)
        return out
    define(name, REAL_NUMBERS, shape=lambda shapes, attrs: shapes[0], grad=no_gradient_yet(name))(kernel)


_scatter_extreme("TensorScatterMax", "maximum")
_scatter_extreme("TensorScatterMin", "minimum")


# -- reverse, pad, broadcast_to, slice, unstack ----------------------------------------------------------------

@define("ReverseV2", ANY, shape=lambda shapes, attrs: shapes[0],
        grad=lambda e, g: [emit("ReverseV2", (g,), g.dtype, dict(e.attrs))])
def _reverse(xp, a, axis=()):
    return xp.flip(a, tuple(int(x) % max(a.ndim, 1) for x in axis)) if axis else a.copy()


_PAD_MODES = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}


def _pad_shape(shapes, attrs):
    shape = shapes[0]
    if shape is None:
        return None
    return tuple(None if dim is None else dim + before + after
                 for dim, (before, after) in zip(shape, attrs["paddings"]))


@define("PadV2", ANY, shape=_pad_shape,
        grad=lambda e, g: [emit("_PadGrad", (g,), g.dtype, {"paddings": e.attrs["paddings"],
                                                           "mode": e.attrs.get("mode", "CONSTANT")})])
def _pad(xp, a, paddings=(), mode="CONSTANT", constant_values=0):
    widths = [tuple(int(p) for p in pair) for pair in paddings]
    if mode == "CONSTANT":
        return xp.pad(a, widths, mode="constant", constant_values=constant_values)
    for size, (before, after) in zip(a.shape, widths):
        limit = size - 1 if mode == "REFLECT" else size
        if before > limit or after > limit:
            relation = "less than" if mode == "REFLECT" else "no greater than"
            raise InvalidArgumentError(None, None, f"paddings must be {relation} the dimension size: {before}, "
                                                   f"{after} not {relation} {size}")
    return xp.pad(a, widths, mode=_PAD_MODES[mode])


@define("_PadGrad", NUMBERS, shape=lambda shapes, attrs: tuple(
        None if dim is None else dim - b - a for dim, (b, a) in zip(shapes[0], attrs["paddings"])),
        grad=lambda e, g: [emit("PadV2", (g,), g.dtype, {"paddings": e.attrs["paddings"], "mode": e.attrs["mode"]})])
def _pad_backward(xp, grad, paddings=(), mode="CONSTANT"):
    """PadV2's gradient: the interior for CONSTANT; mirrored borders folded back for REFLECT and SYMMETRIC."""
    out = grad
    for axis, (before, after) in enumerate(paddings):
        size = out.shape[axis] - before - after
        if mode == "CONSTANT":
            out = xp.take(out, xp.arange(before, before + size), axis=axis)
            continue
        source = np.pad(np.arange(size), (before, after), mode=_PAD_MODES[mode])
        folded = xp.zeros(out.shape[:axis] + (size,) + out.shape[axis + 1:], out.dtype)
        _add_at(xp, xp.moveaxis(folded, axis, 0), xp.asarray(source), xp.moveaxis(out, axis, 0))
        out = folded
    return xp.ascontiguousarray(out)


@define("BroadcastTo", ANY, shape=lambda shapes, attrs: tuple(attrs["shape"]),
        grad=lambda e, g: [reduce_to(g, shape_of(e.inputs[0]))])
def _broadcast_to(xp, a, shape=()):
    shape = tuple(shape)
    if a.ndim > len(shape):
        raise InvalidArgumentError(None, None, f"Rank of input ({a.ndim}) must be no greater than rank of output "
                                               f"shape ({len(shape)}).")
    if any(dim not in (1, out) for dim, out in zip(a.shape[::-1], shape[::-1])):
        raise InvalidArgumentError(None, None, f"Unable to broadcast tensor of shape [{','.join(map(str, a.shape))}] "
                                               f"to tensor of shape [{','.join(map(str, shape))}]")
    return xp.array(xp.broadcast_to(a, shape))


def _slice_sizes(shape, begin, size):
    return [dim - b if s == -1 else s for dim, b, s in zip(shape, begin, size)]


def _slice_shape(shapes, attrs):
    shape = shapes[0]
    if shape is None:
        return None
    return tuple(None if (s == -1 and dim is None) else (dim - b if s == -1 else s)
                 for dim, b, s in zip(shape, attrs["begin"], attrs["size"]))


def _slice_grad(e, g):
    shape = shape_of(e.inputs[0])
    sizes = _slice_sizes(shape, e.attrs["begin"], e.attrs["size"])
    paddings = tuple((b, dim - b - s) for dim, b, s in zip(shape, e.attrs["begin"], sizes))
    return [emit("PadV2", (g,), g.dtype, {"paddings": paddings})]


@define("Slice", ANY, shape=_slice_shape, grad=_slice_grad)
def _slice(xp, a, begin=(), size=()):
    sizes = _slice_sizes(a.shape, begin, size)
    for axis, (dim, b, s) in enumerate(zip(a.shape, begin, sizes)):
        if b < 0 or s < 0 or b + s > dim:
            raise InvalidArgumentError(None, None, f"Expected size[{axis}] in [0, {dim - b}], but got {s}"
                                       if b >= 0 else f"Expected begin[{axis}] in [0, {dim}], but got {b}")
    return a[tuple(slice(b, b + s) for b, s in zip(begin, sizes))].copy()


def _unpack_shape(shapes, attrs):
    shape = shapes[0]
    axis = attrs.get("axis", 0) % len(shape)
    return [tuple(shape[:axis]) + tuple(shape[axis + 1:])] * attrs["num"]


def _unpack_grad(e, *grads):
    parts = [g if g is not None else zeros_like(out) for g, out in zip(grads, e.outputs)]
    return [emit("Pack", tuple(parts), parts[0].dtype, {"axis": e.attrs.get("axis", 0)})]


@define("Unpack", ANY, shape=_unpack_shape, grad=_unpack_grad)
def _unpack(xp, a, num=0, axis=0):
    axis %= a.ndim
    if a.shape[axis] != num:
        raise InvalidArgumentError(None, None, f"Input shape axis {axis} must equal {num}, got shape "
                                               f"{list(a.shape)}")
    parts = tuple(xp.take(a, i, axis=axis) for i in range(num))
    return parts[0] if num == 1 else parts  # one output: a plain array, as every single-output kernel


def _int_output(dtype, attrs):
    return attrs.get("out_type", d.int32)


@define("Size", ANY, shape=lambda shapes, attrs: (), grad=NOT_DIFFERENTIABLE, dtype=_int_output,
        shape_only_inputs=(0,), foldable=True)
def _size(xp, a, out_type=d.int32):
    return xp.asarray(a.size, dtype=out_type.numpy_dtype)


@define("Rank", ANY, shape=lambda shapes, attrs: (), grad=NOT_DIFFERENTIABLE, dtype=lambda dtype, attrs: d.int32,
        shape_only_inputs=(0,), foldable=True)
def _rank(xp, a):
    return xp.asarray(a.ndim, dtype=np.int32)



# -- gather with batch dimensions ----------------------------------------------------------------------------

def _batch_gather_shape(shapes, attrs):
    params, indices = shapes
    if params is None or indices is None:
        return None
    return tuple(indices) + tuple(params[attrs["batch_dims"] + 1:])


def _batched(xp, params, indices, batch_dims):
    """params as [B, n, rest...] and indices as [B, K] (B: the batch dimensions, flattened)."""
    if tuple(params.shape[:batch_dims]) != tuple(indices.shape[:batch_dims]):
        raise InvalidArgumentError(None, None, (
            f"params.shape[:{batch_dims}] {list(params.shape[:batch_dims])} must equal indices.shape[:{batch_dims}] "
            f"{list(indices.shape[:batch_dims])} (the batch dimensions)"))
    batch = int(np.prod(params.shape[:batch_dims], dtype=np.int64))
    return (params.reshape((batch,) + params.shape[batch_dims:]), indices.reshape(batch, -1))


def _batch_gather_grad(e, g):
    params, indices = e.inputs
    return [emit("_BatchGatherGrad", (g, indices, params), g.dtype, e.attrs), None]


@define("_BatchGather", ANY, shape=_batch_gather_shape, grad=_batch_gather_grad)
def _batch_gather(xp, params, indices, batch_dims=1):
    """out[b..., k..., rest...] = params[b..., indices[b..., k...], rest...] (gather with batch_dims, along
    the first dimension after the batch ones)."""
    flat_params, flat_indices = _batched(xp, params, indices, batch_dims)
    _check_range(xp, flat_indices, flat_params.shape[1], "indices")
    rows = xp.arange(flat_params.shape[0])[:, None]
    return flat_params[rows, flat_indices].reshape(indices.shape + params.shape[batch_dims + 1:])


def _batch_gather_grad_grad(e, g):
    """_BatchGatherGrad adds slices back where they were gathered from: its gradient gathers them again."""
    return [emit("_BatchGather", (g, e.inputs[1]), g.dtype, e.attrs), None, None]


@define("_BatchGatherGrad", NUMBERS, shape=lambda shapes, attrs: shapes[2], grad=_batch_gather_grad_grad,
        shape_only_inputs=(2,))
def _batch_gather_backward(xp, grad, indices, params, batch_dims=1):
    """Each gathered slice of `grad` added back where it came from."""
    flat_params, flat_indices = _batched(xp, params, indices, batch_dims)
    out = xp.zeros(flat_params.shape, grad.dtype)
    rows = xp.broadcast_to(xp.arange(out.shape[0])[:, None], flat_indices.shape)
    _add_at(xp, out, (rows, flat_indices), grad.reshape(flat_indices.shape + out.shape[2:]))
    return out.reshape(params.shape)
