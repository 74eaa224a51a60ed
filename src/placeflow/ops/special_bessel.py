"""Bessel functions of orders 0 and 1 that tf.math.special adds to I0/I1 (ops/special.py): J0, J1, Y0, Y1 and
the modified K0, K1 with their exponentially scaled K0e, K1e. Computed on the host in float64 and returned in the
input's dtype, with TensorFlow's values outside the domain (Y of x <= 0 is -inf, K of x <= 0 is inf, J and Y of
+inf are NaN) and its gradients.

J and Y: the ascending series below 2 (A&S 9.1.10-11), Miller's backward recurrence normalised by
J0 + 2 sum J_2k = 1 with Neumann's series for Y (A&S 9.1.88) up to 25, Hankel's asymptotic expansion (A&S 9.2.5)
beyond. K: the ascending series (A&S 9.6.11) up to 2, the trapezoidal rule on K_v(x) = int_0^inf
exp(-x cosh t) cosh(vt) dt up to 25 (exponentially convergent), the asymptotic expansion (A&S 9.7.2) beyond.
"""

from __future__ import annotations

import numpy as np

from ..framework import dtypes as d
from . import shape_rules as rules
from .emit import compare, emit, ones_like, where, zeros_like
from .registry import FLOATS, define
from .special import _back, _host

_EULER = 0.57721566490153286061
_TWO_OVER_PI = 2.0 / np.pi
_SERIES_END, _MILLER_END = 2.0, 25.0
_MILLER_START = 76            # J_76(25) is below 1e-20 of the normalisation: the recurrence starts there


def _pieces(x: np.ndarray):
    """The masks of the three ranges of positive finite x."""
    finite = np.isfinite(x) & (x > 0)
    small = finite & (x < _SERIES_END)
    middle = finite & (x >= _SERIES_END) & (x <= _MILLER_END)
    large = finite & (x > _MILLER_END)
    return small, middle, large


def _series_jy(x: np.ndarray):
    """J0, J1, Y0, Y1 from their ascending series (x in (0, 2))."""
    q = -(x * x) / 4.0
    j0 = np.ones_like(x)
    j1 = np.ones_like(x)
    y0_sum = np.zeros_like(x)
    y1_sum = np.full_like(x, 2.0 * (1.0 - _EULER) - 1.0)     # psi(1) + psi(2) = -2 gamma + 1
    term0 = np.ones_like(x)
    term1 = np.ones_like(x)
    harmonic = 0.0
    for k in range(1, 30):
        term0 = term0 * q / (k * k)
        term1 = term1 * q / (k * (k + 1))
        harmonic += 1.0 / k
        j0 += term0
        j1 += term1
        y0_sum -= harmonic * term0                                     # (-1)^(k+1) H_k (x^2/4)^k / k!^2
        y1_sum += (2.0 * harmonic + 1.0 / (k + 1) - 2.0 * _EULER) * term1
    half = x / 2.0
    log_term = np.log(half) + _EULER
    j1 = half * j1
    y0 = _TWO_OVER_PI * (log_term * j0 + y0_sum)
    y1 = -_TWO_OVER_PI / x + _TWO_OVER_PI * np.log(half) * j1 - half * y1_sum / np.pi
    return j0, j1, y0, y1


def _miller_jy(x: np.ndarray):
    """J0, J1, Y0, Y1 by the backward recurrence J_{n-1} = 2n/x J_n - J_{n+1} (x in [2, 25])."""
    following = np.zeros_like(x)             # J_{n+1}, unnormalised
    current = np.full_like(x, 1e-30)         # J_n
    norm = np.zeros_like(x)                  # sum over even n >= 2 of J_n
    y0_sum = np.zeros_like(x)                # sum over k >= 1 of (-1)^k J_2k / k
    y1_sum = np.zeros_like(x)                # sum over k >= 1 of (-1)^k (J_{2k-1} - J_{2k+1}) / k
    odd_above = np.zeros_like(x)             # J_{2k+1} while at J_2k
    j1 = None
    for n in range(_MILLER_START, 0, -1):   # on entry: current = J_n; leaves J_{n-1}
        if n % 2 == 0:
            k = n // 2
            sign = -1.0 if k % 2 else 1.0
            norm = norm + current
            y0_sum = y0_sum + sign * current / k
            odd_above = following
        else:
            k = (n + 1) // 2                 # n = 2k - 1
            sign = -1.0 if k % 2 else 1.0
            y1_sum = y1_sum + sign * (current - odd_above) / k
        previous = (2.0 * n / x) * current - following
        following, current = current, previous
        big = np.abs(current) > 1e250
        if big.any():
            scale = np.where(big, 1e-250, 1.0)
            following, current, norm = following * scale, current * scale, norm * scale
            y0_sum, y1_sum, odd_above = y0_sum * scale, y1_sum * scale, odd_above * scale
        if n == 1:
            j1 = following
    total = current + 2.0 * norm
    j0, j1 = current / total, j1 / total
    y0_sum, y1_sum = y0_sum / total, y1_sum / total
    log_term = np.log(x / 2.0) + _EULER
    y0 = _TWO_OVER_PI * log_term * j0 - 2.0 * _TWO_OVER_PI * y0_sum
    y1 = _TWO_OVER_PI * (log_term * j1 - j0 / x) + _TWO_OVER_PI * y1_sum
    return j0, j1, y0, y1


