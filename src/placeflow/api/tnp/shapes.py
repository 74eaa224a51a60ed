"""Shape manipulation: reshape, transpose, concatenate, stack, split, tile, repeat, flip, roll, ..."""

from __future__ import annotations

import numbers

import numpy as np

import placeflow as tf

from ._core import _only, asarray, broadcast_together, dims, norm_axis, promote, rank, shape_tuple


def reshape(a, newshape, order="C"):
    """`a` with shape `newshape` (-1 once: inferred); order 'C' or 'F'."""
    a = asarray(a)
    shape = shape_tuple(newshape)
    if order == "C":
        return tf.reshape(a, shape)
    if order != "F":
        raise ValueError(f"Unsupported order argument {order!r}")
    flat = tf.reshape(tf.transpose(a), [-1])
    return tf.transpose(tf.reshape(flat, shape[::-1]))


def ravel(a):
    """`a` flattened to one dimension."""
    return tf.reshape(asarray(a), [-1])


def flatten(a, order="C"):
    """A flattened copy of `a`."""
    return reshape(a, [-1], order)


def transpose(a, axes=None):
    """`a` with its axes reversed or permuted by `axes`."""
    a = asarray(a)
    return tf.transpose(a, perm=list(axes) if axes is not None else None)


def swapaxes(a, axis1, axis2):
    """`a` with axes axis1 and axis2 exchanged."""
    a = asarray(a)
    n = rank(a)
    axis1, axis2 = norm_axis(axis1, n), norm_axis(axis2, n)
    perm = list(range(n))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return tf.transpose(a, perm)


