"""Fast Fourier transforms over the innermost 1, 2 or 3 dimensions, as TensorFlow's spectral ops: FFT, IFFT,
RFFT, IRFFT (and their 2D/3D forms), with their gradients. `fft_length` is an attribute (the lengths the
real transforms crop or zero-pad to), as other shape arguments are in placeflow."""

import numpy as np

from ..framework import dtypes as d
from .emit import emit
from .registry import COMPLEX, NOT_DIFFERENTIABLE, define, no_gradient_registered

REALS = frozenset({d.float32, d.float64})
_COMPLEX_OF = {d.float32: d.complex64, d.float64: d.complex128}
_REAL_OF = {d.complex64: d.float32, d.complex128: d.float64}
_SUFFIX = {1: "", 2: "2D", 3: "3D"}


_no_gradient = no_gradient_registered  # TensorFlow registers none for the 3-D real transforms


def _axes(rank: int) -> tuple:
    return tuple(range(-rank, 0))


def _scaled(x, factor: float):
    """x times a real factor, in x's (complex) dtype."""
    return emit("Mul", (x, np.asarray(factor, x.dtype.numpy_dtype)), x.dtype)


def _size(shape, rank: int) -> int:
    return int(np.prod([int(s) for s in tuple(shape)[-rank:]], dtype=np.int64))


def _complex_transform(rank: int, inverse: bool):
    name = ("IFFT" if inverse else "FFT") + _SUFFIX[rank]

    def kernel(xp, a):
        fn = xp.fft.ifftn if inverse else xp.fft.fftn
        return fn(a, axes=_axes(rank)).astype(a.dtype, copy=False)

    def grad(e, g):  # the adjoint of the unnormalized DFT is the unnormalized inverse, and vice versa
        size = _size(g.shape, rank)
        other = ("FFT" if inverse else "IFFT") + _SUFFIX[rank]
        return [_scaled(emit(other, (g,), g.dtype), 1.0 / size if inverse else float(size))]

    define(name, COMPLEX, shape=lambda shapes, attrs: shapes[0], grad=grad, complex_convention=True)(kernel)


def _real_shape(rank: int):
    def rule(shapes, attrs):
        if shapes[0] is None:
            return None
        lengths = [int(n) for n in attrs["fft_length"]]
        return tuple(shapes[0][:-rank]) + tuple(lengths[:-1]) + (lengths[-1] // 2 + 1,)
    return rule


def _inverse_real_shape(rank: int):
    def rule(shapes, attrs):
        return None if shapes[0] is None else tuple(shapes[0][:-rank]) + tuple(int(n) for n in attrs["fft_length"])
    return rule


def _fit(xp, a, lengths, rank: int):
    """`a` cropped or zero-padded along its innermost `rank` axes to `lengths`."""
    index = (Ellipsis,) + tuple(slice(0, n) for n in lengths)
    a = a[index]
    pads = [(0, 0)] * (a.ndim - rank) + [(0, n - s) for n, s in zip(lengths, a.shape[-rank:])]
    return xp.pad(a, pads) if any(p for _, p in pads) else a


def _real_forward(rank: int):
    name = "RFFT" + _SUFFIX[rank]

    def kernel(xp, a, fft_length=()):
        lengths = [int(n) for n in fft_length]
        out = xp.fft.rfftn(_fit(xp, a, lengths, rank), s=lengths, axes=_axes(rank))
        return out.astype(xp.complex64 if a.dtype == xp.float32 else xp.complex128, copy=False)

    def grad(e, g):
        """Re(n * ifftn(g extended with zeros to the full last axis)), cropped or padded back to the input."""
        lengths = [int(n) for n in e.attrs["fft_length"]]
        attrs = {"lengths": tuple(lengths), "input_shape": tuple(int(s) for s in e.inputs[0].shape[-rank:]),
                 "rank": rank}
        return [emit("_RFFTAdjoint", (g,), g.dtype, attrs)]

    define(name, REALS, shape=_real_shape(rank), grad=grad if rank < 3 else _no_gradient(name),
           dtype=lambda dtype, attrs: _COMPLEX_OF.get(dtype, dtype))(kernel)


@define("_RFFTAdjoint", COMPLEX, complex_convention=True, shape=lambda shapes, attrs: None if shapes[0] is None else
        tuple(shapes[0][:-attrs["rank"]]) + tuple(attrs["input_shape"]),
        grad=lambda e, g: [emit("RFFT" + _SUFFIX[e.attrs["rank"]], (g,), g.dtype,
                                {"fft_length": e.attrs["lengths"]})],
        dtype=lambda dtype, attrs: _REAL_OF.get(dtype, dtype))
def _rfft_adjoint(xp, g, lengths=(), input_shape=(), rank=1):
    """The gradient of RFFT with respect to its real input."""
    full = list(g.shape[:-1]) + [int(lengths[-1])]
    extended = xp.zeros(full, g.dtype)
    extended[..., :g.shape[-1]] = g
    size = int(np.prod(lengths, dtype=np.int64))
    real = (xp.fft.ifftn(extended, axes=_axes(rank)) * size).real.astype(
        xp.float32 if g.dtype == xp.complex64 else xp.float64, copy=False)
    return _fit(xp, real, [int(n) for n in input_shape], rank)


def _real_inverse(rank: int):
    name = "IRFFT" + _SUFFIX[rank]

    def kernel(xp, a, fft_length=()):
        lengths = [int(n) for n in fft_length]
        fitted = _fit(xp, a, lengths[:-1] + [lengths[-1] // 2 + 1], rank)
        out = xp.fft.irfftn(fitted, s=lengths, axes=_axes(rank))
        return out.astype(xp.float32 if a.dtype == xp.complex64 else xp.float64, copy=False)

    def grad(e, g):
        """rfftn(g) with the bins counted twice by the inverse weighted 2, over the transform's size."""
        lengths = [int(n) for n in e.attrs["fft_length"]]
        return [emit("_IRFFTAdjoint", (g,), g.dtype, {"lengths": tuple(lengths), "rank": rank,
                                                      "input_last": int(e.inputs[0].shape[-1]),
                                                      "input_shape": tuple(int(s) for s in
                                                                           e.inputs[0].shape[-rank:])})]

    define(name, COMPLEX, shape=_inverse_real_shape(rank), grad=grad if rank < 3 else _no_gradient(name),
           complex_convention=True,
           dtype=lambda dtype, attrs: _REAL_OF.get(dtype, dtype))(kernel)


@define("_IRFFTAdjoint", REALS, shape=lambda shapes, attrs: None if shapes[0] is None else
        tuple(shapes[0][:-attrs["rank"]]) + tuple(attrs["input_shape"]), grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: _COMPLEX_OF.get(dtype, dtype))
def _irfft_adjoint(xp, g, lengths=(), rank=1, input_last=1, input_shape=()):
    """The gradient of IRFFT with respect to its complex input."""
    n = int(lengths[-1])
    spectrum = xp.fft.rfftn(g, axes=_axes(rank))
    weights = np.full(n // 2 + 1, 2.0)
    weights[0] = 1.0
    if n % 2 == 0:
        weights[-1] = 1.0
    size = int(np.prod(lengths, dtype=np.int64))
    out = spectrum * xp.asarray(weights / size)
    return _fit(xp, out, [int(s) for s in input_shape], rank).astype(
        xp.complex64 if g.dtype == xp.float32 else xp.complex128, copy=False)


for _rank in (1, 2, 3):
    _complex_transform(_rank, inverse=False)
    _complex_transform(_rank, inverse=True)
    _real_forward(_rank)
    _real_inverse(_rank)
