"""The regularized incomplete gamma functions (Igamma P(a, x), Igammac Q(a, x), and IgammaGradA, dP/da) and the
regularized incomplete beta function (Betainc), computed on the host in float64 and returned in the input's dtype,
with TensorFlow's values outside the domain and its gradients.

P and Q: P by its power series x^a e^-x / Gamma(a+1) sum x^n / ((a+1)..(a+n)) where x <= 1 or x <= a, else Q by
Legendre's continued fraction (forward recurrence, rescaled), the other as the complement; the prefactor from
Stirling's series for a >= 10 (no cancellation between a ln x and lgamma(a)). dP/da differentiates the same series
or fraction term by term. Betainc: the continued fraction of I_x(a, b) (even and odd steps, modified Lentz),
reflected to 1 - I_1-x(b, a) above x = (a+1)/(a+b+2) unless that leaves less than 0.1 (digits lost).
"""

from __future__ import annotations

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from . import shape_rules as rules
from .emit import binary, compare, emit, negative, reduced_like, where, zeros_like
from .registry import FLOATS, define, no_gradient_registered, no_gradient_yet
from .special import _back, lgamma
from .special_bessel import flushed

_MAX_TERMS = 100000
_STIRLING = (1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188, -691.0 / 360360, 1.0 / 156)


def _digamma(y: np.ndarray) -> np.ndarray:
    """psi(y) for y > 0 to about 1e-16 (ops/special.py's digamma stops its asymptotic series too early for
    this): the recurrence up to 12, then the asymptotic series through B_14."""
    y = np.array(y, np.float64)
    shift = np.zeros_like(y)
    for _ in range(12):
        small = y < 12.0
        shift -= np.where(small, 1.0 / y, 0.0)
        y = np.where(small, y + 1.0, y)
    inverse_square = 1.0 / (y * y)
    tail = np.zeros_like(y)
    for coefficient in _DIGAMMA_TAIL[::-1]:
        tail = tail * inverse_square + coefficient
    return np.log(y) - 0.5 / y - tail * inverse_square + shift


_DIGAMMA_TAIL = (1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240, 1.0 / 132, -691.0 / 32760, 1.0 / 12)   # B_2k / 2k


