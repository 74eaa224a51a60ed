"""Elementwise math and comparisons with NumPy's dtype rules."""

from __future__ import annotations

import numpy as np

import placeflow as tf

from ._core import as_float, asarray, broadcast_together, is_inexact, promote, result_type_np

pi, e, inf, newaxis = np.pi, np.e, np.inf, None


def _named(fn, name, doc):
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


def _binary(name, op, doc):
    return _named(lambda x1, x2: op(*promote(x1, x2)), name, doc)


def _float_unary(name, op, doc):
    return _named(lambda x: op(as_float(x)), name, doc)


def _same_unary(name, op, doc):
    return _named(lambda x: op(asarray(x)), name, doc)


def _bool_as(logical, op):
    return lambda x, y: logical(x, y) if x.dtype == tf.bool else op(x, y)


add = _binary("add", _bool_as(lambda *a: tf.math.logical_or(*a), lambda *a: tf.math.add(*a)),
              "x1 + x2 elementwise (or for bools).")
subtract = _binary("subtract", lambda *a: tf.math.subtract(*a), "x1 - x2 elementwise.")
multiply = _binary("multiply", _bool_as(lambda *a: tf.math.logical_and(*a), lambda *a: tf.math.multiply(*a)),
                   "x1 * x2 elementwise (and for bools).")
maximum = _binary("maximum", _bool_as(lambda *a: tf.math.logical_or(*a), lambda *a: tf.math.maximum(*a)),
                  "The elementwise maximum.")
minimum = _binary("minimum", _bool_as(lambda *a: tf.math.logical_and(*a), lambda *a: tf.math.minimum(*a)),
                  "The elementwise minimum.")
floor_divide = _binary("floor_divide", lambda *a: tf.math.floordiv(*a), "x1 // x2 elementwise.")
mod = _binary("mod", lambda *a: tf.math.floormod(*a), "x1 % x2 elementwise (the sign of x2).")
remainder = _binary("remainder", lambda *a: tf.math.floormod(*a), "x1 % x2 elementwise (the sign of x2).")
equal = _binary("equal", lambda *a: tf.math.equal(*a), "x1 == x2 elementwise.")
not_equal = _binary("not_equal", lambda *a: tf.math.not_equal(*a), "x1 != x2 elementwise.")
less = _binary("less", lambda *a: tf.math.less(*a), "x1 < x2 elementwise.")
less_equal = _binary("less_equal", lambda *a: tf.math.less_equal(*a), "x1 <= x2 elementwise.")
greater = _binary("greater", lambda *a: tf.math.greater(*a), "x1 > x2 elementwise.")
greater_equal = _binary("greater_equal", lambda *a: tf.math.greater_equal(*a), "x1 >= x2 elementwise.")


def _float_pair(x1, x2):
    dtype = result_type_np(x1, x2)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.dtype(np.float64)
    return asarray(x1, dtype), asarray(x2, dtype)


def _float_binary(name, op, doc):
    return _named(lambda x1, x2: op(*_float_pair(x1, x2)), name, doc)


def true_divide(x1, x2):
    """x1 / x2 elementwise; integers divide in floating point (float32 for 8- and 16-bit, else float64)."""
    x1, x2 = promote(x1, x2)
    if x1.dtype == tf.bool:
        x1, x2 = tf.cast(x1, tf.float64), tf.cast(x2, tf.float64)
    return tf.math.truediv(x1, x2)


divide = _named(lambda x1, x2: true_divide(x1, x2), "divide", "x1 / x2 elementwise (as true_divide).")
arctan2 = _float_binary("arctan2", lambda *a: tf.math.atan2(*a), "The angle of (x2, x1), elementwise.")
nextafter = _float_binary("nextafter", lambda *a: tf.math.nextafter(*a), "The next float after x1 towards x2.")


def power(x1, x2):
    """x1 ** x2 elementwise."""
    return tf.math.pow(*promote(x1, x2))


def float_power(x1, x2):
    """x1 ** x2 in the promoted dtype (as TensorFlow's NumPy API computes it)."""
    return tf.math.pow(*promote(x1, x2))


def divmod(x1, x2):  # noqa: A001 - NumPy's name
    """(x1 // x2, x1 % x2)."""
    return floor_divide(x1, x2), mod(x1, x2)


def _strong(x):
    return asarray(x) if isinstance(x, (int, float, complex)) else x


