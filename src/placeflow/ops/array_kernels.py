"""Array-shaping kernels: reshape, transpose, concat, stack, split, slicing, fill, range, one_hot."""

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .registry import (ALL, ANY, INTS, NUMBERS, REAL_NUMBERS, presize_from_attrs, presize_like_input,
                       register)


@register("_EagerConst", ANY)
def _const(xp, host_array):
    return xp.asarray(host_array)


register("Reshape", ANY)(lambda xp, a, shape: xp.reshape(a, shape))
register("Transpose", ANY)(lambda xp, a, perm=None: xp.transpose(a, perm))
register("ConcatV2", ANY)(lambda xp, *arrays, axis: xp.concatenate(arrays, axis=axis))
register("Pack", ANY)(lambda xp, *arrays, axis=0: xp.stack(arrays, axis=axis))
register("ExpandDims", ANY)(lambda xp, a, axis: xp.expand_dims(a, axis))
register("Squeeze", ANY)(lambda xp, a, axis=None: xp.squeeze(a, axis=axis))
register("ZerosLike", ALL, presize=presize_like_input)(lambda xp, a: xp.zeros_like(a))
register("OnesLike", ALL, presize=presize_like_input)(lambda xp, a: xp.ones_like(a))


def _tile(xp, a, multiples):
    if len(multiples) != a.ndim:
        raise InvalidArgumentError(None, None, (
            f"Expected multiples argument to be a vector of length {a.ndim} but got length {len(multiples)}"))
    return xp.tile(a, multiples)


def _tiled(args, attrs) -> tuple:
    a, multiples = args[0], attrs["multiples"]
    if len(multiples) != a.ndim:
        return (), a.dtype  # the kernel reports the mismatch
    return tuple(int(d) * int(m) for d, m in zip(a.shape, multiples)), a.dtype


register("Tile", ANY, presize=_tiled)(_tile)


@register("StridedSlice", ANY)
def _slice(xp, a, key):
    result = a[key]
    return result.copy() if hasattr(result, "copy") and result.ndim else xp.asarray(result)


@register("StridedSliceGrad", NUMBERS)
def _slice_grad(xp, grad, shape, key):
    """The gradient of a[key]: zeros of a's shape with the upstream gradient where the slice was."""
    out = xp.zeros(shape, dtype=grad.dtype)
    out[key] = grad
    return out


@register("Split", ANY)
def _split(xp, a, num_or_sections, axis=0, total=None):
    if not -a.ndim <= axis < a.ndim:
        raise InvalidArgumentError(None, None, f"-{a.ndim} <= split_dim < {a.ndim}, but got {axis}")
    size = a.shape[axis]
    if isinstance(num_or_sections, int) and (num_or_sections <= 0 or size % num_or_sections):
        raise InvalidArgumentError(None, None, (
            f"Number of ways to split should evenly divide the split dimension, but got split_dim {axis} "
            f"(size = {size}) and num_split {num_or_sections}"))
    if total is not None and total != size:
        raise InvalidArgumentError(None, None, (
            "Determined shape must either match input shape along split_dim exactly if fully specified, or be "
            f"less than the size of the input along split_dim if not fully specified.  Got: {total} vs. {size}"))
    return tuple(xp.split(a, num_or_sections, axis=axis))


@register("Fill", ALL, presize=presize_from_attrs)
def _fill(xp, shape, dtype, value):
    return xp.full(shape, value, dtype=dtype.numpy_dtype)


@register("Range", REAL_NUMBERS - {d.int8, d.int16, d.uint8, d.uint16})
def _range(xp, start, limit, delta, dtype):
    return xp.arange(start, limit, delta, dtype=dtype.numpy_dtype)


@register("Eye", NUMBERS | {d.bool})
def _eye(xp, num_rows, num_columns, dtype):
    return xp.eye(num_rows, num_columns, dtype=dtype.numpy_dtype)


@register("OneHot", ALL)
def _one_hot(xp, indices, depth, on_value, off_value, axis, dtype):
    hot = xp.expand_dims(indices, -1) == xp.arange(depth)
    out = xp.where(hot, on_value, off_value).astype(dtype.numpy_dtype)
    return out if axis in (-1, out.ndim - 1) else xp.moveaxis(out, -1, axis)


@register("Shape", ANY, gpu=INTS)
def _shape(xp, a, out_type):
    return xp.asarray(a.shape, dtype=out_type.numpy_dtype)


@register("_ReduceGrad", NUMBERS)
def _reduce_grad(xp, grad, like, axes=(), keepdims=False, mean=False):
    """The gradient of Sum (Mean): `grad` with the reduced axes restored, broadcast to `like`'s shape (/ count)."""
    if not keepdims and axes:
        grad = xp.expand_dims(grad, tuple(axes))
    out = xp.broadcast_to(grad, like.shape)
    if mean:
        count = like.size // max(grad.size, 1)
        return (out / max(count, 1)).astype(like.dtype, copy=False)
    return xp.ascontiguousarray(out).reshape(like.shape)  # a scalar stays a scalar (CuPy makes it (1,))
