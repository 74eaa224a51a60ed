"""Elementwise math, matmul, add_n, cast, reductions and comparisons."""

from __future__ import annotations

import numpy as np

from ..eager.execute import execute
from ..eager.tensor import EagerTensor
from ..framework import dtypes, errors, graph_mode
from .axis_args import axis_arg, check_axes, rank_of
from ..eager.convert import as_tensor_or_none, convert_to_tensor, operands


def _binary(op: str, x, y, name=None):
    if x.__class__ is EagerTensor and y.__class__ is EagerTensor and x._value.dtype == y._value.dtype:
        return execute(op, (x, y), x.dtype, name=name)
    inputs, dtype = operands(op, (x, y))
    return execute(op, inputs, dtype, name=name)


def _unary(op: str, x, name=None):
    if x.__class__ is not EagerTensor:
        x = convert_to_tensor(x)
    return execute(op, (x,), x.dtype, name=name)


def add(x, y, name=None):
    """x + y elementwise (AddV2)."""
    return _binary("AddV2", x, y, name)


def subtract(x, y, name=None):
    """x - y elementwise (Sub)."""
    return _binary("Sub", x, y, name)


def multiply(x, y, name=None):
    """x * y elementwise (Mul)."""
    return _binary("Mul", x, y, name)


_FLOAT32_QUOTIENT = {dtypes.int8, dtypes.int16, dtypes.uint8, dtypes.uint16}  # wider integers divide as float64


def divide(x, y, name=None):
    """x / y (RealDiv); integers are divided in floating point, as in TensorFlow: float32 for 8- and 16-bit
    integers, float64 for wider ones."""
    (x, y), dtype = operands("RealDiv", (x, y))
    if dtype.is_integer:
        dtype = dtypes.float32 if dtype in _FLOAT32_QUOTIENT else dtypes.float64
        x, y = cast(_tensor(x), dtype), cast(_tensor(y), dtype)
    return execute("RealDiv", (x, y), dtype, name=name)


def floordiv(x, y, name=None):
    """x // y elementwise (FloorDiv)."""
    return _binary("FloorDiv", x, y, name)


def floormod(x, y, name=None):
    """x % y elementwise (FloorMod)."""
    return _binary("FloorMod", x, y, name)


def pow(x, y, name=None):  # noqa: A001 - TensorFlow's public name
    """x ** y elementwise (Pow)."""
    return _binary("Pow", x, y, name)


def maximum(x, y, name=None):
    """Elementwise maximum."""
    return _binary("Maximum", x, y, name)


def minimum(x, y, name=None):
    """Elementwise minimum."""
    return _binary("Minimum", x, y, name)


def squared_difference(x, y, name=None):
    """(x - y) ** 2 elementwise."""
    return _binary("SquaredDifference", x, y, name)


def equal(x, y, name=None):
    """x == y elementwise (bool)."""
    return _binary("Equal", x, y, name)


def not_equal(x, y, name=None):
    """x != y elementwise (bool)."""
    return _binary("NotEqual", x, y, name)


def less(x, y, name=None):
    """x < y elementwise (bool)."""
    return _binary("Less", x, y, name)


def less_equal(x, y, name=None):
    """x <= y elementwise (bool)."""
    return _binary("LessEqual", x, y, name)


def greater(x, y, name=None):
    """x > y elementwise (bool)."""
    return _binary("Greater", x, y, name)


def greater_equal(x, y, name=None):
    """x >= y elementwise (bool)."""
    return _binary("GreaterEqual", x, y, name)


def logical_and(x, y, name=None):
    """x and y elementwise."""
    return _binary("LogicalAnd", x, y, name)


def logical_or(x, y, name=None):
    """x or y elementwise."""
    return _binary("LogicalOr", x, y, name)


def logical_not(x, name=None):
    """not x elementwise."""
    return _unary("LogicalNot", x, name)


def negative(x, name=None):
    """-x (Neg)."""
    return _unary("Neg", x, name)


def abs(x, name=None):  # noqa: A001
    """|x| elementwise; the magnitude (a real tensor) for complex x (ComplexAbs)."""
    if x.__class__ is not EagerTensor:
        x = convert_to_tensor(x)
    return _unary("ComplexAbs" if x.dtype.is_complex else "Abs", x, name)


def sign(x, name=None):
    """-1, 0 or 1 elementwise."""
    return _unary("Sign", x, name)


def square(x, name=None):
    """x * x elementwise."""
    return _unary("Square", x, name)


def sqrt(x, name=None):
    """Square root elementwise."""
    return _unary("Sqrt", x, name)


def rsqrt(x, name=None):
    """1 / sqrt(x) elementwise."""
    return _unary("Rsqrt", x, name)


def reciprocal(x, name=None):
    """1 / x elementwise."""
    return _unary("Reciprocal", x, name)


def exp(x, name=None):
    """e ** x elementwise."""
    return _unary("Exp", x, name)


def log(x, name=None):
    """Natural logarithm elementwise."""
    return _unary("Log", x, name)


def tanh(x, name=None):
    """Hyperbolic tangent elementwise."""
    return _unary("Tanh", x, name)