def hypot(x1, x2):
    """sqrt(x1**2 + x2**2) elementwise (a Python float counts as float64 here, as in TensorFlow)."""
    x1, x2 = _float_pair(_strong(x1), _strong(x2))
    return tf.sqrt(tf.square(x1) + tf.square(x2))


def logaddexp(x1, x2):
    """log(exp(x1) + exp(x2)), computed stably."""
    x1, x2 = _float_pair(x1, x2)
    big = tf.maximum(x1, x2)
    return big + tf.math.log1p(tf.exp(-tf.abs(x1 - x2)))


def logaddexp2(x1, x2):
    """log2(2**x1 + 2**x2), computed stably."""
    x1, x2 = _float_pair(x1, x2)
    big = tf.maximum(x1, x2)
    return big + tf.math.log1p(tf.pow(tf.constant(2, x1.dtype), -tf.abs(x1 - x2))) / np.log(2.0)


def heaviside(x1, x2):
    """0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0."""
    x1, x2 = broadcast_together(*_float_pair(x1, x2))
    zero, one = tf.zeros_like(x1), tf.ones_like(x1)
    return tf.where(x1 < 0, zero, tf.where(x1 > 0, one, x2))


def _integers(name, x1, x2):
    x1, x2 = promote(x1, x2)
    if not x1.dtype.is_integer:
        raise ValueError("Arguments to gcd must be integers.")
    return x1, x2


def gcd(x1, x2):
    """The greatest common divisor of |x1| and |x2| elementwise."""
    x1, x2 = _integers("gcd", x1, x2)
    a, b = broadcast_together(tf.abs(x1), tf.abs(x2))

    def body(a, b):
        safe = tf.where(b == 0, tf.ones_like(b), b)
        return tf.where(b == 0, a, b), tf.where(b == 0, b, tf.math.floormod(a, safe))
    a, _ = tf.while_loop(lambda a, b: tf.reduce_any(b != 0), body, (a, b))
    return a


