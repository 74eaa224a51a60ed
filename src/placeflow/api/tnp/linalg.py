"""Products and matrices: dot, matmul, tensordot, inner, outer, einsum, vdot, cross, kron, trace, diag, tri*."""

from __future__ import annotations

import numpy as np

import placeflow as tf

from ._core import asarray, broadcast_together, dims, norm_axis, promote, rank


def _bool_safe(fn, a, b):
    if a.dtype == tf.bool:
        return tf.cast(fn(tf.cast(a, tf.int64), tf.cast(b, tf.int64)), tf.bool)
    return fn(a, b)


def matmul(x1, x2):
    """The matrix product (vectors as rows/columns, batches broadcast)."""
    a, b = promote(x1, x2)
    if rank(a) == 0 or rank(b) == 0:
        raise ValueError("matmul: input operands must not be scalars.")
    vec_a, vec_b = rank(a) == 1, rank(b) == 1
    a = a[None, :] if vec_a else a
    b = b[:, None] if vec_b else b
    out = _bool_safe(lambda p, q: tf.linalg.matmul(p, q), a, b)
    if vec_a:
        out = tf.squeeze(out, -2)
    if vec_b:
        out = tf.squeeze(out, -1)
    return out


def dot(a, b):
    """NumPy's dot: scalars multiply, else sum over a's last axis and b's second-to-last."""
    a, b = promote(a, b)
    if rank(a) == 0 or rank(b) == 0:
        return a * b
    axis_b = 0 if rank(b) == 1 else rank(b) - 2
    return _bool_safe(lambda p, q: tf.tensordot(p, q, [[rank(p) - 1], [axis_b]]), a, b)


def tensordot(a, b, axes=2):
    """The sum of products over the given axes."""
    a, b = promote(a, b)
    return _bool_safe(lambda p, q: tf.tensordot(p, q, axes), a, b)


def inner(a, b):
    """The sum of products over the last axes of a and b."""
    a, b = promote(a, b)
    if rank(a) == 0 or rank(b) == 0:
        return a * b
    return _bool_safe(lambda p, q: tf.tensordot(p, q, [[-1], [-1]]), a, b)


def outer(a, b):
    """The outer product of the flattened inputs."""
    a, b = promote(a, b)
    return tf.reshape(a, [-1, 1]) * tf.reshape(b, [1, -1])


def vdot(a, b):
    """The dot product of the flattened inputs, conjugating `a`."""
    a, b = promote(a, b)
    a, b = tf.reshape(a, [-1]), tf.reshape(b, [-1])
    if a.dtype.is_complex:
        a = tf.math.conj(a)
    return tf.reduce_sum(a * b) if a.dtype != tf.bool else tf.reduce_any(tf.math.logical_and(a, b))


def einsum(subscripts, *operands, **kwargs):
    """Einstein summation over the operands."""
    casting = kwargs.pop("casting", "safe")
    optimize = kwargs.pop("optimize", "auto")
    if kwargs:
        raise ValueError(f"Invalid keyword arguments to einsum: {sorted(kwargs)!r}")
    if casting not in ("safe", "no"):
        raise ValueError(f"casting policy {casting!r} is not supported.")
    del optimize
    tensors = promote(*operands)
    if "->" not in subscripts and "." not in subscripts:  # NumPy's implicit output: letters seen once, sorted
        letters = [c for c in subscripts if c.isalpha()]
        subscripts += "->" + "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    if tensors and not tensors[0].dtype.is_floating and not tensors[0].dtype.is_complex:
        # placeflow's einsum computes in floating point: integers go through float64 and back
        dtype = tensors[0].dtype
        return tf.cast(tf.einsum(subscripts, *[tf.cast(t, tf.float64) for t in tensors]), dtype)
    return tf.einsum(subscripts, *tensors)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 2- or 3-vectors along the given axes."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = promote(a, b)
    a = tf.experimental.numpy.moveaxis(a, axisa, -1)
    b = tf.experimental.numpy.moveaxis(b, axisb, -1)
    na, nb = dims(a)[-1], dims(b)[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("Dimension must be either 2 or 3.")
    if na == 2:
        a = tf.concat([a, tf.zeros_like(a[..., :1])], -1)
    if nb == 2:
        b = tf.concat([b, tf.zeros_like(b[..., :1])], -1)
    a, b = broadcast_together(a, b)
    out = tf.stack([a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
                    a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
                    a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]], -1)
    if na == 2 and nb == 2:
        return out[..., 2]
    return tf.experimental.numpy.moveaxis(out, -1, axisc)


