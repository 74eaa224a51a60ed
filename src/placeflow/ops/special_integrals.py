"""tf.math.special's integrals: Dawson's integral, the exponential integral Ei, the Fresnel integrals and Spence's
function (the dilogarithm at 1 - x). Computed on the host in float64 and returned in the input's dtype (TF has
float32 and float64 kernels; it admits float16 and bfloat16 and has no kernel for them), with TensorFlow's values
outside the domain and its gradients.

Dawson: F(x) = exp(-x^2) sum x^(2k+1) / (k! (2k+1)) (every term positive) up to 8, the asymptotic series beyond.
Ei: gamma + ln x + sum x^k / (k k!) up to 50, the asymptotic series exp(x)/x sum k!/x^k beyond; NaN below 0.
Fresnel: the power series up to 1.5, beyond it the continued fraction of erfc at (1 - i) sqrt(pi)/2 x (modified
Lentz), 1/2 beyond 36974 (as TF). Spence: Li2(1 - x) by the Bernoulli series in -ln(1 - z) after the reflections
z -> 1 - z and z -> 1/z that bring z into [-1, 1/2].
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..framework import dtypes as d
from . import shape_rules as rules
from .emit import compare, emit, ones_like, where
from .registry import FLOATS, define
from .special import _back
from .special_bessel import flushed

_EULER = 0.57721566490153286061
_PI2_6 = np.pi * np.pi / 6.0


# -- Dawson's integral -------------------------------------------------------------------------------------

def dawsn(x) -> np.ndarray:
    """Dawson's integral exp(-x^2) int_0^x exp(t^2) dt; 0 at +-inf."""
    x = np.asarray(x, np.float64)
    ax = np.abs(x)
    out = np.zeros_like(ax)
    small = ax <= 8.0
    if small.any():
        z = ax[small]
        z2 = z * z
        term = z.copy()
        total = z.copy()
        for k in range(1, 200):
            term = term * z2 / k
            total += term / (2 * k + 1)
        out[small] = total * np.exp(-z2)
    large = (ax > 8.0) & np.isfinite(ax)
    if large.any():
        z = ax[large]
        inverse = 1.0 / (2.0 * z * z)
        term, total = np.ones_like(z), np.ones_like(z)
        for k in range(1, 40):
            term = term * (2 * k - 1) * inverse
            total += term
        out[large] = total / (2.0 * z)
    out = np.where(x < 0, -out, out)
    return np.where(np.isnan(x), np.nan, out)


# -- the exponential integral ------------------------------------------------------------------------------

def expint(x, overflow: float = np.log(np.finfo(np.float64).max)) -> np.ndarray:
    """Ei(x) = -PV int_-x^inf exp(-t)/t dt; -inf at 0, NaN below 0 and at +inf (as TF), inf once exp(x)
    overflows `overflow` (TF computes exp(x) in the input's dtype)."""
    x = np.asarray(x, np.float64)
    out = np.full_like(x, np.nan)
    positive = (x > 0) & (x <= 50.0)
    if positive.any():
        z = x[positive]
        term, total = np.ones_like(z), np.zeros_like(z)
        for k in range(1, 160):
            term = term * z / k
            total += term / k
        out[positive] = _EULER + np.log(z) + total
    large = (x > 50.0) & np.isfinite(x)
    if large.any():
        z = x[large]
        term, total = np.ones_like(z), np.ones_like(z)
        for k in range(1, 40):
            term = term * k / z
            total += term
        with np.errstate(over="ignore"):
            out[large] = np.exp(z - np.log(z)) * total
    out[x == 0] = -np.inf
    out[(x > overflow) & np.isfinite(x)] = np.inf
    return out


# -- Fresnel integrals ---------------------------------------------------------------------------------------

def fresnel(x) -> tuple:
    """(C(x), S(x)) = int_0^x (cos, sin)(pi t^2 / 2) dt; +-1/2 at +-inf."""
    x = np.asarray(x, np.float64)
    ax = np.abs(x)
    c, s = np.full_like(ax, 0.5), np.full_like(ax, 0.5)
    small = ax <= 1.5
    if small.any():
        z = ax[small]
        w = (np.pi / 2.0) * z * z
        w2 = w * w
        term = z.copy()                                 # (-1)^k w^2k / (2k)! x, then the sine's w^(2k+1)/(2k+1)!
        c_sum, s_sum = z.copy(), z * w / 3.0
        term_s = z * w
        for k in range(1, 30):
            term = -term * w2 / ((2 * k - 1) * (2 * k))
            term_s = -term_s * w2 / ((2 * k) * (2 * k + 1))
            c_sum += term / (4 * k + 1)
            s_sum += term_s / (4 * k + 3)
        c[small], s[small] = c_sum, s_sum
    middle = (ax > 1.5) & (ax <= 36974.0)
    if middle.any():
        c[middle], s[middle] = _fresnel_fraction(ax[middle])
    c = np.where(x < 0, -c, c)
    s = np.where(x < 0, -s, s)
    c[x == 0], s[x == 0] = x[x == 0], x[x == 0]
    nan = np.isnan(x)
    c[nan], s[nan] = np.nan, np.nan
    return c, s