def sigmoid(x, name=None):
    """1 / (1 + e ** -x) elementwise."""
    return _unary("Sigmoid", x, name)


def identity(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """`input`, on the device of the current scope: the explicit way to copy a tensor."""
    return _unary("Identity", input, name)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False,
           b_is_sparse=False, output_type=None, grad_a=False, grad_b=False, name=None):
    """Matrix product a @ b (MatMul), batched over leading dimensions; adjoint_* transposes and conjugates.
    a_is_sparse/b_is_sparse and grad_a/grad_b are TensorFlow's performance hints: the product is the same."""
    if not (transpose_a or transpose_b or adjoint_a or adjoint_b) and a.__class__ is EagerTensor \
            and b.__class__ is EagerTensor and a._value.dtype == b._value.dtype and output_type is None:
        return execute("MatMul", (a, b), a.dtype, name=name)
    if (transpose_a and adjoint_a) or (transpose_b and adjoint_b):
        raise ValueError("Only one of transpose_a and adjoint_a (transpose_b and adjoint_b) can be True.")
    (a, b), dtype = operands("MatMul", (a, b))
    if output_type is not None and dtypes.as_dtype(output_type) == dtypes.int32 and dtype in (dtypes.int8,
                                                                                               dtypes.uint8):
        # TF's (u)int8 product accumulates in int32: the same as multiplying the int32 casts
        a, b, dtype = cast(a, dtypes.int32), cast(b, dtypes.int32), dtypes.int32
    if output_type is not None and dtypes.as_dtype(output_type) != dtype:
        raise NotImplementedError(f"matmul(output_type={output_type!r}) differing from the inputs' {dtype.name} is "
                                  "not implemented in placeflow; cast the product instead.")
    a, b = (conj(a) if adjoint_a else a), (conj(b) if adjoint_b else b)
    transpose_a, transpose_b = transpose_a or adjoint_a, transpose_b or adjoint_b
    attrs = {"transpose_a": True} if transpose_a else None
    if transpose_b:
        attrs = dict(attrs or {}, transpose_b=True)
    return execute("MatMul", (a, b), dtype, attrs, name=name)


def add_n(inputs, name=None):
    """The elementwise sum of a list of same-shaped tensors (AddN)."""
    if not inputs:
        raise ValueError("add_n needs at least one input tensor, got an empty list.")
    values, dtype = operands("AddN", list(inputs))
    return execute("AddN", values, dtype, name=name)


def cast(x, dtype, name=None):
    """x converted to `dtype` (Cast; like TensorFlow's docs say, it has only a CPU kernel here). IndexedSlices
    and SparseTensors stay what they are (their values cast), as in TensorFlow."""
    from ..ops.indexed_slices import IndexedSlices
    from .sparse import SparseTensor
    if isinstance(x, IndexedSlices):
        return IndexedSlices(cast(x.values, dtype, name), x.indices, x.dense_shape)
    if isinstance(x, SparseTensor):
        return SparseTensor(x.indices, cast(x.values, dtype, name), x.dense_shape)
    x = convert_to_tensor(x)
    dtype = dtypes.as_dtype(dtype)
    if getattr(dtype, "is_quantized", False):
        raise NotImplementedError(f"tf.cast to the quantized type {dtype.name} is not implemented in placeflow: it "
                                  f"has no quantized kernels. Keep the values in an integer or float type.")
    if x.dtype == dtype:
        return x
    if x.dtype == dtypes.string and graph_mode.active() is None:
        raise errors.UnimplementedError(None, None, f"Cast {dtypes.cpp_name(x.dtype)} to {dtypes.cpp_name(dtype)} is "
                                                    "not supported [Op:Cast]")
    return execute("Cast", (x,), x.dtype, {"dtype": dtype}, name=name)


def _axis(axis):
    return axis_arg(axis)


_RAGGED_KINDS = {"Sum": "sum", "Mean": "mean", "Max": "max", "Min": "min", "Prod": "prod", "All": "all", "Any": "any"}


def _reduce(op: str, x, axis, keepdims, name):
    if getattr(x, "_is_ragged_tensor", False):
        from .ragged_reduce import reduce
        return reduce(_RAGGED_KINDS[op], x, axis, keepdims, name)
    x = convert_to_tensor(x)
    attrs = {"axis": _axis(axis), "keepdims": bool(keepdims)}
    check_axes(attrs["axis"], rank_of(x), op, "Invalid reduction dimension ({axis} for input with {rank} "
                                                "dimension(s)")
    return execute(op, (x,), x.dtype, attrs, name=name)


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    """Sum over `axis` (all axes when None)."""
    return _reduce("Sum", input_tensor, axis, keepdims, name)


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    """Mean over `axis` (all axes when None)."""
    return _reduce("Mean", input_tensor, axis, keepdims, name)


def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    """Maximum over `axis` (all axes when None)."""
    return _reduce("Max", input_tensor, axis, keepdims, name)


def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    """Minimum over `axis` (all axes when None)."""
    return _reduce("Min", input_tensor, axis, keepdims, name)


def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    """Product over `axis` (all axes when None)."""
    return _reduce("Prod", input_tensor, axis, keepdims, name)


