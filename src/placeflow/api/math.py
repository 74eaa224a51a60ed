"""placeflow.math: TensorFlow's math namespace."""

from .math_ops import (  # noqa: F401
    abs, add, add_n, argmax, argmin, divide, equal, exp, floordiv, floormod, greater, greater_equal, less,
    less_equal, log, logical_and, logical_not, logical_or, maximum, minimum, multiply, negative, not_equal, pow,
    reciprocal, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum, rsqrt, sigmoid, sign, sqrt, square,
    squared_difference, subtract, tanh,
)
from .nn import log_softmax, softmax  # noqa: F401
