"""Special functions (TensorFlow's Lgamma, Digamma, Zeta, Polygamma, Ndtri, Erfcinv), computed on the host in
float64 and returned in the input's dtype, with TensorFlow's values at poles and outside the domain.

lgamma: Lanczos' approximation (g = 7) with the reflection formula below 1/2; digamma: the recurrence up to
6 and the asymptotic series, reflected for negatives; zeta (Hurwitz): the Euler-Maclaurin sum.
"""

from __future__ import annotations

import numpy as np

from ..framework import dtypes as d
from . import shape_rules as rules
from .emit import emit, ones_like
from .registry import FLOATS, define, no_gradient_yet

_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7)
# Euler-Maclaurin: B(2k) / (2k)! as the divisors of the Hurwitz zeta tail (12, -720, 30240, ...)
_ZETA_TAIL = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
              -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
              1.8152105401943546773e17, -7.1661652561756670113e18)


def _host(array) -> np.ndarray:
    return (array.get() if hasattr(array, "get") else np.asarray(array)).astype(np.float64)


def _back(xp, values: np.ndarray, like):
    return xp.asarray(values.astype(like.dtype))


def lgamma(x: np.ndarray) -> np.ndarray:
    """log|Gamma(x)|; +inf at 0 and the negative integers."""
    x = np.asarray(x, np.float64)
    pole = (x <= 0) & (x == np.floor(x))
    reflect = x < 0.5
    z = np.where(reflect, 1.0 - x, x) - 1.0
    series = np.full_like(z, _LANCZOS[0])
    for k, coefficient in enumerate(_LANCZOS[1:], start=1):
        series = series + coefficient / (z + k)
    t = z + 7.5
    with np.errstate(all="ignore"):
        direct = 0.5 * np.log(2 * np.pi) + (z + 0.5) * np.log(t) - t + np.log(series)
        reflected = np.log(np.pi / np.abs(np.sin(np.pi * x))) - direct
    return np.where(pole, np.inf, np.where(reflect, reflected, direct))


def digamma(x: np.ndarray) -> np.ndarray:
    """d/dx log Gamma(x); NaN at 0 and the negative integers."""
    x = np.asarray(x, np.float64)
    pole = (x <= 0) & (x == np.floor(x))
    y = np.where(x < 0, 1.0 - x, x)
    with np.errstate(all="ignore"):
        shift = np.zeros_like(y)
        for _ in range(6):
            small = y < 6.0
            shift = shift - np.where(small, 1.0 / y, 0.0)
            y = np.where(small, y + 1.0, y)
        inverse_square = 1.0 / (y * y)
        tail = inverse_square * (1 / 12 - inverse_square * (1 / 120 - inverse_square * (
            1 / 252 - inverse_square * (1 / 240 - inverse_square * (1 / 132)))))
        value = np.log(y) - 0.5 / y - tail + shift
        value = np.where(x < 0, value - np.pi / np.tan(np.pi * x), value)
    return np.where(pole, np.nan, value)


def zeta(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The Hurwitz zeta function sum over k >= 0 of (k + q)^-x; inf at x = 1, NaN for x < 1 and where q is a
    non-positive integer or q < 0 with x not an integer."""
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    invalid = (x < 1) | ((q <= 0) & (q == np.floor(q))) | ((q < 0) & (x != np.floor(x)))
    terms = int(max(9, np.ceil(9 - np.nanmin(q, initial=9.0)) + 1)) if q.size else 9
    with np.errstate(all="ignore"):
        total = np.zeros_like(x)
        for k in range(terms):
            total = total + np.power(q + k, -x)
        w = q + terms
        b = np.power(w, -x)
        total = total + b + w * b / (x - 1.0) - 0.5 * b  # the last term, then the integral and half its end
        a, k = np.ones_like(x), 0.0
        for divisor in _ZETA_TAIL:
            a = a * (x + k)
            b = b / w
            total = total + a * b / divisor
            k += 1.0
            a = a * (x + k)
            b = b / w
            k += 1.0
    return np.where(x == 1, np.inf, np.where(invalid, np.nan, total))


def polygamma(n: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The n-th derivative of digamma; NaN unless n is a non-negative integer."""
    n, x = np.broadcast_arrays(np.asarray(n, np.float64), np.asarray(x, np.float64))
    integral = (n >= 0) & (n == np.floor(n))
    with np.errstate(all="ignore"):
        higher = np.where(np.mod(n, 2) == 0, -1.0, 1.0) * np.exp(lgamma(n + 1.0)) * zeta(n + 1.0, x)
    return np.where(~integral, np.nan, np.where(n == 0, digamma(x), higher))


def ndtri(p: np.ndarray) -> np.ndarray:
    """The standard normal's quantile: sqrt(2) erfinv(2p - 1); -inf at 0, inf at 1, NaN outside [0, 1]."""
    from .math import _erfinv
    p = np.asarray(p, np.float64)
    return np.sqrt(2.0) * _erfinv(np, 2.0 * p - 1.0)


def _lgamma_grad(e, g):
    return [g * emit("Digamma", (e.inputs[0],))]


def _digamma_grad(e, g):
    x = e.inputs[0]
    return [g * emit("Polygamma", (ones_like(x), x))]


def _polygamma_grad(e, g):
    n, x = e.inputs
    return [None, g * emit("Polygamma", (n + ones_like(n), x))]


def _zeta_grad(e, g):
    x, q = e.inputs
    return [None, g * -x * emit("Zeta", (x + ones_like(x), q))]


def _ndtri_grad(e, g):
    y = e.outputs[0]
    return [g * float(np.sqrt(2 * np.pi)) * emit("Exp", (y * y * 0.5,))]


def _erfcinv_grad(e, g):
    y = e.outputs[0]
    return [g * -(float(np.sqrt(np.pi)) / 2.0) * emit("Exp", (y * y,))]


_FLOAT = {d.float16, d.bfloat16, d.float32, d.float64} & FLOATS  # TF's: real floats only
_BESSEL_I = {d.float16, d.float32, d.float64}  # TF has no bfloat16 kernel of BesselI0/I0e/I1/I1e (NotFoundError)

define("Lgamma", _FLOAT, shape=rules.same, grad=_lgamma_grad)(lambda xp, a: _back(xp, lgamma(_host(a)), a))
define("Digamma", _FLOAT, shape=rules.same, grad=_digamma_grad)(lambda xp, a: _back(xp, digamma(_host(a)), a))
define("Zeta", _FLOAT, shape=rules.broadcast, grad=_zeta_grad)(
    lambda xp, a, b: _back(xp, zeta(_host(a), _host(b)), a))
define("Polygamma", _FLOAT, shape=rules.broadcast, grad=_polygamma_grad)(
    lambda xp, a, b: _back(xp, polygamma(_host(a), _host(b)), a))
define("Ndtri", _FLOAT, shape=rules.same, grad=_ndtri_grad)(lambda xp, a: _back(xp, ndtri(_host(a)), a))
define("Erfcinv", _FLOAT, shape=rules.same, grad=_erfcinv_grad)(
    lambda xp, a: _back(xp, -ndtri(0.5 * _host(a)) / np.sqrt(2.0), a))


# -- modified Bessel functions of the first kind, orders 0 and 1 (plain and exponentially scaled) ---------------

def _bessel_scaled(x: np.ndarray, order: int) -> np.ndarray:
    """exp(-|x|) * I_order(x): the power series up to |x| = 30 (all terms positive: no cancellation), the
    asymptotic series beyond (its error there is below exp(-60))."""
    x = np.asarray(x, np.float64)
    ax = np.abs(x)
    out = np.empty_like(ax)
    small = ax <= 30.0
    if small.any():
        quarter = (ax[small] ** 2) / 4.0
        term = np.ones_like(quarter) if order == 0 else ax[small] / 2.0
        total = term.copy()
        for k in range(1, 160):
            term = term * quarter / (k * (k + order))
            total += term
        out[small] = total * np.exp(-ax[small])
    if (~small).any():
        z = ax[~small]
        mu = 4.0 * order * order
        term = np.ones_like(z)
        total = term.copy()
        for k in range(1, 40):
            term = -term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * z)
            total += term
        out[~small] = total / np.sqrt(2.0 * np.pi * z)
    return out * np.sign(x) if order == 1 else out