def argmax(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    """Index of the largest value along `axis` (0 when None)."""
    x = convert_to_tensor(input)
    attrs = {"axis": 0 if axis is None else axis_arg(axis), "output_type": dtypes.as_dtype(output_type)}
    return execute("ArgMax", (x,), x.dtype, attrs, name=name)


def argmin(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    """Index of the smallest value along `axis` (0 when None)."""
    x = convert_to_tensor(input)
    attrs = {"axis": 0 if axis is None else axis_arg(axis), "output_type": dtypes.as_dtype(output_type)}
    return execute("ArgMin", (x,), x.dtype, attrs, name=name)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """t with values below min raised to min and above max lowered to max."""
    (t, low, high), dtype = operands("ClipByValue", (t, clip_value_min, clip_value_max))
    return execute("ClipByValue", (t, low, high), dtype, name=name)


def where(condition, x=None, y=None, name=None):
    """Elementwise x where condition else y (SelectV2); with only a condition, the true indices."""
    condition = convert_to_tensor(condition)
    if x is None and y is None:
        return execute("Where", (condition,), condition.dtype, name=name)
    if x is None or y is None:
        raise ValueError("where() needs both x and y, or neither.")
    (x, y), dtype = operands("SelectV2", (x, y))
    return execute("SelectV2", (condition, x, y), dtype, name=name)


def _tensor(value):
    return value if value.__class__ is EagerTensor else convert_to_tensor(value)


# -- more elementwise maths, cumulative ops, boolean and statistical reductions ---------------------------

def sin(x, name=None):
    """The sine of x, elementwise (Sin)."""
    return _unary("Sin", x, name)


def cos(x, name=None):
    """The cosine of x, elementwise (Cos)."""
    return _unary("Cos", x, name)


def tan(x, name=None):
    """The tangent of x, elementwise (Tan)."""
    return _unary("Tan", x, name)


def asin(x, name=None):
    """The arcsine of x, elementwise (Asin)."""
    return _unary("Asin", x, name)


def acos(x, name=None):
    """The arccosine of x, elementwise (Acos)."""
    return _unary("Acos", x, name)


def atan(x, name=None):
    """The arctangent of x, elementwise (Atan)."""
    return _unary("Atan", x, name)


def sinh(x, name=None):
    """The hyperbolic sine of x, elementwise (Sinh)."""
    return _unary("Sinh", x, name)


def cosh(x, name=None):
    """The hyperbolic cosine of x, elementwise (Cosh)."""
    return _unary("Cosh", x, name)


def asinh(x, name=None):
    """The inverse hyperbolic sine of x, elementwise (Asinh)."""
    return _unary("Asinh", x, name)


def acosh(x, name=None):
    """The inverse hyperbolic cosine of x, elementwise (Acosh)."""
    return _unary("Acosh", x, name)


def atanh(x, name=None):
    """The inverse hyperbolic tangent of x, elementwise (Atanh)."""
    return _unary("Atanh", x, name)


def atan2(y, x, name=None):
    """The angle of the point (x, y), elementwise, in [-pi, pi] (Atan2)."""
    return _binary("Atan2", y, x, name)


def floor(x, name=None):
    """Largest integer not greater than x, elementwise (Floor)."""
    return _unary("Floor", x, name)


def ceil(x, name=None):
    """Smallest integer not less than x, elementwise (Ceil)."""
    return _unary("Ceil", x, name)


def round(x, name=None):  # noqa: A001 - TensorFlow's public name
    """x rounded to the nearest integer, halves to even (Round)."""
    return _unary("Round", x, name)


def log1p(x, name=None):
    """log(1 + x), accurate for small x (Log1p)."""
    return _unary("Log1p", x, name)


def expm1(x, name=None):
    """exp(x) - 1, accurate for small x (Expm1)."""
    return _unary("Expm1", x, name)


def is_nan(x, name=None):
    """Whether each element is NaN (IsNan)."""
    return _unary("IsNan", x, name)


def is_inf(x, name=None):
    """Whether each element is +-inf (IsInf)."""
    return _unary("IsInf", x, name)


def is_finite(x, name=None):
    """Whether each element is finite (IsFinite)."""
    return _unary("IsFinite", x, name)


def stop_gradient(input, name=None):  # noqa: A002 - TensorFlow's public name
    """`input` unchanged, with no gradient flowing through it (StopGradient)."""
    return _unary("StopGradient", input, name)


def _cumulative(op, x, axis, exclusive, reverse, name):
    x = convert_to_tensor(x)
    attrs = {"axis": axis_arg(axis), "exclusive": bool(exclusive), "reverse": bool(reverse)}
    check_axes(attrs["axis"], rank_of(x), op, "ScanOp: Expected scan axis in the range [-{rank}, {rank}), but "
                                                "got {axis}")
    return execute(op, (x,), x.dtype, attrs, name=name)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running sums along `axis` (exclusive: starting from 0; reverse: from the end) (Cumsum)."""
    return _cumulative("Cumsum", x, axis, exclusive, reverse, name)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running products along `axis` (exclusive: starting from 1; reverse: from the end) (Cumprod)."""
    return _cumulative("Cumprod", x, axis, exclusive, reverse, name)


def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    """Logical and over `axis` of a bool tensor (All)."""
    return _reduce("All", input_tensor, axis, keepdims, name)


def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    """Logical or over `axis` of a bool tensor (Any)."""
    return _reduce("Any", input_tensor, axis, keepdims, name)


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) over `axis`, computed stably (the maximum is taken out first, as in TensorFlow)."""
    x = convert_to_tensor(input_tensor)
    from .array_ops import zeros_like
    peak = stop_gradient(reduce_max(x, axis=axis, keepdims=True))
    peak = where(is_finite(peak), peak, zeros_like(peak))  # all -inf: log(0) = -inf, not NaN
    total = log(reduce_sum(exp(x - peak), axis=axis, keepdims=True)) + peak
    return total if keepdims else _squeeze_axes(total, axis, len(x.shape))


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """Mean squared deviation from the mean over `axis`."""
    if getattr(input_tensor, "_is_ragged_tensor", False):
        from .ragged_reduce import variance
        return variance(input_tensor, axis, keepdims)
    x = convert_to_tensor(input_tensor)
    if not x.dtype.is_floating:
        raise TypeError(f"Input must be either real or complex. Received integer type {x.dtype.name}.")
    centered = x - reduce_mean(x, axis=axis, keepdims=True)
    return reduce_mean(square(centered), axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """Standard deviation over `axis`: sqrt(reduce_variance)."""
    return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


def count_nonzero(input, axis=None, keepdims=False, dtype=dtypes.int64, name=None):  # noqa: A002
    """How many elements along `axis` are not zero (False, '' for strings), as `dtype`."""
    x = convert_to_tensor(input)
    zero = False if x.dtype == dtypes.bool else 0
    return reduce_sum(cast(not_equal(x, zero), dtype), axis=axis, keepdims=keepdims)


def _squeeze_axes(x, axis, rank: int):
    from .array_ops import reshape
    keep = set(range(rank)) if axis is None else {a % rank for a in ([axis] if isinstance(axis, int) else axis)}
    shape = [d for i, d in enumerate(x.shape) if i not in keep] if rank else []
    return reshape(x, [int(d) for d in shape])


# -- top_k, sort, segments, linspace, norm ---------------------------------------------------------------------

def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002 - TensorFlow's names
    """(values, indices) of the k largest entries along the last axis (TopKV2)."""
    from collections import namedtuple
    x = convert_to_tensor(input)
    attrs = {"k": int(k), "sorted": bool(sorted), "index_type": dtypes.as_dtype(index_type)}
    values, indices = execute("TopKV2", (x,), x.dtype, attrs, name=name)
    return namedtuple("TopKV2", ["values", "indices"])(values, indices)


def _along_last(x, axis, fn):
    """fn applied along `axis` (moved last and back)."""
    from .array_ops import transpose
    rank = len(x.shape)
    axis = int(axis)
    if not -rank <= axis < max(rank, 1):
        raise errors.InvalidArgumentError(None, None, f"slice index {axis} of dimension 0 out of bounds. "
                                                      "[Op:StridedSlice]")
    axis %= max(rank, 1)
    if axis == rank - 1:
        return fn(x)
    perm = [d for d in range(rank) if d != axis] + [axis]
    back = [perm.index(d) for d in range(rank)]
    return transpose(fn(transpose(x, perm)), back)


def _check_direction(direction):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"Unknown direction {direction!r}: expected 'ASCENDING' or 'DESCENDING'.")


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """`values` sorted along `axis`."""
    _check_direction(direction)
    x = convert_to_tensor(values)
    if direction == "ASCENDING":
        return negative(_along_last(negative(x), axis, lambda t: top_k(t, int(t.shape[-1])).values))
    return _along_last(x, axis, lambda t: top_k(t, int(t.shape[-1])).values)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """The indices that sort `values` along `axis` (int32); ties keep their order."""
    _check_direction(direction)
    x = convert_to_tensor(values)
    if direction == "ASCENDING":
        x = negative(x)
    return _along_last(x, axis, lambda t: top_k(t, int(t.shape[-1])).indices)


def _unsorted_segments(op, data, segment_ids, num_segments, name):
    data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
    return execute(op, (data, ids), data.dtype, {"num_segments": _segment_count(op, num_segments)}, name=name)


def _segment_count(op, num_segments) -> int:
    """num_segments as an int: a Python number, or a tensor whose value is known while the graph is built (a
    constant, or a shape placeflow knows statically); TF also takes one computed when the graph runs."""
    from .array_ops import get_static_value
    known = get_static_value(num_segments)
    if known is None:
        raise NotImplementedError(
            f"{op} with num_segments={num_segments!r}, computed by the graph being built, is not implemented in "
            "placeflow: its kernels need the count while the graph is built. Pass a Python int or a constant.")
    return int(known)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sum of the rows of `data` sharing each segment id in [0, num_segments)."""
    return _unsorted_segments("UnsortedSegmentSum", data, segment_ids, num_segments, name)


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    """Maximum of the rows of `data` sharing each segment id (lowest value for empty segments)."""
    return _unsorted_segments("UnsortedSegmentMax", data, segment_ids, num_segments, name)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """Mean of the rows of `data` sharing each segment id (0 for empty segments)."""
    from .array_ops import ones_like, reshape
    data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
    total = unsorted_segment_sum(data, ids, num_segments)
    counts = unsorted_segment_sum(ones_like(ids, dtype=data.dtype), ids, num_segments)
    counts = reshape(maximum(counts, 1), [int(num_segments)] + [1] * (len(data.shape) - len(ids.shape)))
    return total / counts


def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from start to stop inclusive (float32 for Python numbers, as TF), computed as
    TensorFlow's kernel does: start + i * step in the dtype, the last exactly stop."""
    from ..eager.convert import constant
    from .array_ops import concat, get_static_value, range as arange, reshape
    if axis != 0:
        raise NotImplementedError("linspace(axis != 0) is not implemented in placeflow.")
    first = convert_to_tensor(start)
    if first.dtype not in (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64):
        raise TypeError(f"Value passed to parameter 'start' has DataType {first.dtype.name} not in list of allowed "
                        f"values: bfloat16, float16, float32, float64")
    last = convert_to_tensor(stop, dtype=first.dtype)
    count = int(num)
    if count == 0:  # TF: an empty result
        return constant(np.zeros(0, first.dtype.numpy_dtype))
    if count < 1:
        raise errors.InvalidArgumentError(None, None, f"Requires num > 0: {count}")
    low, high = get_static_value(first), get_static_value(last)
    if low is not None and high is not None:
        kind = first.dtype.numpy_dtype.type
        low, high = kind(low), kind(high)
        if count == 1:
            return constant(np.array([low], first.dtype.numpy_dtype))
        step = (high - low) / kind(count - 1)
        values = low + step * np.arange(count - 1, dtype=first.dtype.numpy_dtype)
        return constant(np.append(values, high).astype(first.dtype.numpy_dtype))
    if count == 1:
        return reshape(first, [1])
    step = divide(subtract(last, first), convert_to_tensor(count - 1, dtype=first.dtype))
    body = add(first, multiply(step, cast(arange(count - 1), first.dtype)))
    return concat([body, reshape(last, [1])], 0, name=name)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002 - TensorFlow's names
    """The vector norm of `tensor` over `axis` ('euclidean'/2, 1, np.inf or any p > 0), or over two axes the
    matrix norm ('fro'/'euclidean', 1: largest column sum, np.inf: largest row sum, 2: largest singular value)."""
    x = convert_to_tensor(tensor)
    keep = bool(keepdims)
    axis = _norm_axis(axis)
    matrix = isinstance(axis, tuple)
    if not matrix and ord == "fro":
        raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    if ord in ("euclidean", "fro") or (ord == 2 and not matrix):
        return sqrt(reduce_sum(square(x), axis=axis, keepdims=keep))
    if matrix:
        return _matrix_norm(x, ord, [int(a) % len(x.shape) for a in axis], keep)
    if ord == 1:
        return reduce_sum(abs(x), axis=axis, keepdims=keep)
    if ord == np.inf:
        return reduce_max(abs(x), axis=axis, keepdims=keep)
    if isinstance(ord, (int, float)) and ord > 0:
        return pow(reduce_sum(pow(abs(x), float(ord)), axis=axis, keepdims=keep), 1.0 / float(ord))
    raise ValueError(f"'ord' must be a supported vector norm, got {ord!r}")


def _norm_axis(axis):
    """None, an int, or a tuple of two distinct ints, as TensorFlow's norm accepts (else ValueError)."""
    if isinstance(axis, (list, tuple)) and len(axis) == 1:
        axis = axis[0]
    if isinstance(axis, (list, tuple)) and len(axis) == 2 and all(_is_int(a) for a in axis) and axis[0] != axis[1]:
        return tuple(int(a) for a in axis)
    if axis is None or _is_int(axis):
        return axis
    raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _matrix_norm(x, ord, axes, keep):  # noqa: A002
    rows, cols = axes
    if ord in (1, np.inf):
        summed, largest = (rows, cols) if ord == 1 else (cols, rows)
        value = reduce_max(reduce_sum(abs(x), axis=summed, keepdims=True), axis=largest, keepdims=True)
        return value if keep else _squeeze_axes(value, sorted(axes), len(x.shape))
    if ord != 2:
        raise ValueError(f"'ord' must be a supported matrix norm ('fro', 'euclidean', 1, 2, np.inf), got {ord!r}")
    from .array_ops import expand_dims, transpose
    from .linalg import svd
    others = [i for i in range(len(x.shape)) if i not in axes]
    value = reduce_max(svd(transpose(x, others + [rows, cols]), compute_uv=False), axis=-1)
    if keep:
        for axis in sorted(axes):
            value = expand_dims(value, axis)
    return value


def einsum(equation, *inputs, **kwargs):
    """Einstein summation over `inputs` as `equation` says (Einsum)."""
    kwargs.pop("name", None)
    kwargs.pop("optimize", None)  # a contraction-order hint: NumPy/CuPy choose the order themselves
    if kwargs:
        raise TypeError(f"einsum got unexpected keyword arguments {sorted(kwargs)}")
    tensors = [convert_to_tensor(x) for x in inputs]
    if "->" not in equation:
        raise NotImplementedError("einsum without an explicit output ('->') is not implemented in placeflow; write "
                                  "the output subscripts, e.g. 'ij,jk->ik'.")
    return execute("Einsum", tuple(tensors), tensors[0].dtype, {"equation": equation.replace(" ", "")})


def tensordot(a, b, axes, name=None):
    """Sum over the given axes of a and b (an int n: a's last n and b's first n), as one matmul."""
    from .array_ops import reshape, transpose
    a, b = convert_to_tensor(a), convert_to_tensor(b, dtype=convert_to_tensor(a).dtype)
    rank_a, rank_b = len(a.shape), len(b.shape)
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError(f"'axes' must be at least 0, got {axes}.")
        axes_a, axes_b = list(range(rank_a - axes, rank_a)), list(range(axes))
    else:
        axes_a, axes_b = ([axes[0]] if isinstance(axes[0], int) else list(axes[0]),
                          [axes[1]] if isinstance(axes[1], int) else list(axes[1]))
        if len(axes_a) != len(axes_b):
            raise ValueError(f"Different number of contraction axes `a` and `b`, {len(axes_a)} != {len(axes_b)}.")
    axes_a, axes_b = [x % rank_a for x in axes_a], [x % rank_b for x in axes_b]
    free_a = [d for d in range(rank_a) if d not in axes_a]
    free_b = [d for d in range(rank_b) if d not in axes_b]
    size = lambda dims, shape: int(np.prod([int(shape[d]) for d in dims])) if dims else 1  # noqa: E731
    left = reshape(transpose(a, free_a + axes_a), [size(free_a, a.shape), size(axes_a, a.shape)])
    right = reshape(transpose(b, axes_b + free_b), [size(axes_b, b.shape), size(free_b, b.shape)])
    return reshape(matmul(left, right), [int(a.shape[d]) for d in free_a] + [int(b.shape[d]) for d in free_b])


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32, name=None):
    """[num_classes, num_classes] counts (or weight sums) of (label, prediction) pairs."""
    from .indexing import scatter_nd
    from .array_ops import stack
    labels, predictions = convert_to_tensor(labels), convert_to_tensor(predictions)
    if num_classes is None:
        num_classes = int(max(reduce_max(labels).numpy(), reduce_max(predictions).numpy())) + 1
    dtype = dtypes.as_dtype(dtype)
    pairs = stack([cast(labels, dtypes.int64), cast(predictions, dtypes.int64)], axis=1)
    values = cast(weights, dtype) if weights is not None else cast(equal(labels, labels), dtype)
    return scatter_nd(pairs, values, [int(num_classes), int(num_classes)])