def moveaxis(a, source, destination):
    """`a` with axes moved from `source` to `destination` (ints or sequences)."""
    a = asarray(a)
    n = rank(a)
    source = [source] if isinstance(source, numbers.Integral) else list(source)
    destination = [destination] if isinstance(destination, numbers.Integral) else list(destination)
    if len(source) != len(destination):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    source = [norm_axis(s, n) for s in source]
    destination = [norm_axis(d, n) for d in destination]
    order = [i for i in range(n) if i not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return tf.transpose(a, order)


def expand_dims(a, axis):
    """`a` with a new axis of length 1 at `axis`."""
    a = asarray(a)
    return tf.expand_dims(a, axis)


def squeeze(a, axis=None):
    """`a` without its length-1 axes (or only those in `axis`)."""
    a = asarray(a)
    if isinstance(axis, numbers.Integral):
        axis = [axis]
    return tf.squeeze(a, axis)


def _arrays(arrays):
    if hasattr(arrays, "shape") and hasattr(arrays, "dtype"):
        arrays = tf.unstack(asarray(arrays))
    return promote(*arrays)


def concatenate(arys, axis=0):
    """The arrays joined along an existing `axis` (flattened first when axis is None)."""
    parts = _arrays(arys)
    if not parts:
        raise ValueError("Need at least one array to concatenate.")
    if axis is None:
        parts, axis = [tf.reshape(p, [-1]) for p in parts], 0
    return tf.concat(parts, axis)


def stack(arrays, axis=0):
    """The arrays joined along a new `axis`."""
    parts = _arrays(arrays)
    if not parts:
        raise ValueError("need at least one array to stack")
    return tf.stack(parts, axis)


def atleast_1d(*arys):
    """Each input with at least one dimension."""
    return _atleast(arys, lambda a: tf.reshape(a, [1]) if rank(a) == 0 else a)


def atleast_2d(*arys):
    """Each input with at least two dimensions (new axes in front)."""
    def two(a):
        n = rank(a)
        return tf.reshape(a, [1] * (2 - n) + dims(a)) if n < 2 else a
    return _atleast(arys, two)


def atleast_3d(*arys):
    """Each input with at least three dimensions (as NumPy: 1-D becomes 1xNx1, 2-D becomes MxNx1)."""
    def three(a):
        n = rank(a)
        if n == 0:
            return tf.reshape(a, [1, 1, 1])
        if n == 1:
            return a[None, :, None]
        return a[:, :, None] if n == 2 else a
    return _atleast(arys, three)


def _atleast(arys, fn):
    out = [fn(asarray(a)) for a in arys]
    return out[0] if len(out) == 1 else out


def hstack(tup):
    """The arrays joined along axis 1 (axis 0 for 1-D arrays)."""
    parts = atleast_1d(*_arrays(tup))
    parts = parts if isinstance(parts, list) else [parts]
    return tf.concat(parts, 0 if rank(parts[0]) == 1 else 1)


def vstack(tup):
    """The arrays joined along axis 0, 1-D arrays as rows."""
    parts = atleast_2d(*_arrays(tup))
    parts = parts if isinstance(parts, list) else [parts]
    return tf.concat(parts, 0)


def dstack(tup):
    """The arrays joined along axis 2."""
    parts = atleast_3d(*_arrays(tup))
    parts = parts if isinstance(parts, list) else [parts]
    return tf.concat(parts, 2)


def append(arr, values, axis=None):
    """`values` appended to `arr` (both flattened when axis is None)."""
    return concatenate([arr, values], axis=axis)


def _split(ary, indices_or_sections, axis, strict):
    a = asarray(ary)
    axis = norm_axis(axis, rank(a))
    length = dims(a)[axis]
    if isinstance(indices_or_sections, numbers.Integral):
        n = int(indices_or_sections)
        if n <= 0:
            raise ValueError("number sections must be larger than 0.")
        if strict and length % n:
            from ...framework import build_errors
            raise build_errors.invalid(
                f"Dimension size must be evenly divisible by {n} but is {length}",
                f"Number of ways to split should evenly divide the split dimension, but got split_dim {axis} (size = "
                f"{length}) and num_split {n}")
        each, extra = divmod(length, n)
        sizes = [each + 1] * extra + [each] * (n - extra)
    else:
        bounds = [0] + [min(max(int(i) if i >= 0 else int(i) + length, 0), length)
                        for i in indices_or_sections] + [length]
        sizes = [max(end - start, 0) for start, end in zip(bounds[:-1], bounds[1:])]
        starts = bounds[:-1]
        return [tf.gather(a, tf.range(s, s + z), axis=axis) for s, z in zip(starts, sizes)]
    return list(tf.split(a, sizes, axis=axis))


def split(ary, indices_or_sections, axis=0):
    """`ary` split into equal sections, or at the given indices, along `axis`."""
    return _split(ary, indices_or_sections, axis, strict=True)


def hsplit(ary, indices_or_sections):
    """split along axis 1 (axis 0 for 1-D arrays)."""
    a = asarray(ary)
    return split(a, indices_or_sections, axis=0 if rank(a) == 1 else 1)


def vsplit(ary, indices_or_sections):
    """split along axis 0."""
    return split(ary, indices_or_sections, axis=0)


def dsplit(ary, indices_or_sections):
    """split along axis 2."""
    return split(ary, indices_or_sections, axis=2)


def tile(a, reps):
    """`a` repeated `reps` times along each axis."""
    a = asarray(a)
    reps = list(shape_tuple(reps))
    n = max(rank(a), len(reps))
    a = tf.reshape(a, [1] * (n - rank(a)) + dims(a)) if rank(a) < n else a
    return tf.tile(a, [1] * (n - len(reps)) + reps)


def repeat(a, repeats, axis=None):
    """Each element of `a` repeated `repeats` times (flattened when axis is None)."""
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    return tf.repeat(a, asarray(repeats, np.int64) if not isinstance(repeats, int) else repeats, axis=axis)


def broadcast_to(array, shape):
    """`array` broadcast to `shape`."""
    return tf.broadcast_to(asarray(array), shape_tuple(shape))


def broadcast_arrays(*args, **kwargs):
    """The arguments broadcast against each other."""
    _only(kwargs, "broadcast_arrays", ("subok",))
    if kwargs.get("subok", False):
        raise ValueError("subok=True is not supported.")
    return broadcast_together(*[asarray(a) for a in args])


def flip(m, axis=None):
    """`m` with the order of elements reversed along `axis` (all axes when None)."""
    m = asarray(m)
    n = rank(m)
    axes = list(range(n)) if axis is None else [norm_axis(x, n) for x in
                                                 ([axis] if isinstance(axis, numbers.Integral) else axis)]
    return tf.reverse(m, axes) if axes else m


def fliplr(m):
    """`m` reversed along axis 1."""
    return flip(m, 1)


def flipud(m):
    """`m` reversed along axis 0."""
    return flip(m, 0)


def roll(a, shift, axis=None):
    """`a` shifted cyclically by `shift` along `axis` (flattened when axis is None)."""
    a = asarray(a)
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(a, [-1]), shift, 0), tf.shape(a))
    return tf.roll(a, shift, axis)


def rot90(m, k=1, axes=(0, 1)):
    """`m` rotated by 90 degrees `k` times in the plane of `axes`."""
    m = asarray(m)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    n = rank(m)
    first, second = norm_axis(axes[0], n), norm_axis(axes[1], n)
    if first == second:
        raise ValueError("Axes must be different.")
    k %= 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, first), second)
    perm = list(range(n))
    perm[first], perm[second] = perm[second], perm[first]
    return tf.transpose(flip(m, second), perm) if k == 1 else flip(tf.transpose(m, perm), second)


def ndim(a):
    """The number of dimensions of `a` (an int)."""
    return rank(asarray(a))


def shape(a):
    """The static shape of `a`, a TensorShape (None where unknown while tracing), as TensorFlow's tnp.shape."""
    from ...framework.tensor_shape import TensorShape
    return TensorShape(dims(asarray(a)))


def size(x, axis=None):
    """The number of elements of `x` (along `axis`)."""
    if axis is not None:
        raise NotImplementedError("axis argument is not supported in the current `np.size` implementation")
    x = asarray(x)
    known = dims(x)
    return int(np.prod(known)) if None not in known else tf.size(x)
