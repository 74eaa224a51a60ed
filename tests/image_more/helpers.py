"""Helpers of the image_more cases: rounded values, error classes, gradients."""

import math

import numpy as np

from tests.helpers import error  # the recorded [class, first line] of a raised error


def values(x, tol=None):
    """A tensor's values rounded to 6 decimals (inf/nan as strings), its dtype and shape."""
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    flat = [("inf" if v > 0 else "-inf") if isinstance(v, float) and math.isinf(v) else
            ("nan" if isinstance(v, float) and math.isnan(v) else v)
            for v in np.round(a.astype(np.float64), 6).reshape(-1).tolist()]
    dtype = getattr(x, "dtype", a.dtype)
    out = {"dtype": str(getattr(dtype, "name", dtype)), "shape": list(a.shape), "values": flat}
    return out if tol is None else dict(out, tol=tol)


def grad(tf, fn, x):
    """d fn(x) / d x under a GradientTape."""
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return values(tape.gradient(y, x))
