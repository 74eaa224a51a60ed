"""tf.math's special functions (lgamma, digamma, zeta, polygamma, ndtri, erfcinv) and its small helpers built
from other ops (scalar_mul, is_non_decreasing, is_strictly_increasing, zero_fraction, accumulate_n,
unsorted_segment_sqrt_n)."""

from __future__ import annotations

import collections

from ..eager.convert import convert_to_tensor
from ..framework import dtypes
from ..framework.tensor_shape import TensorShape
from . import array_ops, indexing, math_ops


def lgamma(x, name=None):
    """log|Gamma(x)| elementwise; inf at 0 and the negative integers."""
    return math_ops._unary("Lgamma", x, name)


def digamma(x, name=None):
    """The derivative of lgamma (psi); NaN at 0 and the negative integers."""
    return math_ops._unary("Digamma", x, name)


def zeta(x, q, name=None):
    """The Hurwitz zeta function: the sum over k >= 0 of (k + q)^-x."""
    return math_ops._binary("Zeta", x, q, name)


def polygamma(a, x, name=None):
    """The a-th derivative of digamma at x (a a non-negative integer, given as a float tensor)."""
    return math_ops._binary("Polygamma", a, x, name)


def ndtri(x, name=None):
    """The standard normal distribution's quantile function (the inverse of its CDF)."""
    return math_ops._unary("Ndtri", x, name)


def erfcinv(x, name=None):
    """The inverse of erfc on (0, 2)."""
    return math_ops._unary("Erfcinv", x, name)


def scalar_mul(scalar, x, name=None):
    """scalar * x for a 0-D scalar (ValueError for any other shape, as TensorFlow); an IndexedSlices x stays
    IndexedSlices (its values scaled, never densified)."""
    from ..ops.indexed_slices import IndexedSlices
    if isinstance(x, IndexedSlices):
        scalar = _checked_scalar(scalar, x.values.dtype)
        scaled = IndexedSlices(math_ops.multiply(scalar, x.values, name=name), x.indices, x.dense_shape)
        scaled._like = x._like
        return scaled
    x = convert_to_tensor(x)
    return math_ops.multiply(_checked_scalar(scalar, x.dtype), x, name=name)


def _checked_scalar(scalar, dtype):
    """`scalar` as a tensor of `dtype`; ValueError (TF's text) unless it is 0-D."""
    scalar = convert_to_tensor(scalar, dtype=dtype)
    if scalar.shape is not None and scalar.shape.rank not in (None, 0):
        raise ValueError(f"The input scalar must be a 0-D value. Received shape {TensorShape(scalar.shape)}.")
    return scalar


def _monotone(x, compare, what: str):
    x = convert_to_tensor(x)
    if not (x.dtype.is_integer or x.dtype.is_floating):
        raise TypeError(f"Expected x to be numeric, instead found: {x.dtype!r}")
    flat = array_ops.reshape(x, [-1])
    return math_ops.reduce_all(compare(flat[:-1], flat[1:]), name=what)


def is_non_decreasing(x, name=None):
    """Whether x, read in row-major order, never decreases (True with fewer than two elements)."""
    return _monotone(x, math_ops.less_equal, name or "is_non_decreasing")


def is_strictly_increasing(x, name=None):
    """Whether x, read in row-major order, always increases (True with fewer than two elements)."""
    return _monotone(x, math_ops.less, name or "is_strictly_increasing")


def zero_fraction(value, name=None):
    """The fraction of the elements of `value` that are zero, as float32."""
    value = convert_to_tensor(value)
    size = indexing.size(value, out_type=dtypes.int64)
    zeros = math_ops.subtract(size, math_ops.count_nonzero(value, dtype=dtypes.int64))
    return math_ops.divide(math_ops.cast(zeros, dtypes.float32), math_ops.cast(size, dtypes.float32), name=name)


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """The sum of `inputs` (TensorFlow's deprecated alias of add_n, with its shape and dtype checks)."""
    tensors = [convert_to_tensor(t) for t in inputs] if inputs else []
    if not tensors:
        raise ValueError("inputs must be an iterable of at least one Tensor/IndexedSlices with the same dtype and "
                         "shape")
    if tensor_dtype is not None and any(t.dtype != dtypes.as_dtype(tensor_dtype) for t in tensors):
        raise TypeError(f"tensor_dtype is {tensor_dtype}, but input is of type {tensors[0].dtype}")
    if shape is not None and not all(TensorShape(t.shape).is_compatible_with(TensorShape(shape)) for t in tensors):
        raise ValueError(f"Shapes of inputs and shape are not compatible: {TensorShape(tensors[0].shape)} vs "
                         f"{TensorShape(shape)}")
    return math_ops.add_n(tensors, name=name)


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """Each segment's sum divided by the square root of its number of entries (0 for an empty segment)."""
    data = convert_to_tensor(data)
    total = math_ops.unsorted_segment_sum(data, segment_ids, num_segments)
    ones = array_ops.ones_like(segment_ids, dtype=data.dtype)
    count = math_ops.unsorted_segment_sum(ones, segment_ids, num_segments)
    count = math_ops.maximum(count, array_ops.ones_like(count))
    extra = len(total.shape) - 1 if total.shape is not None else 0
    count = array_ops.reshape(count, [-1] + [1] * extra)
    return math_ops.divide(total, math_ops.sqrt(count), name=name)


