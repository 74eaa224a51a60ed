"""RaggedTensor's indexing, Python operators and printing, as TensorFlow has them: `rt[i]` is row i (a tensor,
or a RaggedTensor when more ragged dimensions follow), `rt[a:b]` the rows a..b, `rt[:, a:b]` every row cut;
an int index into a ragged dimension is refused as TF refuses it. Elementwise operators apply to the flat
values: with a scalar or a tensor of the values' inner shape, or with a RaggedTensor of the same row
partitions. RaggedTensors compare elementwise and are unhashable, as tensors are."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import errors


def format_value(value) -> str:
    """TF's text of a RaggedTensor's numpy() value: nested brackets with comma separators."""
    with np.printoptions(formatter={"all": _format_entry}):
        return _format_entry(value)


def _format_entry(x) -> str:
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size else repr(x.tolist())
    return str(x)


# -- indexing ---------------------------------------------------------------------------------------------------

def getitem(rt, key):
    """rt[key]: ints and slices on the rows, slices on the ragged dimensions, any index on the uniform ones."""
    keys = key if isinstance(key, tuple) else (key,)
    for k in keys:
        if k is Ellipsis or k is None or (hasattr(k, "dtype") and not _is_int(k)):
            raise NotImplementedError(f"Indexing a RaggedTensor with {k!r} is not implemented in placeflow; index "
                                      f"its rows with ints and slices.")
    if not keys:
        return rt
    first, rest = keys[0], keys[1:]
    if isinstance(first, slice):
        rows = _slice_rows(rt, first)
        return _index_inner(rows, rest) if rest else rows
    row = _row(rt, first)
    return row[rest] if rest else row


def _is_int(k) -> bool:
    return getattr(getattr(k, "dtype", None), "is_integer", False) and len(getattr(k, "shape", ())) == 0


def _row(rt, index):
    """Row `index` (an int or an int scalar tensor; negative counts from the end)."""
    from . import math_ops
    from .ragged import RaggedTensor
    count = rt.shape[0]
    if isinstance(index, (int, np.integer)):
        index = int(index)
        if count is not None:
            if index >= count:
                raise IndexError(f"Row key {index} out of bounds")
            if index < -count:  # TF: the row splits' strided slice fails
                raise errors.InvalidArgumentError(None, None, (
                    f"slice index {index + count} of dimension 0 out of bounds. (row {index} of a RaggedTensor of "
                    f"{count} rows)"))
            index %= count
        elif index < 0:
            index = rt.nrows() + index
    splits = rt.row_splits
    index = math_ops.cast(convert_to_tensor(index), splits.dtype)
    start, stop = splits[index], splits[index + 1]
    return _rows_range(rt.values, start, stop) if isinstance(rt.values, RaggedTensor) else \
        _take(rt.values, start, stop)


def _take(values, start, stop):
    """values[start:stop] along the first dimension (bounds may be tensors)."""
    from . import array_ops, indexing
    return indexing.gather(values, array_ops.range(start, stop))


def _rows_range(rt, start, stop):
    """The rows start..stop of a RaggedTensor (bounds may be tensors)."""
    from .ragged import RaggedTensor
    splits = rt.row_splits
    new_splits = _take(splits, start, stop + 1) - splits[start]
    inner_start, inner_stop = splits[start], splits[stop]
    values = _rows_range(rt.values, inner_start, inner_stop) if isinstance(rt.values, RaggedTensor) else \
        _take(rt.values, inner_start, inner_stop)
    return RaggedTensor(values, new_splits, internal=True, uniform_row_length=rt._uniform)


def _slice_rows(rt, key: slice):
    """rt[key] on the rows: a contiguous range, or (with a step) the rows gathered."""
    count = rt.shape[0]
    if key.step in (None, 1) and count is not None:
        start, stop, _ = key.indices(count)
        stop = max(start, stop)
        return _rows_range(rt, start, stop)
    if count is None:
        raise NotImplementedError("Slicing the rows of a RaggedTensor whose number of rows is known only when the "
                                  "graph runs is not implemented in placeflow.")
    return gather_rows(rt, list(range(count))[key])


def gather_rows(rt, rows):
    """The RaggedTensor of rt's rows `rows` (a list of ints), in that order (eager partitions)."""
    from . import indexing
    from .ragged import RaggedTensor
    splits = _host_splits(rt.row_splits)
    lengths = np.array([splits[r + 1] - splits[r] for r in rows], dtype=np.int64)
    picks = [np.arange(splits[r], splits[r + 1]) for r in rows]
    inner = [int(v) for v in np.concatenate(picks)] if picks else []
    new_splits = convert_to_tensor(np.concatenate([[0], np.cumsum(lengths)]).astype(
        rt.row_splits.dtype.numpy_dtype))
    values = gather_rows(rt.values, inner) if isinstance(rt.values, RaggedTensor) else \
        indexing.gather(rt.values, convert_to_tensor(np.asarray(inner, np.int64)))
    return RaggedTensor(values, new_splits, internal=True, uniform_row_length=rt._uniform)