def kron(a, b):
    """The Kronecker product."""
    a, b = promote(a, b)
    n = max(rank(a), rank(b))
    a = tf.reshape(a, [1] * (n - rank(a)) + dims(a))
    b = tf.reshape(b, [1] * (n - rank(b)) + dims(b))
    if n == 0:
        return a * b
    outer_ab = tf.reshape(a, _interleave(dims(a), [1] * n)) * tf.reshape(b, _interleave([1] * n, dims(b)))
    return tf.reshape(outer_ab, [x * y for x, y in zip(dims(a), dims(b))])


def _interleave(first, second):
    return [v for pair in zip(first, second) for v in pair]


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The `offset`-th diagonal of the matrices in the (axis1, axis2) plane, as the last axis."""
    a = asarray(a)
    n = rank(a)
    if n < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    axis1, axis2 = norm_axis(axis1, n), norm_axis(axis2, n)
    rest = [i for i in range(n) if i not in (axis1, axis2)]
    a = tf.transpose(a, rest + [axis1, axis2])
    rows, cols = dims(a)[-2:]
    length = max(0, min(rows - max(-offset, 0), cols - max(offset, 0)))
    if length == 0:
        return tf.zeros(dims(a)[:-2] + [0], a.dtype)
    starts = np.arange(length)
    idx = np.stack([starts + max(-offset, 0), starts + max(offset, 0)], -1)
    moved = tf.transpose(a, [n - 2, n - 1] + list(range(n - 2)))
    picked = tf.gather_nd(moved, tf.constant(idx, tf.int64))
    return tf.transpose(picked, list(range(1, n - 1)) + [0])


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """The sum along the `offset`-th diagonal."""
    found = diagonal(a, offset, axis1, axis2)
    if dtype is not None:
        found = asarray(found, dtype)
    return tf.reduce_sum(found, axis=-1)


def diag(v, k=0):
    """The `k`-th diagonal of a 2-D `v`, or a 2-D array with 1-D `v` on its `k`-th diagonal."""
    v = asarray(v)
    n = rank(v)
    if n == 1:
        length = dims(v)[0]
        size = length + abs(k)
        idx = np.stack([np.arange(length) + max(-k, 0), np.arange(length) + max(k, 0)], -1)
        return tf.scatter_nd(tf.constant(idx, tf.int64), v, tf.constant([size, size], tf.int64))
    if n == 2:
        return diagonal(v, k)
    raise ValueError("Input to diag should be 1-D or 2-D.")


def diagflat(v, k=0):
    """A 2-D array with the flattened `v` on its `k`-th diagonal."""
    return diag(tf.reshape(asarray(v), [-1]), k)


def _triangle(m, k, lower):
    m = asarray(m)
    if rank(m) < 2:
        raise ValueError(f"Argument to {'tril' if lower else 'triu'} must have rank at least 2")
    rows, cols = dims(m)[-2:]
    offsets = np.arange(cols)[None, :] - np.arange(rows)[:, None]
    keep = tf.constant(offsets <= k if lower else offsets >= k)
    return tf.where(keep, m, tf.zeros_like(m))


def tril(m, k=0):
    """`m` with the elements above the `k`-th diagonal zeroed."""
    return _triangle(m, k, lower=True)


def triu(m, k=0):
    """`m` with the elements below the `k`-th diagonal zeroed."""
    return _triangle(m, k, lower=False)


def polyval(p, x):
    """The polynomial with coefficients `p` (highest power first) at `x`."""
    p, x = promote(p, x)
    if rank(p) == 0:
        return tf.zeros_like(x) + p
    out = tf.zeros_like(x) if rank(p) == 1 else tf.zeros_like(x * p[0])
    for i in range(dims(p)[0]):
        out = out * x + p[i]
    return out
