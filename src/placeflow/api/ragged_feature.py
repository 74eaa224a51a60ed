"""RaggedFeature partitions: one record's (or step's) values nested by its partitions (RowSplits, RowLengths,
RowStarts, RowLimits, ValueRowIds, UniformRowLength, outermost first), records and steps grouped into outer
ragged dimensions, as tf.io.parse_example / parse_sequence_example build them. Parsing is host-side (NumPy)."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import errors


def _invalid(spec, partition, why: str):
    return errors.InvalidArgumentError(None, None, f"RaggedFeature {spec.value_key!r} partition {partition!r}: {why}; "
                                                   f"give partition values that cover the values exactly.")


def _splits(partition, parts: dict, count: int, spec) -> np.ndarray:
    """The row splits (from 0) that `partition` makes of `count` inner items."""
    kind = type(partition).__name__
    if kind == "UniformRowLength":
        length = int(partition.length)
        if length <= 0 or count % length:
            if length == 0 and count == 0:
                return np.zeros(1, np.int64)
            raise _invalid(spec, partition, f"{count} values cannot form rows of {length}")
        return np.arange(count // length + 1, dtype=np.int64) * length
    given = np.asarray(parts[partition.key], dtype=np.int64)
    if kind == "RowSplits":  # the first split is taken as 0, as TF does
        splits = np.concatenate([[0], given[1:]])
    elif kind == "RowLimits":
        splits = np.concatenate([[0], given])
    elif kind == "RowStarts":
        splits = np.concatenate([given, [count]])
    elif kind == "RowLengths":
        splits = np.concatenate([[0], np.cumsum(given)])
    else:  # ValueRowIds: row i holds the values whose id is i (ids sorted), max id + 1 rows
        if given.size and (given[0] < 0 or np.any(np.diff(given) < 0)):
            raise _invalid(spec, partition, f"value row ids {given.tolist()} must be sorted and non-negative")
        if given.size != count:
            raise _invalid(spec, partition, f"{given.size} value row ids for {count} values")
        rows = int(given[-1]) + 1 if given.size else 0
        splits = np.concatenate([[0], np.cumsum(np.bincount(given, minlength=rows))])
    splits = splits.astype(np.int64)
    if splits[0] != 0 or splits[-1] != count or np.any(np.diff(splits) < 0):
        raise _invalid(spec, partition, f"row splits {splits.tolist()} do not split {count} values (they must rise "
                                        f"from 0 to {count})")
    return splits


def _levels(unit, spec) -> tuple:
    """(values, [row splits per partition, outermost first], row count) of one record or step."""
    values, parts = unit
    count, levels = len(values), []
    for partition in reversed(spec.partitions):
        splits = _splits(partition, parts, count, spec)
        levels.insert(0, splits)
        count = len(splits) - 1
    return list(values), levels, count


def _group(items: list, depth: int) -> tuple:
    """`items` ((values, levels, rows) each) as one: their rows become one outer row each."""
    values = [v for item in items for v in item[0]]
    levels = []
    for level in range(depth):
        pieces, offset = [np.zeros(1, np.int64)], 0
        for item in items:
            splits = item[1][level]
            pieces.append(splits[1:] + offset)
            offset += int(splits[-1])
        levels.append(np.concatenate(pieces))
    outer = np.concatenate([[0], np.cumsum([item[2] for item in items], dtype=np.int64)]).astype(np.int64)
    return values, [outer] + levels, len(items)


def nest(units, spec, dtype, outer: int, make_tensor):
    """The RaggedTensor (or, with only an innermost UniformRowLength and no outer grouping, the dense tensor) of
    RaggedFeature `spec`: `units` is one (values, partition values by key) when outer == 0, a list of them when
    outer == 1, a list of lists when outer == 2; each list level becomes an outer ragged dimension."""
    from .ragged import RaggedTensor

    def build(node, depth_left):
        if depth_left == 0:
            return _levels(node, spec)
        inner = [build(child, depth_left - 1) for child in node]
        return _group(inner, len(spec.partitions) + depth_left - 1)

    values, levels, _ = build(units, outer)
    uniforms = [None] * outer + [int(p.length) if type(p).__name__ == "UniformRowLength" else None
                                 for p in spec.partitions]
    shape = None
    if uniforms and uniforms[-1] is not None:  # an innermost uniform partition is a dense dimension, as in TF
        shape = (-1, uniforms[-1])
        levels, uniforms = levels[:-1], uniforms[:-1]
    result = make_tensor(values, dtype, shape)
    for splits, uniform in zip(reversed(levels), reversed(uniforms)):
        result = RaggedTensor(result, convert_to_tensor(splits.astype(spec.row_splits_dtype.numpy_dtype),
                                                        dtype=spec.row_splits_dtype),
                              internal=True, uniform_row_length=uniform)
    return result
