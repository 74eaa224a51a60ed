"""placeflow.math: TensorFlow's math namespace."""

from .math_ops import (  # noqa: F401
    abs, add, add_n, argmax, argmin, ceil, confusion_matrix, count_nonzero, cumprod, cumsum,
    divide, equal, exp, expm1, floor, floordiv, floormod, greater, greater_equal, in_top_k, is_finite, is_inf,
    is_nan, less, less_equal, log, log1p, logical_and, logical_not, logical_or, maximum, minimum, multiply,
    negative, not_equal, pow, reciprocal, reduce_all, reduce_any, reduce_logsumexp, reduce_max, reduce_mean,
    reduce_min, reduce_prod, reduce_std, reduce_sum, reduce_variance, round, rsqrt, segment_sum, sigmoid, sign,
    sqrt, square, squared_difference, subtract, tanh, top_k, unsorted_segment_max, unsorted_segment_mean,
    unsorted_segment_sum, acos, acosh, asin, asinh, atan, atan2, atanh, cos, cosh, sin, sinh, tan,
)
from .math_ops import (  # noqa: F401
    angle, bincount, complex, conj, cumulative_logsumexp, erf, erfc, imag, log_sigmoid, logical_xor, polyval, real,
    reduce_euclidean_norm, rint, segment_max, segment_mean, segment_min, segment_prod, unsorted_segment_min,
    unsorted_segment_prod,
)
from .division_ops import (  # noqa: F401
    divide_no_nan, multiply_no_nan, reciprocal_no_nan, truediv, xdivy, xlog1py, xlogy,
)
from .special_math import (  # noqa: F401
    accumulate_n, digamma, erfcinv, is_non_decreasing, is_strictly_increasing, lgamma, ndtri, polygamma, scalar_mul,
    unsorted_segment_sqrt_n, zero_fraction, zeta,
)
from .nn import elu, l2_normalize, log_softmax, selu, softmax, softplus, softsign  # noqa: F401
from .math_ops import floormod as mod  # noqa: F401 - tf.math.mod is floormod
from .math_ops import erfinv, invert_permutation, nextafter  # noqa: F401
from .special_math import approx_max_k, approx_min_k, lbeta  # noqa: F401,E402
from .special_math import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e  # noqa: F401,E402
from . import math_special as special  # noqa: F401,E402
from .special_more import betainc, igamma, igammac  # noqa: F401,E402
from .sobol import sobol_sample  # noqa: F401,E402 - sobol.py