def _log_prefactor(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """ln(x^a e^-x / Gamma(a + 1)), without cancellation for large a."""
    out = a * np.log(x) - x - lgamma(a + 1.0)
    large = a >= 10.0
    if large.any():
        al, xl = a[large], x[large]
        eta = (xl - al) / al
        inverse, square = 1.0 / al, 1.0 / (al * al)
        correction = np.zeros_like(al)
        for coefficient in _STIRLING[::-1]:
            correction = correction * square + coefficient
        out[large] = al * (np.log1p(eta) - eta) - 0.5 * np.log(2.0 * np.pi * al) - correction * inverse
    return out


def _series(a: np.ndarray, x: np.ndarray):
    """(P, dP/da) by the power series."""
    term, total = np.ones_like(a), np.ones_like(a)
    dterm, dtotal = np.zeros_like(a), np.zeros_like(a)
    index = np.arange(a.size)
    n = 0
    while index.size and n < _MAX_TERMS:
        n += 1
        denominator = a[index] + n
        ratio = x[index] / denominator
        dterm[index] = ratio * (dterm[index] - term[index] / denominator)
        term[index] = term[index] * ratio
        total[index] += term[index]
        dtotal[index] += dterm[index]
        keep = (np.abs(term[index]) > 1e-17 * np.abs(total[index])) | \
               (np.abs(dterm[index]) > 1e-17 * np.abs(dtotal[index]))
        index = index[keep]
    log_prefactor = _log_prefactor(a, x)
    prefactor = np.exp(log_prefactor)
    value = prefactor * total
    derivative = prefactor * ((np.log(x) - _digamma(a + 1.0)) * total + dtotal)
    return value, derivative


def _fraction(a: np.ndarray, x: np.ndarray):
    """(Q, dQ/da) by Legendre's continued fraction 1/(x+1-a - 1(1-a)/(x+3-a - 2(2-a)/(x+5-a - ...)))."""
    shape = a.shape
    prev_a, prev_b = np.ones(shape), np.zeros(shape)              # A_{-1}, B_{-1}
    cur_a, cur_b = np.zeros(shape), np.ones(shape)                # A_0, B_0
    dprev_a, dprev_b = np.zeros(shape), np.zeros(shape)
    dcur_a, dcur_b = np.zeros(shape), np.zeros(shape)
    value, dvalue = np.zeros(shape), np.zeros(shape)
    index = np.arange(a.size)
    k = 0
    while index.size and k < _MAX_TERMS:
        k += 1
        ai, xi = a[index], x[index]
        if k == 1:
            alpha, dalpha = np.ones_like(ai), np.zeros_like(ai)
        else:
            alpha, dalpha = -(k - 1) * (k - 1 - ai), np.full_like(ai, k - 1.0)
        beta = xi + 2 * k - 1 - ai
        new_a = beta * cur_a[index] + alpha * prev_a[index]
        new_b = beta * cur_b[index] + alpha * prev_b[index]
        dnew_a = -cur_a[index] + beta * dcur_a[index] + dalpha * prev_a[index] + alpha * dprev_a[index]
        dnew_b = -cur_b[index] + beta * dcur_b[index] + dalpha * prev_b[index] + alpha * dprev_b[index]
        scale = 1.0 / new_b
        prev_a[index], prev_b[index] = cur_a[index] * scale, cur_b[index] * scale
        dprev_a[index], dprev_b[index] = dcur_a[index] * scale, dcur_b[index] * scale
        cur_a[index], cur_b[index] = new_a * scale, np.ones_like(new_b)
        dcur_a[index], dcur_b[index] = dnew_a * scale, dnew_b * scale
        new_value = cur_a[index]
        new_dvalue = dcur_a[index] - cur_a[index] * dcur_b[index]
        keep = (np.abs(new_value - value[index]) > 1e-16 * np.abs(new_value)) | \
               (np.abs(new_dvalue - dvalue[index]) > 1e-16 * np.abs(new_dvalue))
        value[index], dvalue[index] = new_value, new_dvalue
        index = index[keep]
    prefactor = np.exp(_log_prefactor(a, x) + np.log(a))        # x^a e^-x / Gamma(a)
    q = prefactor * value
    dq = q * (np.log(x) - _digamma(a)) + prefactor * dvalue
    return q, dq


def _igamma_all(a, x):
    """(P, Q, dP/da) with TensorFlow's edge values."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    p, q, dp = (np.full(a.shape, np.nan) for _ in range(3))
    ok = (a > 0) & (x > 0) & np.isfinite(a) & np.isfinite(x)
    with np.errstate(all="ignore"):
        use_series = ok & ((x <= 1.0) | (x <= a))
        if use_series.any():
            value, derivative = _series(a[use_series], x[use_series])
            p[use_series], q[use_series], dp[use_series] = value, 1.0 - value, derivative
        use_fraction = ok & ~use_series
        if use_fraction.any():
            value, derivative = _fraction(a[use_fraction], x[use_fraction])
            p[use_fraction], q[use_fraction], dp[use_fraction] = 1.0 - value, value, -derivative
    positive = a > 0
    infinite_x = positive & (x == np.inf)
    p[infinite_x], q[infinite_x], dp[infinite_x] = 1.0, 0.0, -0.0
    infinite_a = (a == np.inf) & (x >= 0) & ~np.isnan(x)
    p[infinite_a], q[infinite_a], dp[infinite_a] = 0.0, 1.0, 0.0
    q[infinite_a & (x == np.inf)] = 0.0
    zero_x = x == 0
    p[zero_x], dp[zero_x] = 0.0, 0.0
    q[zero_x & positive] = 1.0
    return p, q, dp


def igamma(a, x) -> np.ndarray:
    """P(a, x), the regularized lower incomplete gamma function."""
    return _igamma_all(a, x)[0]


def igammac(a, x) -> np.ndarray:
    """Q(a, x) = 1 - P(a, x), the regularized upper incomplete gamma function."""
    return _igamma_all(a, x)[1]


def igamma_grad_a(a, x) -> np.ndarray:
    """dP(a, x)/da."""
    return _igamma_all(a, x)[2]


# -- the incomplete beta function ---------------------------------------------------------------------------

def _beta_fraction(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The continued fraction of I_x(a, b) (x < (a+1)/(a+b+2)), by modified Lentz."""
    tiny = 1e-300
    total, plus, minus = a + b, a + 1.0, a - 1.0
    lentz_c = np.ones_like(a)
    lentz_d = 1.0 - total * x / plus
    lentz_d = 1.0 / np.where(np.abs(lentz_d) < tiny, tiny, lentz_d)
    h = lentz_d.copy()
    index = np.arange(a.size)
    for m in range(1, _MAX_TERMS):
        ai, bi, xi = a[index], b[index], x[index]
        m2 = 2 * m
        for coefficient in (m * (bi - m) * xi / ((minus[index] + m2) * (ai + m2)),
                            -(ai + m) * (total[index] + m) * xi / ((ai + m2) * (plus[index] + m2))):
            dd = 1.0 + coefficient * lentz_d[index]
            dd = 1.0 / np.where(np.abs(dd) < tiny, tiny, dd)
            cc = 1.0 + coefficient / lentz_c[index]
            cc = np.where(np.abs(cc) < tiny, tiny, cc)
            lentz_d[index], lentz_c[index] = dd, cc
            step = dd * cc
            h[index] = h[index] * step
        index = index[np.abs(step - 1.0) > 1e-16]
        if not index.size:
            break
    return h


def _log_beta(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return lgamma(a) + lgamma(b) - lgamma(a + b)


def _beta_direct(a, b, x):
    log_front = a * np.log(x) + b * np.log1p(-x) - _log_beta(a, b) - np.log(a)
    return np.exp(log_front) * _beta_fraction(a, b, x)


def betainc(a, b, x) -> np.ndarray:
    """I_x(a, b), the regularized incomplete beta function."""
    a, b, x = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, x)))
    out = np.full(a.shape, np.nan)
    ok = (a > 0) & (b > 0) & np.isfinite(a) & np.isfinite(b) & (x > 0) & (x < 1)
    with np.errstate(all="ignore"):
        if ok.any():
            av, bv, xv = a[ok], b[ok], x[ok]
            swap = xv > (av + 1.0) / (av + bv + 2.0)
            pa, pb, px = np.where(swap, bv, av), np.where(swap, av, bv), np.where(swap, 1.0 - xv, xv)
            value = _beta_direct(pa, pb, px)
            value = np.where(swap, 1.0 - value, value)
            cancelled = swap & (value < 0.1)        # 1 - I_1-x(b, a) lost digits: the fraction converges here too
            if cancelled.any():
                value[cancelled] = _beta_direct(av[cancelled], bv[cancelled], xv[cancelled])
            out[ok] = value
    positive = ~(a <= 0) & ~(b <= 0)                       # NaN a or b too: TF's 0 at x = 0 and 1 at x = 1
    out[positive & (x == 0)] = 0.0
    out[positive & (x == 1)] = 1.0
    return out