def in_top_k(targets, predictions, k, name=None):
    """Whether each target's prediction is among its row's k largest (ties count as in); False where the target is
    out of range [0, classes) or its prediction is not finite (TF's InTopKV2)."""
    from .array_ops import range as arange, reshape, shape, stack
    from .indexing import gather_nd
    predictions = convert_to_tensor(predictions)
    targets = convert_to_tensor(targets)
    if targets.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"in_top_k's targets must be int32 or int64; got {targets.dtype.name} ({targets!r}). Cast "
                        "them to an integer type.")
    if len(predictions.shape) != 2 or len(targets.shape) != 1:
        raise errors.InvalidArgumentError(None, None, f"predictions must be 2-dimensional and targets 1-dimensional; "
                                                      f"got shapes {predictions.shape} and {targets.shape}")
    if None not in (predictions.shape[0], targets.shape[0]) and predictions.shape[0] != targets.shape[0]:
        raise errors.InvalidArgumentError(None, None, f"First dimension of predictions {predictions.shape[0]} must "
                                                      f"match length of targets {targets.shape[0]} [Op:InTopKV2]")
    classes = shape(predictions, out_type=targets.dtype)[1]
    valid = logical_and(greater_equal(targets, 0), less(targets, classes))
    safe = cast(where(valid, targets, targets * 0), dtypes.int32)
    chosen = gather_nd(predictions, stack([arange(shape(predictions)[0]), safe], axis=1))
    above = reduce_sum(cast(greater(predictions, reshape(chosen, [-1, 1])), dtypes.int32), axis=1)
    return logical_and(logical_and(valid, is_finite(chosen)), less(above, cast(k, dtypes.int32)), name=name)


