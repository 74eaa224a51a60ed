"""Complex numbers: Complex (from real and imaginary parts), Real, Imag, Conj, Angle, ComplexAbs."""

from ..framework import dtypes as d
from . import shape_rules as rules
from .emit import emit
from .registry import COMPLEX, define, no_gradient_yet

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
define("Angle", COMPLEX, shape=rules.same, dtype=_part_dtype, complex_convention=True,
       grad=no_gradient_yet("Angle"))(
    lambda xp, a: xp.angle(a).astype(xp.real(a).dtype, copy=False))
define("ComplexAbs", COMPLEX, shape=rules.same, dtype=_part_dtype, complex_convention=True,
       grad=no_gradient_yet("ComplexAbs"))(
    lambda xp, a: xp.abs(a).astype(xp.real(a).dtype, copy=False))