def lcm(x1, x2):
    """The least common multiple of |x1| and |x2| elementwise."""
    x1, x2 = _integers("lcm", x1, x2)
    divisor = gcd(x1, x2)
    safe = tf.where(divisor == 0, tf.ones_like(divisor), divisor)
    return tf.where(divisor == 0, tf.zeros_like(divisor), tf.abs(x1 // safe * x2))


def _logical(name, op):
    return _named(lambda x1, x2: op(tf.cast(asarray(x1), tf.bool), tf.cast(asarray(x2), tf.bool)), name,
                  f"Logical {name[8:]} of x1 and x2 (as bools).")


logical_and = _logical("logical_and", lambda *a: tf.math.logical_and(*a))
logical_or = _logical("logical_or", lambda *a: tf.math.logical_or(*a))
logical_xor = _logical("logical_xor", lambda *a: tf.math.logical_xor(*a))


def logical_not(x):
    """Logical not of x (as bools)."""
    return tf.math.logical_not(tf.cast(asarray(x), tf.bool))


def _bitwise(name, op, logical):
    def fn(x1, x2):
        x1, x2 = promote(x1, x2)
        if x1.dtype == tf.bool:
            return logical(x1, x2)
        if not x1.dtype.is_integer:
            raise TypeError(f"{name} needs integer or bool arguments, got {x1.dtype.name}")
        return op(x1, x2)
    return _named(fn, name, f"Bitwise {name[8:]} of integers (logical for bools).")


bitwise_and = _bitwise("bitwise_and", lambda *a: tf.bitwise.bitwise_and(*a), lambda *a: tf.math.logical_and(*a))
bitwise_or = _bitwise("bitwise_or", lambda *a: tf.bitwise.bitwise_or(*a), lambda *a: tf.math.logical_or(*a))
bitwise_xor = _bitwise("bitwise_xor", lambda *a: tf.bitwise.bitwise_xor(*a), lambda *a: tf.math.logical_xor(*a))


def bitwise_not(x):
    """Bitwise inversion of integers (logical not for bools)."""
    x = asarray(x)
    return tf.math.logical_not(x) if x.dtype == tf.bool else tf.bitwise.invert(x)


sqrt = _float_unary("sqrt", lambda *a: tf.sqrt(*a), "The square root elementwise.")
exp = _float_unary("exp", lambda *a: tf.exp(*a), "e ** x elementwise.")
expm1 = _float_unary("expm1", lambda *a: tf.math.expm1(*a), "exp(x) - 1 elementwise.")
log = _float_unary("log", lambda *a: tf.math.log(*a), "The natural logarithm elementwise.")
log1p = _float_unary("log1p", lambda *a: tf.math.log1p(*a), "log(1 + x) elementwise.")
sin = _float_unary("sin", lambda *a: tf.sin(*a), "Sine elementwise.")
cos = _float_unary("cos", lambda *a: tf.cos(*a), "Cosine elementwise.")
tan = _float_unary("tan", lambda *a: tf.tan(*a), "Tangent elementwise.")
arcsin = _float_unary("arcsin", lambda *a: tf.asin(*a), "Inverse sine elementwise.")
arccos = _float_unary("arccos", lambda *a: tf.acos(*a), "Inverse cosine elementwise.")
arctan = _float_unary("arctan", lambda *a: tf.atan(*a), "Inverse tangent elementwise.")
sinh = _float_unary("sinh", lambda *a: tf.sinh(*a), "Hyperbolic sine elementwise.")
cosh = _float_unary("cosh", lambda *a: tf.cosh(*a), "Hyperbolic cosine elementwise.")
tanh = _float_unary("tanh", lambda *a: tf.tanh(*a), "Hyperbolic tangent elementwise.")
arcsinh = _float_unary("arcsinh", lambda *a: tf.asinh(*a), "Inverse hyperbolic sine elementwise.")
arccosh = _float_unary("arccosh", lambda *a: tf.acosh(*a), "Inverse hyperbolic cosine elementwise.")
arctanh = _float_unary("arctanh", lambda *a: tf.atanh(*a), "Inverse hyperbolic tangent elementwise.")
ceil = _float_unary("ceil", lambda *a: tf.math.ceil(*a), "The ceiling elementwise.")
floor = _float_unary("floor", lambda *a: tf.math.floor(*a), "The floor elementwise.")
reciprocal = _float_unary("reciprocal", lambda *a: tf.math.reciprocal(*a), "1 / x elementwise.")
exp2 = _float_unary("exp2", lambda x: tf.pow(tf.constant(2, x.dtype), x), "2 ** x elementwise.")
log2 = _float_unary("log2", lambda x: tf.math.log(x) / tf.math.log(tf.constant(2, x.dtype)), "Base-2 log.")
log10 = _float_unary("log10", lambda x: tf.math.log(x) / tf.math.log(tf.constant(10, x.dtype)), "Base-10 log.")
deg2rad = _float_unary("deg2rad", lambda x: x * tf.constant(np.pi / 180, x.dtype), "Degrees to radians.")
rad2deg = _float_unary("rad2deg", lambda x: x * tf.constant(180 / np.pi, x.dtype), "Radians to degrees.")
fabs = _same_unary("fabs", lambda *a: tf.abs(*a), "|x| elementwise, as floats.")
square = _same_unary("square", lambda *a: tf.square(*a), "x * x elementwise.")
negative = _same_unary("negative", lambda *a: tf.negative(*a), "-x elementwise.")
positive = _same_unary("positive", lambda *a: tf.identity(*a), "+x elementwise.")
conj = _same_unary("conj", lambda x: tf.math.conj(x) if x.dtype.is_complex else x, "The complex conjugate.")
conjugate = _same_unary("conjugate", conj, "The complex conjugate.")
isfinite = _same_unary("isfinite", lambda x: tf.math.is_finite(x) if is_inexact(x.dtype)
                       else tf.ones_like(x, tf.bool), "Whether x is finite, elementwise.")
isnan = _same_unary("isnan", lambda x: tf.math.is_nan(x) if is_inexact(x.dtype)
                    else tf.zeros_like(x, tf.bool), "Whether x is NaN, elementwise.")
isinf = _same_unary("isinf", lambda x: tf.math.is_inf(x) if is_inexact(x.dtype)
                    else tf.zeros_like(x, tf.bool), "Whether x is infinite, elementwise.")
isposinf = _same_unary("isposinf", lambda x: tf.equal(x, tf.constant(np.inf, x.dtype)) if is_inexact(x.dtype)
                       else tf.zeros_like(x, tf.bool), "Whether x is +inf, elementwise.")
isneginf = _same_unary("isneginf", lambda x: tf.equal(x, tf.constant(-np.inf, x.dtype)) if is_inexact(x.dtype)
                       else tf.zeros_like(x, tf.bool), "Whether x is -inf, elementwise.")


def abs(x):  # noqa: A001 - NumPy's name
    """|x| elementwise (the magnitude for complex x)."""
    return tf.abs(asarray(x))


absolute = _named(lambda x: abs(x), "absolute", "|x| elementwise (the magnitude for complex x).")


def sign(x, out=None, where=None, **kwargs):
    """-1, 0 or 1 elementwise (x / |x| for complex x)."""
    if out is not None or where is not None or kwargs:
        raise ValueError(f"tf.experimental.numpy.sign takes no out, where or other keyword arguments, got "
                         f"{dict(kwargs, **{k: v for k, v in (('out', out), ('where', where)) if v is not None})!r}")
    x = asarray(x)
    return tf.cast(tf.sign(tf.cast(x, tf.int64)), x.dtype) if x.dtype == tf.bool else tf.sign(x)


def signbit(x):
    """Whether the sign bit is set (x < 0, and -0.0), elementwise."""
    x = asarray(x)
    if x.dtype == tf.bool or x.dtype.is_unsigned:
        return tf.zeros_like(x, tf.bool)
    return x < 0  # -0.0 counts as positive, as in TensorFlow


def cbrt(x):
    """The cube root elementwise (negative for negative x)."""
    x = as_float(x)
    return tf.sign(x) * tf.pow(tf.abs(x), tf.constant(1 / 3, x.dtype))


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0."""
    x = as_float(x)
    safe = tf.where(tf.equal(x, 0), tf.ones_like(x), x) * np.pi
    return tf.where(tf.equal(x, 0), tf.ones_like(x), tf.sin(safe) / safe)


def fix(x):
    """Round towards zero, as floats."""
    x = as_float(x)
    return tf.where(x < 0, tf.math.ceil(x), tf.math.floor(x))


def around(a, decimals=0):
    """Round to `decimals` decimals, halves to even."""
    a = asarray(a)
    if not is_inexact(a.dtype):
        if decimals >= 0:
            return a
        factor = tf.constant(10 ** -decimals, tf.float64)
        return tf.cast(tf.round(tf.cast(a, tf.float64) / factor) * factor, a.dtype)
    factor = tf.constant(10.0 ** decimals, a.dtype)
    return tf.round(a * factor) / factor


round = _named(lambda a, decimals=0: around(a, decimals), "round", "Round to `decimals` decimals, halves to even.")  # noqa: A001


def real(val):
    """The real part (the value itself for real dtypes)."""
    val = asarray(val)
    return tf.math.real(val) if val.dtype.is_complex else val


def imag(val):
    """The imaginary part (zeros for real dtypes)."""
    val = asarray(val)
    return tf.math.imag(val) if val.dtype.is_complex else tf.zeros_like(val)


def angle(z, deg=False):
    """The argument of complex `z` in radians (degrees with deg=True)."""
    z = asarray(z)
    if z.dtype.is_complex:
        out = tf.math.angle(z)
    else:  # TensorFlow answers float32 for real input
        z = tf.cast(z, tf.float32)
        out = tf.math.atan2(tf.zeros_like(z), z)
    return out * tf.constant(180 / np.pi, out.dtype) if deg else out


def iscomplex(x):
    """Whether each element has a non-zero imaginary part."""
    return tf.not_equal(imag(x), 0)


def isreal(x):
    """Whether each element has a zero imaginary part."""
    return tf.equal(imag(x), 0)


def clip(a, a_min, a_max):
    """`a` limited to [a_min, a_max]."""
    if a_min is None and a_max is None:
        raise ValueError("Not more than one of `a_min` and `a_max` may be `None`.")
    if a_min is None:
        return minimum(a, a_max)
    if a_max is None:
        return maximum(a, a_min)
    return minimum(maximum(a, a_min), a_max)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether a and b are equal within atol + rtol * |b|, elementwise."""
    a, b = promote(a, b)
    if not is_inexact(a.dtype):
        a, b = tf.cast(a, tf.float64), tf.cast(b, tf.float64)
    close = tf.abs(a - b) <= tf.cast(atol, a.dtype) + tf.cast(rtol, a.dtype) * tf.abs(b)
    if equal_nan:
        close = tf.math.logical_or(close, tf.math.logical_and(tf.math.is_nan(a), tf.math.is_nan(b)))
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether all of a and b are equal within tolerance (a bool tensor)."""
    return tf.reduce_all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2):
    """Whether a1 and a2 have one shape and equal elements (a bool tensor)."""
    a1, a2 = promote(a1, a2)
    if a1.shape.as_list() != a2.shape.as_list():
        return tf.constant(False)
    return tf.reduce_all(tf.equal(a1, a2))