def in_top_k_v1(predictions, targets, k, name=None):
    """TensorFlow 1's in_top_k (tf.compat.v1.nn.in_top_k, tf.compat.v1.math.in_top_k): predictions first."""
    return in_top_k(targets, predictions, k, name=name)


# -- rounding, logic, counting and series ----------------------------------------------------------------

def rint(x, name=None):
    """The nearest integer value, halves to even (Rint; floating-point tensors only)."""
    return _unary("Rint", x, name)


def logical_xor(x, y, name=None):
    """x != y for bool tensors: (x or y) and not (x and y), as TensorFlow composes it."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None, axis=None,
             binary_output=False):
    """How often each value 0..max(arr) occurs in `arr` (with `weights`: the sum of their weights),
    at least `minlength` and at most `maxlength` counts long."""
    if axis not in (None, 0, -1):
        raise errors.InvalidArgumentError(None, None, f"Unsupported axis value {axis}; axis must be 0, -1 or None")
    values = convert_to_tensor(arr)
    if not values.dtype.is_integer:  # TensorFlow counts the values cast to int32
        values = cast(values, dtypes.int32)
    if axis == -1 and len(values.shape) > 2:
        from ..framework import graph_mode
        message = f"Shape must be at most rank 2 but is rank {len(values.shape)}"
        if graph_mode.active() is not None:  # TF's shape inference refuses it while the graph is built
            raise ValueError(f"{message} for '{{{{node DenseBincount}}}} = DenseBincount' with input shapes: "
                             f"{list(values.shape)}.")
        raise errors.InvalidArgumentError(None, None, f"{message} [Op:DenseBincount]")
    if axis == -1 and len(values.shape) < 2:
        axis = None  # one row: counting along the last axis is counting all of it
    if binary_output and weights is not None:
        raise errors.InvalidArgumentError(None, None, "Arguments `binary_output` and `weights` are mutually exclusive. "
                                               "Please specify only one.")
    attrs = {"minlength": int(minlength or 0), "maxlength": None if maxlength is None else int(maxlength),
             "axis": -1 if axis == -1 else None, "binary_output": bool(binary_output)}
    if weights is None:
        attrs["dtype"] = dtypes.as_dtype(dtype)
        return execute("Bincount", (values,), attrs["dtype"], attrs, name=name)
    weights = convert_to_tensor(weights)
    attrs["dtype"] = weights.dtype
    return execute("Bincount", (values, weights), weights.dtype, attrs, name=name)


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(sum(x**2)) over `axis`; integer tensors give the integer part, in their own dtype."""
    x = convert_to_tensor(input_tensor)
    if not x.dtype.is_integer:
        return sqrt(reduce_sum(square(x), axis=axis, keepdims=keepdims), name=name)
    wide = cast(x, dtypes.float64)
    return cast(sqrt(reduce_sum(square(wide), axis=axis, keepdims=keepdims)), x.dtype, name=name)