def lbeta(x, name=None):
    """log|Beta(x)| over the last axis: sum(lgamma(x)) - lgamma(sum(x)) (an empty last axis gives 0)."""
    x = convert_to_tensor(x)
    if len(x.shape) == 0:
        raise ValueError("Input to lbeta must be at least 1-D (Beta takes a vector of parameters).")
    return math_ops.subtract(math_ops.reduce_sum(lgamma(x), axis=-1), lgamma(math_ops.reduce_sum(x, axis=-1)))


ApproxTopK = collections.namedtuple("ApproxTopK", ["values", "indices"])
_APPROX_DTYPES = ("float16", "bfloat16", "float32")


def _approx_k(operand, k, reduction_dimension, largest: bool):
    operand = convert_to_tensor(operand)
    if operand.dtype.name not in _APPROX_DTYPES:
        from ..framework import build_errors
        raise build_errors.dtype_not_allowed("input", operand.dtype, _APPROX_DTYPES, (
            f"Value for attr 'T' of {dtypes.cpp_name(operand.dtype)} is not in the list of allowed values: half, "
            f"bfloat16, float\n\t; NodeDef: {{{{node ApproxTopK}}}}\nplaceflow: cast the operand to float32."))
    rank = len(operand.shape)
    axis = int(reduction_dimension) % rank
    if axis != rank - 1:  # TF's CPU kernel reduces the last dimension only
        from ..framework import build_errors, errors
        attrs = (f"T={dtypes.enum_name(operand.dtype)}, aggregate_to_topk=true, is_max_k="
                 f"{'true' if largest else 'false'}, k={int(k)}, recall_target=0.95, reduction_dimension="
                 f"{int(reduction_dimension)}, reduction_input_size_override=-1")
        if build_errors.building():  # a graph's node finds no kernel where it is placed (TF's text)
            raise errors.InvalidArgumentError(None, None, f"No OpKernel was registered to support Op 'ApproxTopK' "
                                                          f"used by {{{{node ApproxTopK}}}} with these attrs: [{attrs}]")
        raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node ApproxTopK}}}} = "
                                               f"ApproxTopK[{attrs}]")
    moved = operand
    values, indices = math_ops.top_k(moved if largest else math_ops.negative(moved), int(k))
    return ApproxTopK(values if largest else math_ops.negative(values), indices)


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """The k largest values along the last dimension and their indices (exactly: TF's CPU kernel is exact)."""
    if not aggregate_to_topk:
        raise NotImplementedError("approx_max_k(aggregate_to_topk=False) is not implemented in placeflow.")
    return _approx_k(operand, k, reduction_dimension, True)


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """The k smallest values along `reduction_dimension` and their indices (exactly, as TF's CPU kernel)."""
    if not aggregate_to_topk:
        raise NotImplementedError("approx_min_k(aggregate_to_topk=False) is not implemented in placeflow.")
    return _approx_k(operand, k, reduction_dimension, False)


def _bessel(op, x, name):
    """The op under TF's name scope for it (node 'bessel_i0/BesselI0' in a graph; `name` replaces the scope)."""
    from .special_more import scoped_unary
    scope = {"BesselI0": "bessel_i0", "BesselI0e": "bessel_i0e", "BesselI1": "bessel_i1", "BesselI1e": "bessel_i1e"}
    return scoped_unary(op, x, name, scope[op])


def bessel_i0(x, name=None):
    """The modified Bessel function of the first kind of order 0."""
    return _bessel("BesselI0", x, name)


def bessel_i0e(x, name=None):
    """exp(-|x|) * bessel_i0(x), without its overflow."""
    return _bessel("BesselI0e", x, name)


def bessel_i1(x, name=None):
    """The modified Bessel function of the first kind of order 1."""
    return _bessel("BesselI1", x, name)


def bessel_i1e(x, name=None):
    """exp(-|x|) * bessel_i1(x), without its overflow."""
    return _bessel("BesselI1e", x, name)