# -- ops ------------------------------------------------------------------------------------------------------

def _partial_x(a, x):
    """d P(a, x) / dx = exp(-x + (a - 1) ln x - lgamma(a)), as TF writes it (an op: lgamma(inf) is inf here)."""
    return emit("_IgammaPartialX", (a, x))


def igamma_partial_x(a, x) -> np.ndarray:
    """exp(-x + (a - 1) ln x - lgamma(a)) with TF's NaN where its terms are inf - inf or 0 * inf."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    with np.errstate(all="ignore"):
        log_gamma = np.where(a == np.inf, np.inf, lgamma(a))
        return np.exp(-x + (a - 1.0) * np.log(x) - log_gamma)


def _grad_igamma(e, g):
    a, x = e.inputs
    return binary(e, g * emit("IgammaGradA", (a, x)), g * _partial_x(a, x))


def _grad_igammac(e, g):
    a, x = e.inputs
    return binary(e, g * negative(emit("IgammaGradA", (a, x))), g * negative(_partial_x(a, x)))


def _xlog(c, y, log_op):
    """c * log_op(y), and 0 wherever c is 0 (TF's xlogy / xlog1py); c and y of one shape."""
    zero = compare("Equal", c, zeros_like(c))
    return where(zero, zeros_like(c), c * emit(log_op, (where(zero, zeros_like(y), y),)))


def _grad_betainc(e, g):
    a, b, x = e.inputs
    nothing = a * 0.0 + b * 0.0 + x * 0.0                    # the broadcast shape
    a, b, x = a + nothing, b + nothing, x + nothing
    log_beta = emit("Lgamma", (a,)) + emit("Lgamma", (b,)) - emit("Lgamma", (a + b,))
    partial = emit("Exp", (_xlog(b - 1.0, negative(x), "Log1p") + _xlog(a - 1.0, x, "Log") - log_beta,))
    return [None, None, reduced_like(g * partial, e.inputs[2])]


def _inconsistent(first, second) -> bool:
    if not first or not second:
        return False
    return len(first) != len(second) or any(p is not None and q is not None and p != q
                                            for p, q in zip(first, second))


def _betainc_shape(shapes, attrs=None):
    """TF's Betainc: a, b and x of one shape, or scalars."""
    for i, j in ((0, 1), (0, 2), (1, 2)):   # TF's shape function merges the non-scalar shapes (its texts)
        first, second = shapes[i], shapes[j]
        if first is None or second is None or not _inconsistent(first, second):
            continue
        if len(first) != len(second):
            raise rules.Incompatible(f"Shapes must be equal rank, but are {len(first)} and {len(second)}")
        axis = next(k for k, (p, q) in enumerate(zip(first, second)) if p is not None and q is not None and p != q)
        raise rules.Incompatible(f"Dimension {axis} in both shapes must be equal, but are {first[axis]} and "
                                 f"{second[axis]}. Shapes are {rules.shape_text(first)} and "
                                 f"{rules.shape_text(second)}.")
    return rules.broadcast(shapes)


def _betainc_kernel(xp, a, b, x):
    names, arrays = ("a", "b", "x"), (a, b, x)
    for i, j in ((0, 1), (0, 2), (1, 2)):
        first, second = tuple(arrays[i].shape), tuple(arrays[j].shape)
        if _inconsistent(first, second):
            raise InvalidArgumentError(None, None, f"Shapes of {names[i]} and {names[j]} are inconsistent: "
                                       f"{rules.shape_text(first)} vs. {rules.shape_text(second)}")
    return _back(xp, betainc(flushed(a), flushed(b), flushed(x)), a)


_KERNELS = {d.float32, d.float64} & FLOATS    # TF admits float16 and bfloat16 for Igamma(c) with no kernel for them

define("Igamma", _KERNELS, shape=rules.broadcast, grad=_grad_igamma, allowed=FLOATS)(
    lambda xp, a, x: _back(xp, igamma(flushed(a), flushed(x)), a))
define("Igammac", _KERNELS, shape=rules.broadcast, grad=_grad_igammac, allowed=FLOATS)(
    lambda xp, a, x: _back(xp, igammac(flushed(a), flushed(x)), a))
define("IgammaGradA", _KERNELS, shape=rules.broadcast, grad=no_gradient_registered("IgammaGradA"))(
    lambda xp, a, x: _back(xp, igamma_grad_a(flushed(a), flushed(x)), a))
define("_IgammaPartialX", _KERNELS, shape=rules.broadcast, grad=no_gradient_yet("the second derivative of Igamma"))(
    lambda xp, a, x: _back(xp, igamma_partial_x(flushed(a), flushed(x)), a))
define("Betainc", _KERNELS, shape=_betainc_shape, grad=_grad_betainc)(_betainc_kernel)
