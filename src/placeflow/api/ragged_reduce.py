"""Reductions of a RaggedTensor (tf.reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod, reduce_all,
reduce_any, and tf.math.reduce_variance and reduce_std), as TensorFlow's ragged dispatch computes them: the axes one at a time from the last; along the
ragged axis a segment reduction of each row's values (an empty row gives the reduction's identity: 0, 1, the
dtype's lowest or highest value, True or False); along the rows (axis 0) a segment reduction of the values at
each position; a mean is the sum over the count of values summed (in float64 for integers, as TF)."""

from __future__ import annotations

from ..framework import dtypes
from .axis_args import axis_arg

_SEGMENT_OPS = {"sum": "unsorted_segment_sum", "max": "unsorted_segment_max", "min": "unsorted_segment_min",
                "prod": "unsorted_segment_prod"}
_DENSE_OPS = {"sum": "reduce_sum", "max": "reduce_max", "min": "reduce_min", "prod": "reduce_prod"}


def reduce(kind: str, rt, axis, keepdims: bool, name=None):
    """`kind` ('sum', 'mean', 'max', 'min', 'prod', 'all' or 'any') of RaggedTensor `rt` over `axis`."""
    from . import math_ops
    if rt.ragged_rank != 1:
        raise NotImplementedError(f"tf.reduce_{kind} of a RaggedTensor with {rt.ragged_rank} ragged dimensions is "
                                  "not implemented in placeflow (one ragged dimension is); reduce its flat_values "
                                  "or merge_dims first.")
    axes = _axes(axis, rt.shape.rank)
    if kind == "mean":
        total, count = reduce("sum", rt, axes, keepdims), reduce("sum", _ones_like(rt), axes, keepdims)
        if rt.dtype.is_integer:
            total, count = math_ops.cast(total, dtypes.float64), math_ops.cast(count, dtypes.float64)
        return total / math_ops.cast(count, total.dtype)
    if kind in ("all", "any"):
        counted = rt.with_values(math_ops.cast(rt.values, dtypes.int32))
        reduced = reduce("prod" if kind == "all" else "sum", counted, axes, keepdims)
        return math_ops.cast(reduced, dtypes.bool) if kind == "all" else math_ops.greater(reduced, 0)
    return _reduce_axes(kind, rt, axes, keepdims)


def variance(rt, axis, keepdims: bool):
    """tf.math.reduce_variance of a RaggedTensor as TF's ragged dispatch computes it: the mean of the squares less
    the square of the mean (reduce_std is its square root; integers in float64, as their means)."""
    from . import math_ops
    squares = rt.with_values(math_ops.square(rt.values))
    return reduce("mean", squares, axis, keepdims) - math_ops.square(reduce("mean", rt, axis, keepdims))


def _axes(axis, rank: int) -> list:
    if axis is None:
        return list(range(rank))
    axes = axis_arg(axis)
    items = axes if isinstance(axes, (list, tuple)) else [axes]
    normalized = sorted({int(a) % rank for a in items if -rank <= int(a) < rank})
    if len(normalized) != len(set(int(a) for a in items)):
        raise ValueError(f"axis {axis!r} is out of range for a RaggedTensor of rank {rank} (or names one twice)")
    return normalized


def _reduce_axes(kind, value, axes, keepdims):
    from . import math_ops
    from .ragged import RaggedTensor
    for axis in sorted(axes, reverse=True):   # the last first: the axes before it keep their numbers
        if not isinstance(value, RaggedTensor):
            value = getattr(math_ops, _DENSE_OPS[kind])(value, axis=axis, keepdims=keepdims)
        elif axis >= 2:
            value = value.with_values(getattr(math_ops, _DENSE_OPS[kind])(value.values, axis=axis - 1,
                                                                             keepdims=keepdims))
        else:
            value = _along_rows(kind, value) if axis == 1 else _across_rows(kind, value)
            if keepdims:
                from .array_ops import expand_dims
                value = expand_dims(value, axis)
    return value


def _along_rows(kind, rt):
    """Each row's values reduced: [rows, ...inner]."""
    from . import math_ops
    return getattr(math_ops, _SEGMENT_OPS[kind])(rt.values, rt.value_rowids(), rt.nrows())


def _across_rows(kind, rt):
    """The values at each position reduced over the rows long enough to have one: [longest row, ...inner]."""
    from . import array_ops, math_ops
    from .indexing import gather
    rows = rt.value_rowids()
    positions = array_ops.range(array_ops.shape(rows, out_type=rows.dtype)[0], dtype=rows.dtype) - gather(
        rt.row_splits, rows)
    splits = array_ops.get_static_value(rt.row_splits)   # the longest row, while a graph is built too
    if splits is not None:
        longest = int(max(splits[1:] - splits[:-1], default=0))
    else:
        lengths = rt.row_lengths()
        longest = math_ops.reduce_max(array_ops.concat([lengths, array_ops.zeros_like(lengths[:1])], 0))
    return getattr(math_ops, _SEGMENT_OPS[kind])(rt.values, positions, longest)


def _ones_like(rt):
    from .array_ops import ones_like
    return rt.with_values(ones_like(rt.values))