def bessel_i0e(x):
    """exp(-|x|) I0(x)."""
    return _bessel_scaled(x, 0)


def bessel_i1e(x):
    """exp(-|x|) I1(x)."""
    return _bessel_scaled(x, 1)


def _unscaled(x, order):
    with np.errstate(over="ignore"):
        return _bessel_scaled(x, order) * np.exp(np.abs(np.asarray(x, np.float64)))


def _i0_grad(e, g):
    return [g * emit("BesselI1", (e.inputs[0],))]


def _i0e_grad(e, g):
    x = e.inputs[0]
    return [g * (emit("BesselI1e", (x,)) - emit("Sign", (x,)) * e.outputs[0])]


def _i1_grad(e, g):
    x = e.inputs[0]
    return [g * emit("_BesselI1Derivative", (x,))]


def _i1e_grad(e, g):
    x = e.inputs[0]
    return [g * emit("_BesselI1eDerivative", (x,))]


def _i1_derivative(x: np.ndarray) -> np.ndarray:
    """I1'(x) = I0(x) - I1(x) / x; at 0, TF's value 1 (I1(x)/x taken as 0 there; the limit is 1/2)."""
    x = np.asarray(x, np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ratio = np.where(x == 0, 0.0, _unscaled(x, 1) / np.where(x == 0, 1.0, x))
        return _unscaled(x, 0) - ratio


define("BesselI0e", _BESSEL_I, shape=rules.same, grad=_i0e_grad, allowed=_FLOAT)(lambda xp, a: _back(xp, bessel_i0e(_host(a)), a))
define("BesselI1e", _BESSEL_I, shape=rules.same, grad=_i1e_grad, allowed=_FLOAT)(lambda xp, a: _back(xp, bessel_i1e(_host(a)), a))
define("BesselI0", _BESSEL_I, shape=rules.same, grad=_i0_grad, allowed=_FLOAT)(lambda xp, a: _back(xp, _unscaled(_host(a), 0), a))
define("BesselI1", _BESSEL_I, shape=rules.same, grad=_i1_grad, allowed=_FLOAT)(lambda xp, a: _back(xp, _unscaled(_host(a), 1), a))
def _i1e_derivative(x: np.ndarray) -> np.ndarray:
    """d/dx exp(-|x|) I1(x) = exp(-|x|) (I1'(x) - sign(x) I1(x)); 1/2 at 0, as TF."""
    x = np.asarray(x, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled0, scaled1 = bessel_i0e(x), bessel_i1e(x)
        ratio = np.where(x == 0, 0.5, scaled1 / np.where(x == 0, 1.0, x))
        return scaled0 - ratio - np.sign(x) * scaled1


define("_BesselI1Derivative", _FLOAT, shape=rules.same, grad=no_gradient_yet("the second derivative of BesselI1"))(
    lambda xp, a: _back(xp, _i1_derivative(_host(a)), a))
define("_BesselI1eDerivative", _FLOAT, shape=rules.same,
       grad=no_gradient_yet("the second derivative of BesselI1e"))(
    lambda xp, a: _back(xp, _i1e_derivative(_host(a)), a))