def _hankel(x: np.ndarray, order: int):
    """Hankel's P and Q of the given order (x > 25)."""
    mu = 4.0 * order * order
    p, q = np.ones_like(x), np.zeros_like(x)
    term = np.ones_like(x)
    eight_x = 8.0 * x
    for k in range(1, 40):
        term = term * (mu - (2 * k - 1) ** 2) / (k * eight_x)
        if k % 2:
            q += term if (k // 2) % 2 == 0 else -term
        else:
            p += term if (k // 2) % 2 == 0 else -term
    return p, q


def _asymptotic_jy(x: np.ndarray):
    """J0, J1, Y0, Y1 from Hankel's expansions; the phases x - pi/4, x - 3pi/4 from sin x and cos x."""
    amplitude = np.sqrt(_TWO_OVER_PI / x)
    s, c = np.sin(x), np.cos(x)
    root_half = np.sqrt(0.5)
    cos0, sin0 = (c + s) * root_half, (s - c) * root_half       # cos, sin of x - pi/4
    cos1, sin1 = (s - c) * root_half, -(s + c) * root_half      # cos, sin of x - 3pi/4
    p0, q0 = _hankel(x, 0)
    p1, q1 = _hankel(x, 1)
    return (amplitude * (p0 * cos0 - q0 * sin0), amplitude * (p1 * cos1 - q1 * sin1),
            amplitude * (p0 * sin0 + q0 * cos0), amplitude * (p1 * sin1 + q1 * cos1))


def bessel_jy(x) -> tuple:
    """(J0, J1, Y0, Y1) of float64 x, with TensorFlow's values at 0, the negatives, +-inf and NaN."""
    x = np.asarray(x, np.float64)
    ax = np.abs(x)
    out = [np.full(x.shape, np.nan) for _ in range(4)]
    with np.errstate(all="ignore"):
        for mask, method in zip(_pieces(ax), (_series_jy, _miller_jy, _asymptotic_jy)):
            if mask.any():
                for target, value in zip(out, method(ax[mask])):
                    target[mask] = value
    j0, j1, y0, y1 = out
    zero = ax == 0
    j0[zero], j1[zero] = 1.0, 0.0
    j1 = np.where(x < 0, -j1, j1)
    j1[zero] = x[zero]                                       # J1(+-0) = +-0
    nonpositive = x <= 0
    y0[nonpositive], y1[nonpositive] = -np.inf, -np.inf
    return j0, j1, y0, y1


# -- K0, K1 ------------------------------------------------------------------------------------------------------

_STEP = 0.15
_NODES = np.arange(31) * _STEP      # x (cosh t - 1) passes 45 by t = 4.5 for every x >= 2


def _series_k(x: np.ndarray):
    """exp(x) K0(x), exp(x) K1(x) from the ascending series (x in (0, 2])."""
    q = x * x / 4.0
    log_half = np.log(x / 2.0)
    term0, term1 = np.ones_like(x), np.ones_like(x)
    k0 = -(log_half + _EULER) * term0
    k1 = (log_half - (1.0 - 2.0 * _EULER) / 2.0) * term1     # ln(x/2) - (psi(1) + psi(2)) / 2
    harmonic = 0.0
    for k in range(1, 30):
        term0 = term0 * q / (k * k)
        term1 = term1 * q / (k * (k + 1))
        harmonic += 1.0 / k
        k0 += term0 * (harmonic - _EULER - log_half)
        k1 += term1 * (log_half - (2.0 * harmonic + 1.0 / (k + 1) - 2.0 * _EULER) / 2.0)
    scale = np.exp(x)
    return k0 * scale, (1.0 / x + x / 2.0 * k1) * scale


def _integral_k(x: np.ndarray):
    """exp(x) K0(x), exp(x) K1(x) by the trapezoidal rule (x in (2, 25])."""
    t = _NODES[None, :]
    weights = np.exp(-x[:, None] * (np.cosh(t) - 1.0))
    weights[:, 0] *= 0.5
    return _STEP * weights.sum(axis=1), _STEP * (weights * np.cosh(t)).sum(axis=1)


def _asymptotic_k(x: np.ndarray):
    """exp(x) K0(x), exp(x) K1(x) from the asymptotic expansion (x > 25)."""
    out = []
    for order in (0, 1):
        mu = 4.0 * order * order
        term, total = np.ones_like(x), np.ones_like(x)
        for k in range(1, 40):
            term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
            total += term
        out.append(np.sqrt(np.pi / (2.0 * x)) * total)
    return tuple(out)


def bessel_k_scaled(x) -> tuple:
    """(exp(x) K0(x), exp(x) K1(x)) of float64 x: inf for x <= 0, 0 at +inf."""
    x = np.asarray(x, np.float64)
    out = [np.full(x.shape, np.nan) for _ in range(2)]
    finite = np.isfinite(x) & (x > 0)
    with np.errstate(all="ignore"):
        ranges = (finite & (x <= 2.0), finite & (x > 2.0) & (x <= 25.0), finite & (x > 25.0))
        for mask, method in zip(ranges, (_series_k, _integral_k, _asymptotic_k)):
            if mask.any():
                for target, value in zip(out, method(x[mask])):
                    target[mask] = value
    for target in out:
        target[x <= 0] = np.inf
        target[x == np.inf] = 0.0
    return tuple(out)


def _unscaled_k(x):
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        decay = np.exp(-np.where(x > 0, x, 0.0))
        return tuple(np.where(x > 0, value * decay, value) for value in bessel_k_scaled(x))


# -- ops ------------------------------------------------------------------------------------------------------

def _grad_j0(e, g):
    return [g * -emit("BesselJ1", (e.inputs[0],))]


def _grad_j1(e, g):
    x, y = e.inputs[0], e.outputs[0]
    at_zero = compare("Equal", x, zeros_like(x))
    return [g * where(at_zero, ones_like(x) * 0.5, emit("BesselJ0", (x,)) - y / x)]


def _grad_y0(e, g):
    return [g * -emit("BesselY1", (e.inputs[0],))]


def _grad_y1(e, g):
    x, y = e.inputs[0], e.outputs[0]
    return [g * (emit("BesselY0", (x,)) - y / x)]


def _grad_k0(e, g):
    return [g * -emit("BesselK1", (e.inputs[0],))]


def _grad_k0e(e, g):
    return [g * (e.outputs[0] - emit("BesselK1e", (e.inputs[0],)))]


def _grad_k1(e, g):
    x, y = e.inputs[0], e.outputs[0]
    return [g * (-emit("BesselK0", (x,)) - y / x)]


def _grad_k1e(e, g):
    x, y = e.inputs[0], e.outputs[0]
    return [g * (y * (ones_like(x) - emit("Reciprocal", (x,))) - emit("BesselK0e", (x,)))]


_KERNELS = {d.float16, d.float32, d.float64} & FLOATS   # TF admits bfloat16 and has no kernel for it
_KERNELS_OF = {
    "BesselJ0": (lambda x: bessel_jy(x)[0], _grad_j0), "BesselJ1": (lambda x: bessel_jy(x)[1], _grad_j1),
    "BesselY0": (lambda x: bessel_jy(x)[2], _grad_y0), "BesselY1": (lambda x: bessel_jy(x)[3], _grad_y1),
    "BesselK0": (lambda x: _unscaled_k(x)[0], _grad_k0), "BesselK1": (lambda x: _unscaled_k(x)[1], _grad_k1),
    "BesselK0e": (lambda x: bessel_k_scaled(x)[0], _grad_k0e),
    "BesselK1e": (lambda x: bessel_k_scaled(x)[1], _grad_k1e),
}


def flushed(array) -> np.ndarray:
    """The input on the host in float64, its subnormals read as zero (TensorFlow's CPU kernels run with
    denormals-are-zero: bessel_k0(5e-324) is inf, expint(5e-324) is -inf)."""
    tiny = np.finfo(array.dtype).tiny if np.dtype(array.dtype).kind == "f" else 0.0
    x = _host(array)
    return np.where(np.abs(x) < tiny, x * 0.0, x)


def _kernel(op, fn):
    def kernel(xp, a):
        x = flushed(a)
        out = fn(x)
        if op == "BesselY1" and a.dtype == np.float32:      # TF's float32 kernel gives NaN at +-0 (float64: -inf)
            out = np.where(x == 0, np.nan, out)
        return _back(xp, out, a)
    return kernel


for _op, (_fn, _grad) in _KERNELS_OF.items():
    define(_op, _KERNELS, shape=rules.same, grad=_grad, allowed=FLOATS)(_kernel(_op, _fn))