def _fresnel_fraction(z: np.ndarray) -> tuple:
    """C and S for z > 1.5 from the continued fraction of erfc((1 - i) sqrt(pi) z / 2), by modified Lentz."""
    tiny = 1e-300
    pix2 = np.pi * z * z
    b = 1.0 - 1j * pix2
    fraction = 1.0 / b
    lentz_d = fraction.copy()
    lentz_c = np.full(z.shape, 1.0 / tiny, np.complex128)
    active = np.ones(z.shape, bool)
    n = -1
    for _ in range(2, 400):
        n += 2
        a = -n * (n + 1.0)
        b = b + 4.0
        lentz_d = 1.0 / (a * lentz_d + b)
        lentz_c = b + a / lentz_c
        step = lentz_c * lentz_d
        fraction = np.where(active, fraction * step, fraction)
        active &= np.abs(step - 1.0) > 1e-16
        if not active.any():
            break
    fraction = fraction * (z - 1j * z)
    phase = np.cos(0.5 * pix2) + 1j * np.sin(0.5 * pix2)
    value = (0.5 + 0.5j) * (1.0 - phase * fraction)
    return value.real, value.imag


# -- Spence's function ---------------------------------------------------------------------------------------

def _bernoulli(count: int) -> list:
    """B_0 .. B_count (B_1 = -1/2) from sum_k C(m+1, k) B_k = 0."""
    numbers = [Fraction(1)]
    for m in range(1, count + 1):
        total, binomial = Fraction(0), 1
        for k in range(m):
            total += binomial * numbers[k]
            binomial = binomial * (m + 1 - k) // (k + 1)
        numbers.append(-total / (m + 1))
    return numbers


def _dilog_coefficients() -> np.ndarray:
    numbers, factorial, out = _bernoulli(40), 1, []
    for n, number in enumerate(numbers):
        factorial *= n + 1
        out.append(float(number / factorial))      # B_n / (n + 1)!
    return np.array(out)


_DILOG = _dilog_coefficients()


def _dilog_core(z: np.ndarray) -> np.ndarray:
    """Li2(z) for z in [-1, 1/2]: sum B_n u^(n+1) / (n+1)! with u = -ln(1 - z)."""
    u = -np.log1p(-z)
    total = np.zeros_like(u)
    for coefficient in _DILOG[::-1]:
        total = total * u + coefficient
    return total * u


def spence(x) -> np.ndarray:
    """Spence's function int_1^x ln t / (1 - t) dt = Li2(1 - x); pi^2/6 at 0, NaN below 0 and at +inf."""
    x = np.asarray(x, np.float64)
    out = np.full_like(x, np.nan)
    with np.errstate(all="ignore"):
        direct = (x >= 0.5) & (x <= 2.0)                       # z = 1 - x in [-1, 1/2], exact
        out[direct] = _dilog_core(1.0 - x[direct])
        near = (x > 0) & (x < 0.5)                     # z in (1/2, 1): Li2(z) = pi^2/6 - ln z ln(1-z) - Li2(1-z)
        v = x[near]
        out[near] = _PI2_6 - np.log1p(-v) * np.log(v) - _dilog_core(v)
        far = (x > 2.0) & np.isfinite(x)                       # z < -1: Li2(z) = -pi^2/6 - ln(-z)^2/2 - Li2(1/z)
        v = x[far]
        log = np.log(v - 1.0)
        out[far] = -_PI2_6 - 0.5 * log * log - _dilog_core(1.0 / (1.0 - v))
    out[x == 0] = _PI2_6
    return out


# -- ops ------------------------------------------------------------------------------------------------------

def _grad_dawsn(e, g):
    x, y = e.inputs[0], e.outputs[0]
    return [g * (ones_like(x) - 2.0 * x * y)]


def _grad_expint(e, g):
    x = e.inputs[0]
    return [g * emit("Exp", (x,)) / x]


def _grad_fresnel(trig):
    def gradient(e, g):
        x = e.inputs[0]
        return [g * emit(trig, ((np.pi / 2.0) * x * x,))]
    return gradient


def _grad_spence(e, g):
    x = e.inputs[0]
    at_one = compare("Equal", x, ones_like(x))
    return [g * where(at_one, -ones_like(x), emit("Log", (x,)) / (ones_like(x) - x))]


_KERNELS = {d.float32, d.float64} & FLOATS    # TF admits float16 and bfloat16 and has no kernel for them


def _expint_kernel(xp, a):
    overflow = float(np.log(np.finfo(np.float32).max)) if a.dtype == np.float32 else np.log(np.finfo(np.float64).max)
    return _back(xp, expint(flushed(a), overflow), a)


define("Dawsn", _KERNELS, shape=rules.same, grad=_grad_dawsn, allowed=FLOATS)(
    lambda xp, a: _back(xp, dawsn(flushed(a)), a))
define("Expint", _KERNELS, shape=rules.same, grad=_grad_expint, allowed=FLOATS)(_expint_kernel)
define("FresnelCos", _KERNELS, shape=rules.same, grad=_grad_fresnel("Cos"), allowed=FLOATS)(
    lambda xp, a: _back(xp, fresnel(flushed(a))[0], a))
define("FresnelSin", _KERNELS, shape=rules.same, grad=_grad_fresnel("Sin"), allowed=FLOATS)(
    lambda xp, a: _back(xp, fresnel(flushed(a))[1], a))
define("Spence", _KERNELS, shape=rules.same, grad=_grad_spence, allowed=FLOATS)(
    lambda xp, a: _back(xp, spence(flushed(a)), a))