def _host_splits(splits) -> np.ndarray:
    if not hasattr(splits, "numpy"):
        raise NotImplementedError("This RaggedTensor indexing needs row partitions known before the graph runs; "
                                  "it is not implemented in placeflow inside a function.")
    return np.asarray(splits.numpy()).astype(np.int64)


def _index_inner(rt, keys):
    """`keys` applied to dimensions 1.. of every row: slices on a ragged dimension, anything on uniform ones."""
    from .ragged import RaggedTensor
    first, rest = keys[0], keys[1:]
    if rt._uniform is not None and not isinstance(first, slice):
        raise NotImplementedError("An int index into a uniform-length row dimension of a RaggedTensor is not "
                                  "implemented in placeflow; slice it instead.")
    if not isinstance(first, slice):
        raise ValueError("Cannot index into an inner ragged dimension.")
    if first != slice(None):
        rt = _slice_each_row(rt, first)
    if not rest:
        return rt
    values = rt.values
    inner = _index_inner(values, rest) if isinstance(values, RaggedTensor) else values[(slice(None),) + rest]
    return RaggedTensor(inner, rt.row_splits, internal=True, uniform_row_length=rt._uniform)


def _slice_each_row(rt, key: slice):
    """Every row cut by `key` (eager partitions)."""
    from . import indexing
    from .ragged import RaggedTensor
    splits = _host_splits(rt.row_splits)
    picks = [np.arange(splits[i], splits[i + 1])[key] for i in range(len(splits) - 1)]
    lengths = [len(p) for p in picks]
    inner = [int(v) for v in np.concatenate(picks)] if picks else []
    new_splits = convert_to_tensor(np.concatenate([[0], np.cumsum(lengths)]).astype(
        rt.row_splits.dtype.numpy_dtype))
    values = gather_rows(rt.values, inner) if isinstance(rt.values, RaggedTensor) else \
        indexing.gather(rt.values, convert_to_tensor(np.asarray(inner, np.int64)))
    return RaggedTensor(values, new_splits, internal=True)


# -- elementwise operators --------------------------------------------------------------------------------------

def check_same_partitions(a, b) -> None:
    """InvalidArgumentError unless RaggedTensors a and b split their values into the same rows (eagerly)."""
    if a.ragged_rank != b.ragged_rank:
        raise ValueError(f"The RaggedTensors have different ragged ranks ({a.ragged_rank} and {b.ragged_rank}); "
                         f"elementwise operations need the same row partitions.")
    if a.row_splits.dtype != b.row_splits.dtype:
        raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")
    for x, y in zip(a.nested_row_splits, b.nested_row_splits):
        if hasattr(x, "numpy") and hasattr(y, "numpy") and not np.array_equal(x.numpy(), y.numpy()):
            raise errors.InvalidArgumentError(None, None, (
                f"Input tensors have incompatible shapes: the RaggedTensors' row partitions differ "
                f"(row_splits {np.asarray(x.numpy()).tolist()} and {np.asarray(y.numpy()).tolist()}); elementwise "
                f"operations need the same rows.\nCondition x == y did not hold."))