def polyval(coeffs, x, name=None):
    """coeffs[0] * x**(n-1) + ... + coeffs[n-1], by Horner's rule (an empty list gives zeros like x)."""
    x = convert_to_tensor(x)
    if not coeffs:
        from .array_ops import zeros_like
        return zeros_like(x, name=name)
    result = convert_to_tensor(coeffs[0], dtype=x.dtype)
    for coefficient in coeffs[1:]:
        result = add(multiply(result, x), coefficient)
    return identity(result, name=name)


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x))) along `axis`, exact at every position (CumulativeLogsumexp)."""
    x = convert_to_tensor(x)
    attrs = {"axis": int(axis), "exclusive": bool(exclusive), "reverse": bool(reverse)}
    return execute("CumulativeLogsumexp", (x,), x.dtype, attrs, name=name)


def saturate_cast(value, dtype, name=None):
    """`value` cast to `dtype`, clipped first to the range both dtypes can hold (no wrap-around)."""
    x = convert_to_tensor(value)
    dtype = dtypes.as_dtype(dtype)
    if x.dtype.is_complex and not dtype.is_complex:
        x = real(x)  # TF keeps the real part
    if x.dtype.is_integer or x.dtype.is_floating:
        low, high = _saturation_bounds(x.dtype, dtype)
        if low is not None:
            x = clip_by_value(x, low, high)
    return cast(x, dtype, name=name)


def _saturation_bounds(source, target) -> tuple:
    """(low, high) in `source`'s type that cast into `target` without overflow; (None, None) for bool."""
    if target.is_bool or not (target.is_integer or target.is_floating):
        return None, None
    limits, own = _limits(target), _limits(source)
    kind = source.numpy_dtype.type
    low, high = kind(max(limits.min, own.min)), kind(min(limits.max, own.max))
    if source.is_floating and target.is_integer and int(high) > limits.max:  # rounded up past the target's max
        high = np.nextafter(high, kind(0))
    return low, high


