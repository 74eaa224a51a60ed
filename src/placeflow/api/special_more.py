"""tf.math.special's Bessel functions and integrals (bessel_j0 .. spence) and tf.math's regularized incomplete
gamma and beta functions (igamma, igammac, betainc); their kernels are in ops/special_bessel.py,
ops/special_integrals.py and ops/special_incomplete.py."""

from __future__ import annotations

from ..eager.convert import operands
from ..eager.execute import execute
from . import math_ops


def bessel_j0(x, name=None):
    """The Bessel function of the first kind of order 0."""
    return math_ops._unary("BesselJ0", x, name)


def bessel_j1(x, name=None):
    """The Bessel function of the first kind of order 1."""
    return math_ops._unary("BesselJ1", x, name)


def bessel_y0(x, name=None):
    """The Bessel function of the second kind of order 0 (-inf for x <= 0, as TensorFlow)."""
    return math_ops._unary("BesselY0", x, name)


def bessel_y1(x, name=None):
    """The Bessel function of the second kind of order 1 (-inf for x <= 0, as TensorFlow)."""
    return math_ops._unary("BesselY1", x, name)


def bessel_k0(x, name=None):
    """The modified Bessel function of the second kind of order 0 (inf for x <= 0, as TensorFlow)."""
    return math_ops._unary("BesselK0", x, name)


def bessel_k0e(x, name=None):
    """exp(x) * bessel_k0(x), without its underflow."""
    return math_ops._unary("BesselK0e", x, name)


def bessel_k1(x, name=None):
    """The modified Bessel function of the second kind of order 1 (inf for x <= 0, as TensorFlow)."""
    return math_ops._unary("BesselK1", x, name)


def bessel_k1e(x, name=None):
    """exp(x) * bessel_k1(x), without its underflow."""
    return math_ops._unary("BesselK1e", x, name)


def dawsn(x, name=None):
    """Dawson's integral exp(-x^2) * the integral of exp(t^2) from 0 to x."""
    return math_ops._unary("Dawsn", x, name)


def expint(x, name=None):
    """The exponential integral Ei(x) (NaN for x < 0, as TensorFlow)."""
    return math_ops._unary("Expint", x, name)


def fresnel_cos(x, name=None):
    """The Fresnel cosine integral: the integral of cos(pi t^2 / 2) from 0 to x."""
    return math_ops._unary("FresnelCos", x, name)


def fresnel_sin(x, name=None):
    """The Fresnel sine integral: the integral of sin(pi t^2 / 2) from 0 to x."""
    return math_ops._unary("FresnelSin", x, name)


def spence(x, name=None):
    """Spence's function: the integral of log(t) / (1 - t) from 1 to x (NaN for x < 0)."""
    return math_ops._unary("Spence", x, name)


def igamma(a, x, name=None):
    """The regularized lower incomplete gamma function P(a, x)."""
    return math_ops._binary("Igamma", a, x, name)


def igammac(a, x, name=None):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    return math_ops._binary("Igammac", a, x, name)


def betainc(a, b, x, name=None):
    """The regularized incomplete beta function I_x(a, b) (a, b and x of one shape, or scalars)."""
    inputs, dtype = operands("Betainc", (a, b, x))
    return execute("Betainc", tuple(inputs), dtype, name=name)
