"""Complex numbers: Complex (from real and imaginary parts), Real, Imag, Conj, Angle, ComplexAbs."""

from ..framework import dtypes as d
from . import shape_rules as rules
from .emit import compare, emit, ones_like, where, zeros_like
from .registry import COMPLEX, define

PARTS = frozenset({d.float32, d.float64})
_COMPLEX_OF = {d.float32: d.complex64, d.float64: d.complex128}
_PART_OF = {d.complex64: d.float32, d.complex128: d.float64}


def _part_dtype(dtype, attrs):
    return _PART_OF.get(dtype, dtype)


def _complex_dtype(dtype, attrs):
    return _COMPLEX_OF.get(dtype, dtype)


def _complex(re, im):
    return emit("Complex", (re, im), re.dtype)


@define("Complex", PARTS, shape=rules.broadcast, dtype=_complex_dtype, complex_convention=True,
        grad=lambda e, g: [emit("Real", (g,), g.dtype), emit("Imag", (g,), g.dtype)])
def _make_complex(xp, re, im):
    return (re + 1j * im).astype(xp.complex64 if re.dtype == xp.float32 else xp.complex128, copy=False)


define("Real", COMPLEX, shape=rules.same, dtype=_part_dtype, complex_convention=True,
       grad=lambda e, g: [_complex(g, g * 0.0)])(lambda xp, a: xp.real(a).copy())
define("Imag", COMPLEX, shape=rules.same, dtype=_part_dtype, complex_convention=True,
       grad=lambda e, g: [_complex(g * 0.0, g)])(lambda xp, a: xp.imag(a).copy())
define("Conj", COMPLEX, shape=rules.same, complex_convention=True, grad=lambda e, g: [emit("Conj", (g,), g.dtype)])(
    lambda xp, a: xp.conj(a))


def _angle_grad(e, g):
    """TF's rule: -g / (Im(z) + i Re(z))."""
    z = e.inputs[0]
    flipped = _complex(emit("Imag", (z,), z.dtype), emit("Real", (z,), z.dtype))
    return [emit("Neg", (_complex(g, zeros_like(g)),), z.dtype) / flipped]


def _complex_abs_grad(e, g):
    """TF's rule: g * z / |z|, and 0 where |z| is 0 (div_no_nan)."""
    z, size = e.inputs[0], e.outputs[0]
    zero = compare("Equal", size, zeros_like(size))
    quotient = _complex(g, zeros_like(g)) * z / _complex(where(zero, ones_like(size), size), zeros_like(size))
    return [where(zero, zeros_like(quotient), quotient)]


define("Angle", COMPLEX, shape=rules.same, dtype=_part_dtype, complex_convention=True, grad=_angle_grad)(
    lambda xp, a: xp.angle(a).astype(xp.real(a).dtype, copy=False))
define("ComplexAbs", COMPLEX, shape=rules.same, dtype=_part_dtype, complex_convention=True, grad=_complex_abs_grad)(
    lambda xp, a: xp.abs(a).astype(xp.real(a).dtype, copy=False))
