"""tf.math.special's Bessel functions and integrals (bessel_j0 .. spence) and tf.math's regularized incomplete
gamma and beta functions (igamma, igammac, betainc); their kernels are in ops/special_bessel.py,
ops/special_integrals.py and ops/special_incomplete.py."""

from __future__ import annotations

from ..eager.convert import operands
from ..eager.execute import execute
from . import math_ops


def bessel_j0(x, name=None):
    """The Bessel function of the first kind of order 0."""
    return _scoped("BesselJ0", x, name)


def bessel_j1(x, name=None):
    """The Bessel function of the first kind of order 1."""
    return _scoped("BesselJ1", x, name)


def bessel_y0(x, name=None):
    """The Bessel function of the second kind of order 0 (-inf for x <= 0, as TensorFlow)."""
    return _scoped("BesselY0", x, name)


def bessel_y1(x, name=None):
    """The Bessel function of the second kind of order 1 (-inf for x <= 0, as TensorFlow)."""
    return _scoped("BesselY1", x, name)


def bessel_k0(x, name=None):
    """The modified Bessel function of the second kind of order 0 (inf for x <= 0, as TensorFlow)."""
    return _scoped("BesselK0", x, name)


def bessel_k0e(x, name=None):
    """exp(x) * bessel_k0(x), without its underflow."""
    return _scoped("BesselK0e", x, name)


def bessel_k1(x, name=None):
    """The modified Bessel function of the second kind of order 1 (inf for x <= 0, as TensorFlow)."""
    return _scoped("BesselK1", x, name)


def bessel_k1e(x, name=None):
    """exp(x) * bessel_k1(x), without its underflow."""
    return _scoped("BesselK1e", x, name)


def dawsn(x, name=None):
    """Dawson's integral exp(-x^2) * the integral of exp(t^2) from 0 to x."""
    return _scoped("Dawsn", x, name)


def expint(x, name=None):
    """The exponential integral Ei(x) (NaN for x < 0, as TensorFlow)."""
    return _scoped("Expint", x, name)


def fresnel_cos(x, name=None):
    """The Fresnel cosine integral: the integral of cos(pi t^2 / 2) from 0 to x."""
    return _scoped("FresnelCos", x, name)


def fresnel_sin(x, name=None):
    """The Fresnel sine integral: the integral of sin(pi t^2 / 2) from 0 to x."""
    return _scoped("FresnelSin", x, name)


def spence(x, name=None):
    """Spence's function: the integral of log(t) / (1 - t) from 1 to x (NaN for x < 0)."""
    return _scoped("Spence", x, name)


def _scoped(op, x, name):
    """The op inside TensorFlow's name scope for it (`name`, default the function's name: node
    'bessel_j0/BesselJ0' in a graph)."""
    return scoped_unary(op, x, name, _SCOPES[op])


def scoped_unary(op, x, name, scope):
    """math_ops._unary(op, x) named as TF's special functions name their node: under the name scope `name` (default
    `scope`) while a graph is built; eagerly names do not show."""
    from ..framework import graph_mode
    graph = graph_mode.active()
    if graph is None:
        return math_ops._unary(op, x, name)
    _check_allowed(op, "x", x)
    with graph.name_scope(name or scope):
        return math_ops._unary(op, x, None)


_SCOPES = {"BesselJ0": "bessel_j0", "BesselJ1": "bessel_j1", "BesselY0": "bessel_y0", "BesselY1": "bessel_y1",
           "BesselK0": "bessel_k0", "BesselK0e": "bessel_k0e", "BesselK1": "bessel_k1", "BesselK1e": "bessel_k1e",
           "Dawsn": "dawsn", "Expint": "expint", "FresnelCos": "fresnel_cos", "FresnelSin": "fresnel_sin",
           "Spence": "spence"}


def igamma(a, x, name=None):
    """The regularized lower incomplete gamma function P(a, x)."""
    _same_types("Igamma", a, x)
    return math_ops._binary("Igamma", a, x, name)


def igammac(a, x, name=None):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    _same_types("Igammac", a, x)
    return math_ops._binary("Igammac", a, x, name)


def _check_allowed(op, parameter, value) -> None:
    """While a graph is built, TF's op builder refuses a tensor of a dtype the op does not take, naming the
    parameter (the first one its type attribute is read from)."""
    from ..framework import build_errors, tensor_types
    from ..ops.registry import op_def
    allowed = op_def(op).allowed
    if build_errors.building() and isinstance(value, tensor_types.Tensor) and allowed and \
            value.dtype not in allowed:
        raise build_errors.dtype_not_allowed(parameter, value.dtype, sorted(d.name for d in allowed), "")


def _same_types(op, a, x, parameter="x") -> None:
    """While a graph is built, TF's op builder refuses tensors a and x of two dtypes, naming its parameters."""
    from ..framework import build_errors
    _check_allowed(op, "a", a)
    from ..framework import tensor_types
    if build_errors.building() and isinstance(a, tensor_types.Tensor) and isinstance(x, tensor_types.Tensor) and \
            a.dtype != x.dtype:
        raise build_errors.input_type_mismatch(op, parameter, x.dtype, a.dtype, "", of_argument="a")


def betainc(a, b, x, name=None):
    """The regularized incomplete beta function I_x(a, b) (a, b and x of one shape, or scalars)."""
    _check_allowed("Betainc", "a", a)
    _same_types("Betainc", a, b, "b")
    _same_types("Betainc", a, x)
    inputs, dtype = operands("Betainc", (a, b, x))
    return execute("Betainc", tuple(inputs), dtype, name=name)
