"""N-dimensional FFTs over chosen axes, as TensorFlow's FFTND, IFFTND, RFFTND and IRFFTND ops: each axis of `axes`
cropped or zero-padded to its `fft_length` (both attributes here: placeflow keeps shape arguments static), the
real inverse reading fft_length[-1] // 2 + 1 bins of its last axis. TensorFlow 2.21 registers these ops with
GPU kernels only and no gradient: placeflow runs them on the host as well, and their gradient is TF's
LookupError."""

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from .registry import COMPLEX, define, no_gradient_registered

REALS = frozenset({d.float32, d.float64})
_COMPLEX_OF = {d.float32: d.complex64, d.float64: d.complex128}
_REAL_OF = {d.complex64: d.float32, d.complex128: d.float64}


def _plan(op: str, rank: int, fft_length, axes) -> tuple:
    """(axes as non-negative ints, lengths), checked against the input's rank."""
    lengths, axes = [int(n) for n in fft_length], [int(a) for a in axes]
    if len(lengths) != len(axes) or not axes:
        raise InvalidArgumentError(None, None, f"{op}: fft_length {lengths} and axes {axes} must be non-empty and "
                                               f"of the same length (one FFT length per axis).")
    if any(a < -rank or a >= rank for a in axes):
        raise InvalidArgumentError(None, None, f"{op}: axes {axes} are out of range for an input of rank {rank}; "
                                               f"use axes in [{-rank}, {rank}).")
    axes = [a % rank for a in axes]
    if len(set(axes)) != len(axes) or any(n < 0 for n in lengths):
        raise InvalidArgumentError(None, None, f"{op}: axes {axes} must be distinct and fft_length {lengths} "
                                               f"non-negative.")
    return axes, lengths


def _shape_rule(op: str, last_half=False):
    def rule(shapes, attrs):
        shape = shapes[0]
        if shape is None:
            return None
        axes, lengths = _plan(op, len(shape), attrs["fft_length"], attrs["axes"])
        out = list(shape)
        for axis, length in zip(axes, lengths):
            out[axis] = length
        if last_half:
            out[axes[-1]] = lengths[-1] // 2 + 1
        return tuple(out)
    return rule


def _fit(xp, a, axes, lengths):
    """a cropped or zero-padded along each axis to its length."""
    a = a[tuple(slice(0, lengths[axes.index(k)]) if k in axes else slice(None) for k in range(a.ndim))]
    pads = [(0, max(lengths[axes.index(k)] - a.shape[k], 0)) if k in axes else (0, 0) for k in range(a.ndim)]
    return xp.pad(a, pads) if any(p for _, p in pads) else a


@define("FFTND", COMPLEX, gpu=None, shape=_shape_rule("FFTND"), grad=no_gradient_registered("FFTND"),
        complex_convention=True)
def _fftnd(xp, a, fft_length=(), axes=()):
    """The DFT over `axes`, each cropped or padded to its length."""
    axes, lengths = _plan("FFTND", a.ndim, fft_length, axes)
    return xp.fft.fftn(_fit(xp, a, axes, lengths), axes=axes).astype(a.dtype, copy=False)


@define("IFFTND", COMPLEX, gpu=None, shape=_shape_rule("IFFTND"), grad=no_gradient_registered("IFFTND"),
        complex_convention=True)
def _ifftnd(xp, a, fft_length=(), axes=()):
    """The inverse DFT over `axes`, each cropped or padded to its length."""
    axes, lengths = _plan("IFFTND", a.ndim, fft_length, axes)
    return xp.fft.ifftn(_fit(xp, a, axes, lengths), axes=axes).astype(a.dtype, copy=False)


@define("RFFTND", REALS, shape=_shape_rule("RFFTND", last_half=True), grad=no_gradient_registered("RFFTND"),
        dtype=lambda dtype, attrs: d.as_dtype(attrs.get("Tcomplex") or _COMPLEX_OF.get(dtype, dtype)))
def _rfftnd(xp, a, fft_length=(), axes=(), Tcomplex=None):  # noqa: N803 - TensorFlow's attribute name
    """The DFT of a real tensor over `axes`: the non-negative frequencies of the last axis."""
    axes, lengths = _plan("RFFTND", a.ndim, fft_length, axes)
    out = xp.fft.rfftn(_fit(xp, a, axes, lengths), axes=axes)
    return out.astype(d.as_dtype(Tcomplex or _COMPLEX_OF[d.as_dtype(a.dtype)]).numpy_dtype, copy=False)


@define("IRFFTND", COMPLEX, shape=_shape_rule("IRFFTND"), grad=no_gradient_registered("IRFFTND"),
        complex_convention=True,
        dtype=lambda dtype, attrs: d.as_dtype(attrs.get("Treal") or _REAL_OF.get(dtype, dtype)))
def _irfftnd(xp, a, fft_length=(), axes=(), Treal=None):  # noqa: N803 - TensorFlow's attribute name
    """The inverse of RFFTND: a real tensor of fft_length over `axes`."""
    axes, lengths = _plan("IRFFTND", a.ndim, fft_length, axes)
    fitted = _fit(xp, a, axes, lengths[:-1] + [lengths[-1] // 2 + 1])
    out = xp.fft.irfftn(fitted, s=lengths, axes=axes) if all(lengths) else xp.zeros(
        [lengths[axes.index(k)] if k in axes else n for k, n in enumerate(a.shape)])
    return out.astype(d.as_dtype(Treal or _REAL_OF[d.as_dtype(a.dtype)]).numpy_dtype, copy=False)