def _flat_operand(rt, other):
    """`other` as an operand of rt's flat values."""
    from .ragged import RaggedTensor
    if isinstance(other, RaggedTensor):
        check_same_partitions(rt, other)
        return other.flat_values
    dense = convert_to_tensor(other) if not hasattr(other, "dtype") else other
    if dense.dtype != rt.dtype and not hasattr(other, "dtype"):
        dense = convert_to_tensor(other, dtype=rt.dtype)
    inner = len(rt.flat_values.shape) - 1
    if len(dense.shape) <= inner:
        return dense
    if rt.ragged_rank == 1 and len(dense.shape) == inner + 2:
        operand = _row_operand(rt, dense)
        if operand is not None:
            return operand
    raise NotImplementedError(f"An elementwise operation of a RaggedTensor of shape {rt.shape} with a tensor of shape "
                              f"{tuple(dense.shape)} is not implemented in placeflow: give a scalar, a tensor of the "
                              f"values' inner shape, or a RaggedTensor of the same rows.")


def _row_operand(rt, dense):
    """A dense [rows or 1, 1 or row length, ...] operand of a ragged-rank-1 RaggedTensor as an operand of its flat
    values; TF's InvalidArgumentError where the shapes cannot broadcast; None where the row lengths are known
    only when the graph runs."""
    from . import indexing
    from .array_ops import reshape
    lengths = rt.row_lengths()
    if not hasattr(lengths, "numpy"):
        return None
    lengths = np.asarray(lengths.numpy())
    rows, width = dense.shape[0], dense.shape[1]
    if rows not in (1, len(lengths)) or (width != 1 and not (lengths == width).all()):
        raise errors.InvalidArgumentError(None, None, (
            f"Condition x == y did not hold.\nInput tensors have incompatible shapes: a RaggedTensor of "
            f"{len(lengths)} rows of lengths {lengths.tolist()} and a tensor of shape {tuple(dense.shape)}."))
    if rows == 1 and width != 1:   # TF 2.21 refuses this broadcast too, with this text
        raise errors.InvalidArgumentError(None, None, "Last row partition does not match flat_values.\nCondition "
                                                      "x == y did not hold.")
    if width == 1:   # each row's entry broadcast over the row
        return dense[0, 0] if rows == 1 else indexing.gather(dense[:, 0], rt.value_rowids())
    uniform = indexing.broadcast_to(dense, [len(lengths), width] + list(dense.shape[2:]))   # every row `width` long
    return reshape(uniform, [-1] + list(dense.shape[2:]))


def _op(name):
    """math_ops.<name>, looked up when first called (math_ops imports this module's users)."""
    def call(*args):
        from . import math_ops
        return getattr(math_ops, name)(*args)
    return call


def _binary(name, reverse=False):
    op = _op(name)

    def apply(self, other):
        if other is None:
            return NotImplemented
        values = _flat_operand(self, other)
        flat = op(values, self.flat_values) if reverse else op(self.flat_values, values)
        return self.with_flat_values(flat)
    return apply


def _equality(name, when_incomparable):
    compare = _binary(name)

    def apply(self, other):
        if other is None:
            return when_incomparable
        try:
            return compare(self, other)
        except (ValueError, TypeError, NotImplementedError, errors.InvalidArgumentError):
            return when_incomparable
    return apply


def _unary(name):
    op = _op(name)
    return lambda self: self.with_flat_values(op(self.flat_values))


def _unhashable(self):
    raise TypeError("RaggedTensor is unhashable.")


def _no_bool(self):
    raise TypeError("RaggedTensor may not be used as a boolean.")


def install(cls) -> None:
    """Give RaggedTensor its indexing and operators."""
    cls.__getitem__ = getitem
    binary = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide", "floordiv": "floordiv",
              "mod": "floormod", "pow": "pow", "and": "logical_and", "or": "logical_or", "xor": "logical_xor"}
    for name, op in binary.items():
        setattr(cls, f"__{name}__", _binary(op))
        setattr(cls, f"__r{name}__", _binary(op, reverse=True))
    cls.__div__, cls.__rdiv__ = cls.__truediv__, cls.__rtruediv__
    for name, op in {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal"}.items():
        setattr(cls, f"__{name}__", _binary(op))
    cls.__eq__ = _equality("equal", False)
    cls.__ne__ = _equality("not_equal", True)
    cls.__neg__, cls.__abs__, cls.__invert__ = _unary("negative"), _unary("abs"), _unary("logical_not")
    cls.__hash__ = _unhashable
    cls.__bool__ = _no_bool