def _limits(dtype):
    return np.iinfo(dtype.numpy_dtype) if dtype.is_integer else np.finfo(dtype.numpy_dtype)


# -- segments of sorted ids, complex numbers, special functions ----------------------------------------------

def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    """Minimum of the rows of `data` sharing each segment id (highest value for empty segments)."""
    return _unsorted_segments("UnsortedSegmentMin", data, segment_ids, num_segments, name)


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    """Product of the rows of `data` sharing each segment id (1 for empty segments)."""
    return _unsorted_segments("UnsortedSegmentProd", data, segment_ids, num_segments, name)


def _sorted_segments(segment_ids):
    """(ids, how many segments) for the segment_* ops, whose ids must be sorted (checked, as TF's CPU kernel)."""
    from .array_ops import get_static_value
    ids = convert_to_tensor(segment_ids)
    host = get_static_value(ids)
    if host is None:
        raise NotImplementedError("segment ids computed by the graph being built are not supported by placeflow's "
                                  "segment_* ops; use unsorted_segment_* with an explicit num_segments.")
    if host.size and (np.any(np.diff(host) < 0) or host[0] < 0):
        raise errors.InvalidArgumentError(None, None, "segment ids are not increasing")
    return ids, int(host[-1]) + 1 if host.size else 0


def segment_sum(data, segment_ids, name=None):
    """Sum of the rows of `data` per segment id (ids sorted)."""
    return unsorted_segment_sum(data, *_sorted_segments(segment_ids), name=name)


