"""placeflow.experimental.numpy: TensorFlow's NumPy API (tnp) on placeflow tensors, with NumPy's dtype rules.

Python floats become float64 and Python ints int64 (float32 after
`experimental_enable_numpy_behavior(prefer_float32=True)`); binary functions promote as NumPy does, Python
scalars taking the dtype of a tensor of their kind. Every function works eagerly and inside placeflow.function,
and gradients flow through the placeflow ops it composes."""

from ...eager.tensor import EagerTensor as ndarray  # noqa: F401  (tnp.ndarray is tf.Tensor, as in TensorFlow 2)
from .dtypes import (  # noqa: F401
    bool_, complex64, complex128, complex_, finfo, float16, float32, float64, float_, iinfo, inexact, int8, int16,
    int32, int64, int_, iscomplexobj, isrealobj, isscalar, issubdtype, object_, promote_types, result_type,
    string_, uint8, uint16, uint32, uint64, unicode_,
)
from .creation import (  # noqa: F401
    arange, array, asanyarray, asarray, ascontiguousarray, copy, diag_indices, empty, empty_like, eye, full,
    full_like, geomspace, identity, ix_, linspace, logspace, meshgrid, ones, ones_like, tri, vander, zeros,
    zeros_like,
)
from .math import (  # noqa: F401
    abs, absolute, add, allclose, angle, arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh, around,
    array_equal, bitwise_and, bitwise_not, bitwise_or, bitwise_xor, cbrt, ceil, clip, conj, conjugate, cos, cosh,
    deg2rad, divide, divmod, e, equal, exp, exp2, expm1, fabs, fix, float_power, floor, floor_divide, gcd, greater,
    greater_equal, heaviside, hypot, imag, inf, isclose, iscomplex, isfinite, isinf, isnan, isneginf, isposinf,
    isreal, lcm, less, less_equal, log, log1p, log2, log10, logaddexp, logaddexp2, logical_and, logical_not,
    logical_or, logical_xor, maximum, minimum, mod, multiply, negative, newaxis, nextafter, not_equal, pi,
    positive, power, rad2deg, real, reciprocal, remainder, round, sign, signbit, sin, sinc, sinh, sqrt, square,
    subtract, tan, tanh, true_divide,
)
from .reductions import (  # noqa: F401
    all, amax, amin, any, argmax, argmin, average, count_nonzero, cumprod, cumsum, max, mean, min, nanmean,
    nanprod, nansum, prod, ptp, std, sum, var,
)
from .shapes import (  # noqa: F401
    append, atleast_1d, atleast_2d, atleast_3d, broadcast_arrays, broadcast_to, concatenate, dsplit,
    dstack, expand_dims, flatten, flip, fliplr, flipud, hsplit, hstack, moveaxis, ndim, ravel, repeat, reshape,
    roll, rot90, shape, size, split, squeeze, stack, swapaxes, tile, transpose, vsplit, vstack,
)
from .indexing import (  # noqa: F401
    argsort, compress, diff, nonzero, pad, select, sort, take, take_along_axis, where,
)
from .linalg import (  # noqa: F401
    cross, diag, diagflat, diagonal, dot, einsum, inner, kron, matmul, outer, polyval, tensordot, trace, tril,
    triu, vdot,
)
from .behavior import experimental_enable_numpy_behavior  # noqa: F401
from . import random  # noqa: F401

del behavior, creation, dtypes, indexing, linalg, reductions, shapes  # noqa: F821 - internal modules
# `math` is both a submodule and shadowed by nothing public in TensorFlow's tnp: drop the module attribute too
globals().pop("math", None) if not callable(globals().get("math")) else None
globals().pop("_core", None)