def segment_max(data, segment_ids, name=None):
    """Maximum of the rows of `data` per segment id (ids sorted); 0 for an id with no rows, as TF's kernel."""
    ids, count = _sorted_segments(segment_ids)
    return _zero_where_empty(unsorted_segment_max(data, ids, count), ids, count, name)


def segment_min(data, segment_ids, name=None):
    """Minimum of the rows of `data` per segment id (ids sorted); 0 for an id with no rows, as TF's kernel."""
    ids, count = _sorted_segments(segment_ids)
    return _zero_where_empty(unsorted_segment_min(data, ids, count), ids, count, name)


def _zero_where_empty(result, ids, count: int, name):
    """`result` with the rows of segments that received no data set to 0 (the unsorted ops leave the dtype's
    lowest or highest value there, as TF's unsorted kernels do; its sorted kernels write 0)."""
    from .array_ops import reshape, zeros_like
    host = ids.numpy() if hasattr(ids, "numpy") else None
    filled = np.zeros(count, bool)
    if host is None:
        from .array_ops import get_static_value
        host = get_static_value(ids)
    filled[np.asarray(host, np.int64)] = True
    if filled.all():
        return identity(result, name=name)
    mask = convert_to_tensor(filled.reshape([count] + [1] * (len(result.shape) - 1)))
    return where(mask, result, zeros_like(result), name=name)


def segment_mean(data, segment_ids, name=None):
    """Mean of the rows of `data` per segment id (ids sorted)."""
    return unsorted_segment_mean(data, *_sorted_segments(segment_ids))


def segment_prod(data, segment_ids, name=None):
    """Product of the rows of `data` per segment id (ids sorted)."""
    return unsorted_segment_prod(data, *_sorted_segments(segment_ids), name=name)


def complex(real, imag, name=None):  # noqa: A001 - TensorFlow's public name
    """real + imag * 1j: complex64 from float32 parts, complex128 from float64 ones."""
    inputs, dtype = operands("Complex", (real, imag))
    return execute("Complex", inputs, dtype, name=name)


def real(input, name=None):  # noqa: A002
    """The real part (a real tensor is returned as it is)."""
    x = convert_to_tensor(input)
    return execute("Real", (x,), x.dtype, name=name) if x.dtype.is_complex else x


def imag(input, name=None):  # noqa: A002
    """The imaginary part (zeros for a real tensor)."""
    x = convert_to_tensor(input)
    if not x.dtype.is_complex:
        from .array_ops import zeros_like
        return zeros_like(x, name=name)
    return execute("Imag", (x,), x.dtype, name=name)


def conj(x, name=None):
    """The complex conjugate (a real tensor is returned as it is)."""
    x = convert_to_tensor(x)
    return execute("Conj", (x,), x.dtype, name=name) if x.dtype.is_complex else x


def angle(input, name=None):  # noqa: A002
    """The argument of each complex number, in (-pi, pi] (0 or pi for real numbers)."""
    x = convert_to_tensor(input)
    if x.dtype.is_complex:
        return execute("Angle", (x,), x.dtype, name=name)
    return where(less(x, 0), cast(np.pi, x.dtype) + 0 * x, 0 * x, name=name)


def erf(x, name=None):
    """The error function (Erf)."""
    return _unary("Erf", x, name)


def erfc(x, name=None):
    """1 - erf(x)."""
    return subtract(1.0, erf(x), name=name)


def log_sigmoid(x, name=None):
    """log(sigmoid(x)), computed stably as -softplus(-x)."""
    from .nn import softplus
    return negative(softplus(negative(x)), name=name)



# -- searching, permutations, floating-point neighbours, the inverse error function -----------------------------

def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """Where each of `values` would go in the sorted innermost rows of `sorted_sequence` (the leading dimensions
    match): before equal entries with side='left', after them with 'right'."""
    if side not in ("left", "right"):
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: `side` = {side!r}.")
    sequence = convert_to_tensor(sorted_sequence)
    found = convert_to_tensor(values, dtype=sequence.dtype)
    if sequence.shape is not None and found.shape is not None and \
            tuple(sequence.shape[:-1]) != tuple(found.shape[:-1]):
        raise errors.InvalidArgumentError(None, None, "Leading dim_size of both tensors must match.")
    op = "LowerBound" if side == "left" else "UpperBound"
    return execute(op, (sequence, found), sequence.dtype, {"out_type": dtypes.as_dtype(out_type)}, name=name)


def invert_permutation(x, name=None):
    """The inverse permutation: y[x[i]] = i."""
    x = convert_to_tensor(x)
    return execute("InvertPermutation", (x,), x.dtype, name=name)


def nextafter(x1, x2, name=None):
    """The next representable value after x1 toward x2, elementwise."""
    return _binary("NextAfter", x1, x2, name)


def erfinv(x, name=None):
    """The inverse error function: erf(erfinv(x)) = x on (-1, 1); +-inf at +-1, nan outside."""
    return _unary("Erfinv", x, name)
