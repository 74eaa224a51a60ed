"""More of tf.ragged: range, boolean_mask, stack (of tensors and RaggedTensors of any ragged rank),
stack_dynamic_partitions, row_splits_to_segment_ids, segment_ids_to_row_splits, cross and cross_hashed; and the
RaggedTensor factories and conversions that build nested values (tf.ragged.constant's parsing of nested lists,
from_tensor, from_sparse, to_sparse, merge_dims)."""

from __future__ import annotations

import builtins

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes, errors
from ..eager.execute import execute
from .ragged import RaggedTensor, _refuse


def _from_rows(rows, dtype, splits_dtype=dtypes.int64) -> RaggedTensor:
    lengths = [len(r) for r in rows]
    values = np.concatenate([np.asarray(r, dtype.numpy_dtype) for r in rows]) if rows else np.zeros(0, dtype.numpy_dtype)
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(splits_dtype.numpy_dtype)
    return RaggedTensor.from_row_splits(convert_to_tensor(values.astype(dtype.numpy_dtype), dtype=dtype),
                                        convert_to_tensor(splits))


def range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=dtypes.int64):  # noqa: A001
    """Row i is range(starts[i], limits[i], deltas[i]) (scalars broadcast; one argument: the limits); eagerly
    and inside a function."""
    from .math_ops import cast
    if limits is None:
        starts, limits = 0, starts
    parts = [convert_to_tensor(v) for v in (starts, limits, deltas)]
    kinds = [p.dtype.numpy_dtype for p in parts]
    dtype = dtypes.as_dtype(dtype) if dtype is not None else dtypes.as_dtype(np.result_type(*kinds).type)
    if dtype == dtypes.float64 and all(k == np.float32 for k in kinds if np.dtype(k).kind == "f"):
        dtype = dtypes.float32
    parts = [p if p.dtype == dtype else cast(p, dtype) for p in parts]
    values, splits = execute("_RaggedRange", tuple(parts), dtype,
                             {"splits_dtype": dtypes.as_dtype(row_splits_dtype)}, name=name)
    return RaggedTensor(values, splits, internal=True)


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row id of every value, from row splits."""
    splits = convert_to_tensor(splits)
    array = np.asarray(splits.numpy())
    out = dtypes.as_dtype(out_type) if out_type is not None else splits.dtype
    return convert_to_tensor(np.repeat(np.arange(len(array) - 1), np.diff(array)).astype(out.numpy_dtype))


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """Row splits from the (sorted) row id of every value; num_segments rows (default: the last id + 1)."""
    ids = convert_to_tensor(segment_ids)
    array = np.asarray(ids.numpy()).astype(np.int64)
    count = int(num_segments) if num_segments is not None else (int(array.max()) + 1 if array.size else 0)
    lengths = np.bincount(array, minlength=count)[:count]
    out = dtypes.as_dtype(out_type) if out_type is not None else ids.dtype
    return convert_to_tensor(np.concatenate([[0], np.cumsum(lengths)]).astype(out.numpy_dtype))


def boolean_mask(data, mask, name=None):
    """The entries of `data` where `mask` is True, each row of a rank-2 mask kept as a ragged row."""
    data, mask = convert_to_tensor(data), convert_to_tensor(mask)
    values, keep = np.asarray(data.numpy()), np.asarray(mask.numpy())
    if keep.ndim == 1:
        return convert_to_tensor(values[keep])
    if keep.ndim != 2 or values.shape[:2] != keep.shape:
        _refuse(f"tf.ragged.boolean_mask with a mask of shape {keep.shape} (a rank-2 mask is implemented)")
    return _from_rows([row[k] for row, k in zip(values, keep)], data.dtype)


def stack(values, axis=0, name=None):
    """Tensors and RaggedTensors of one rank stacked along a new axis: axis 0, row i of the result holds input
    i's rows (rank-1 tensors become the rows of a ragged_rank-1 result); axis 1, row i holds row i of each."""
    values = list(values)
    if not values:
        raise ValueError("rt_inputs may not be empty.")
    if int(axis) != 0:
        inputs = _matched_inputs(values) if any(isinstance(v, RaggedTensor) for v in values) else None
        if inputs and int(axis) in (1, -inputs[0].shape.rank) and all(rt.ragged_rank == 1 for rt in inputs):
            return _stack_within_rows(inputs)
        _refuse(f"tf.ragged.stack(axis={axis}) (axis 0, and axis 1 of ragged_rank-1 inputs, are implemented)")
    if not any(isinstance(v, RaggedTensor) for v in values):
        tensors = [convert_to_tensor(v) for v in values]
        if all(len(t.shape) == 1 for t in tensors):  # vectors: the rows of the result (TF: int32 row splits)
            return _from_rows([t.numpy() for t in tensors], tensors[0].dtype, dtypes.int32)
        if any(len(t.shape) == 0 for t in tensors):
            from .array_ops import stack as dense_stack
            return dense_stack(tensors)
    inputs = _matched_inputs(values)
    rows = concat_rows(inputs)
    lengths = [_nrows(rt) for rt in inputs]
    splits = convert_to_tensor(np.concatenate([[0], np.cumsum(lengths)]).astype(
        inputs[0].row_splits.dtype.numpy_dtype))
    return RaggedTensor(rows, splits, internal=True)


def concat(values, axis, name=None):
    """Tensors and RaggedTensors of one rank joined along `axis` (what tf.concat does when one is ragged): axis 0
    puts the rows of each input after the other's; axis 1 joins row i of every input (ragged_rank-1 inputs)."""
    values = list(values)
    if not values:
        raise ValueError("rt_inputs may not be empty.")
    inputs = _matched_inputs(values)
    rank = inputs[0].shape.rank
    axis = int(axis) + rank if int(axis) < 0 else int(axis)
    if not 0 <= axis < rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
    if len(inputs) == 1:
        return inputs[0]
    if axis == 0:
        return concat_rows(inputs)
    if axis == 1 and all(rt.ragged_rank == 1 for rt in inputs):
        return _concat_within_rows(inputs)
    _refuse(f"tf.concat of RaggedTensors along axis {axis} (ragged_rank {max(rt.ragged_rank for rt in inputs)}; "
            f"axis 0, and axis 1 of ragged_rank-1 inputs, are implemented)")


def _interleaved(inputs):
    """(values, lengths): row i of each input, one after another, for i in order (inputs of ragged_rank 1 and
    equal row counts); lengths[i, k] is the length of row i of input k."""
    from .array_ops import concat as dense_concat
    from .indexing import gather
    counts = {_nrows(rt) for rt in inputs}
    if len(counts) != 1:
        raise errors.InvalidArgumentError(None, None, f"Input tensors have incompatible shapes: row counts "
                                                      f"{[_nrows(rt) for rt in inputs]}")
    splits = [np.asarray(rt.row_splits.numpy()) for rt in inputs]
    starts = np.cumsum([0] + [int(s[-1]) for s in splits[:-1]])
    rows = counts.pop()
    order = [np.arange(s[i], s[i + 1]) + start for i in builtins.range(rows) for s, start in zip(splits, starts)]
    index = np.concatenate(order).astype(np.int64) if order else np.zeros(0, np.int64)
    values = gather(dense_concat([rt.values for rt in inputs], 0), convert_to_tensor(index))
    lengths = np.stack([np.diff(s) for s in splits], axis=1).astype(splits[0].dtype).reshape(rows, len(inputs))
    return values, lengths


def _concat_within_rows(inputs):
    """Row i of the result: row i of each input joined (tf.concat axis 1 of ragged_rank-1 inputs)."""
    values, lengths = _interleaved(inputs)
    return RaggedTensor.from_row_lengths(values, convert_to_tensor(lengths.sum(axis=1).astype(lengths.dtype)))


def _stack_within_rows(inputs):
    """Row i of the result: the rows i of the inputs as its sub-rows (tf.stack axis 1 of ragged_rank-1 inputs)."""
    values, lengths = _interleaved(inputs)
    inner = RaggedTensor.from_row_lengths(values, convert_to_tensor(lengths.reshape(-1)))
    outer = np.arange(lengths.shape[0] + 1, dtype=lengths.dtype) * len(inputs)
    return RaggedTensor.from_row_splits(inner, convert_to_tensor(outer))


def _nrows(rt) -> int:
    count = rt.shape[0]
    if count is None:
        raise NotImplementedError("tf.ragged.stack of RaggedTensors whose number of rows is known only when the graph "
                                  "runs is not implemented in placeflow.")
    return int(count)


def _matched_inputs(values) -> list:
    """The inputs as RaggedTensors of one rank, ragged rank and row_splits dtype (TF's errors otherwise)."""
    ragged = [v for v in values if isinstance(v, RaggedTensor)]
    kinds = {rt.row_splits.dtype for rt in ragged}
    if len(kinds) > 1:
        raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")
    splits_dtype = kinds.pop() if kinds else dtypes.int64
    inputs = [v if isinstance(v, RaggedTensor) else convert_to_tensor(v) for v in values]
    rank = inputs[0].shape.rank if isinstance(inputs[0], RaggedTensor) else len(inputs[0].shape)
    for value in inputs[1:]:
        have = value.shape.rank if isinstance(value, RaggedTensor) else len(value.shape)
        if have != rank:
            raise ValueError(f"Shape {_shape_text(value.shape)} must have rank {rank}")
    inputs = [v if isinstance(v, RaggedTensor) else
              RaggedTensor.from_tensor(v, ragged_rank=1, row_splits_dtype=splits_dtype) for v in inputs]
    deepest = max(rt.ragged_rank for rt in inputs)
    return [_raise_ragged_rank(rt, deepest) for rt in inputs]


def _shape_text(shape) -> str:
    dims = ["None" if d is None else str(d) for d in (shape.as_list() if hasattr(shape, "as_list") else shape)]
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


def _raise_ragged_rank(value, ragged_rank):
    """`value` with `ragged_rank` ragged dimensions (uniform dimensions of its values made ragged)."""
    if isinstance(value, RaggedTensor):
        if value.ragged_rank >= ragged_rank:
            return value
        return value.with_values(_raise_ragged_rank(value.values, ragged_rank - 1))
    if ragged_rank == 0:
        return value
    return RaggedTensor.from_tensor(value, ragged_rank=ragged_rank)


def concat_rows(inputs):
    """The rows of RaggedTensors (one ragged rank, one row_splits dtype), one input after another."""
    from .array_ops import concat
    if not isinstance(inputs[0], RaggedTensor):
        return concat(list(inputs), 0)
    values = concat_rows([rt.values for rt in inputs])
    parts, offset = [], None
    for rt in inputs:
        splits = rt.row_splits
        parts.append(splits if offset is None else splits[1:] + offset)
        offset = splits[-1] if offset is None else offset + splits[-1]
    return RaggedTensor(values, concat(parts, 0), internal=True)


def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """Row i holds the entries of `data` whose partition is i, in their order."""
    data, partitions = convert_to_tensor(data), convert_to_tensor(partitions)
    values, which = np.asarray(data.numpy()), np.asarray(partitions.numpy())
    count = int(num_partitions)
    if which.size and (which.min() < 0 or which.max() >= count):
        raise errors.InvalidArgumentError(None, None, f"partitions must be in [0, {count}); got {which.tolist()}")
    return _from_rows([values[which == i] for i in np.arange(count)], data.dtype, dtypes.int32)


def _as_sparse(value):
    from .sparse import SparseTensor
    if not isinstance(value, RaggedTensor):
        return value
    splits = np.asarray(value.row_splits.numpy())
    rows = np.repeat(np.arange(len(splits) - 1), np.diff(splits))
    columns = np.arange(len(rows)) - np.repeat(splits[:-1], np.diff(splits))
    width = int(np.diff(splits).max()) if len(splits) > 1 else 0
    return SparseTensor(np.stack([rows, columns], axis=1), value.values, [len(splits) - 1, width])


def _as_ragged(sparse) -> RaggedTensor:
    indices = np.asarray(sparse.indices.numpy())
    rows = int(sparse.dense_shape.numpy()[0])
    splits = np.concatenate([[0], np.cumsum(np.bincount(indices[:, 0], minlength=rows))]).astype(np.int64)
    return RaggedTensor.from_row_splits(sparse.values, convert_to_tensor(splits))


def cross(inputs, name=None):
    """Crossed string features of ragged, sparse or dense inputs, row by row, as a RaggedTensor."""
    from .sparse import cross as sparse_cross
    return _as_ragged(sparse_cross([_as_sparse(v) for v in inputs]))


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """Hashed crossed features (TF's FingerprintCat64), row by row, as a RaggedTensor."""
    from .sparse import cross_hashed as sparse_cross_hashed
    return _as_ragged(sparse_cross_hashed([_as_sparse(v) for v in inputs], num_buckets, hash_key))


# -- nested lists (tf.ragged.constant) --------------------------------------------------------------------------

def _depths(pylist):
    """(the nesting depth of the scalars, None when there are none; the deepest nesting, empty lists included);
    ValueError when the scalars sit at different depths."""
    if not isinstance(pylist, (list, tuple)) and np.ndim(pylist) == 0:
        return 0, 0
    scalar, deepest = None, 1
    for child in pylist:
        child_scalar, child_deepest = _depths(child)
        if child_scalar is not None:
            if scalar is not None and scalar != child_scalar + 1:
                raise ValueError("all scalar values must have the same nesting depth")
            scalar = child_scalar + 1
        deepest = max(deepest, child_deepest + 1)
    return scalar, deepest


def _is_list(item) -> bool:
    return isinstance(item, (list, tuple)) or np.ndim(item) != 0


def _inner_shape_of(pylist, ragged_rank) -> tuple:
    """The shape of the values below `ragged_rank` ragged levels (which must all agree)."""
    flat = list(pylist)
    for level in builtins.range(ragged_rank):
        if not all(_is_list(v) for v in flat):
            raise ValueError(f"pylist has scalar values depth {level + 1}, but ragged_rank={ragged_rank} requires "
                             f"scalar value depth greater than {ragged_rank}")
        flat = [x for v in flat for x in v]

    def shape_of(item):
        if not _is_list(item):
            return ()
        return (len(item),) + shape_of(item[0]) if len(item) else (0,)

    def check(item, shape):
        if _is_list(item) != bool(shape) or (shape and shape[0] != len(item)):
            raise ValueError("inner values have inconsistent shape")
        for child in (item if shape else ()):
            check(child, shape[1:])
    shape = shape_of(flat)
    check(flat, shape)
    return shape[1:]


def constant_parts(pylist, ragged_rank, inner_shape):
    """(flat values as a list, the row splits of each ragged level or None for a dense result, the values'
    inner shape) of tf.ragged.constant's nested lists, with TF's errors."""
    if not isinstance(pylist, (list, tuple)) and np.ndim(pylist) == 0:
        if ragged_rank not in (None, 0):
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank}")
        if inner_shape:
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with dim(inner_shape)={len(inner_shape)}")
        return pylist, None, None
    if ragged_rank is not None and ragged_rank < 0:
        raise ValueError(f"Invalid ragged_rank={ragged_rank!r}: must be nonnegative")
    scalar, deepest = _depths(pylist)
    if scalar is not None and deepest > scalar:
        raise ValueError(f"Invalid pylist={pylist!r}: empty list nesting is greater than scalar value nesting")
    if scalar is not None and ragged_rank is not None and deepest < ragged_rank:
        raise ValueError(f"Invalid pylist={pylist}, max depth smaller than ragged_rank={ragged_rank}")
    if inner_shape is not None and ragged_rank is not None:
        expected = ragged_rank + len(inner_shape) + 1
        if (scalar is not None and expected != scalar) or (scalar is None and expected < deepest):
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank} and "
                             f"dim(inner_shape)={len(inner_shape)}")
    if ragged_rank == 0 or (ragged_rank is None and (deepest < 2 or (inner_shape is not None and
                                                                      deepest - len(inner_shape) < 2))):
        return pylist, None, None if inner_shape is None else tuple(inner_shape)
    if inner_shape is None:
        inner_shape = () if ragged_rank is None else _inner_shape_of(pylist, ragged_rank)
    if ragged_rank is None:
        ragged_rank = max(1, deepest - 1) if scalar is None else max(1, scalar - 1 - len(inner_shape))
    nested, values = [], list(pylist)
    for _ in builtins.range(ragged_rank):
        splits, flat = [0], []
        for row in values:
            splits.append(splits[-1] + len(row))
            flat.extend(row)
        nested.append(splits)
        values = flat
    return values, nested, tuple(inner_shape)


# -- factories and conversions of RaggedTensor ------------------------------------------------------------------

def from_tensor(cls, tensor, lengths, padding, ragged_rank, name, row_splits_dtype):
    """RaggedTensor.from_tensor (see its docstring)."""
    from .array_ops import reshape
    from .math_ops import cast
    from .ragged import _splits_dtype, _static
    if lengths is not None and padding is not None:
        raise ValueError("Specify argument `lengths` or `padding`, but not both.")
    if isinstance(ragged_rank, bool) or not isinstance(ragged_rank, (int, np.integer)) or ragged_rank <= 0:
        raise ValueError(f"Argument `ragged_rank` must be greater than 0. Received {ragged_rank}.")
    ragged_rank = int(ragged_rank)
    wanted = _splits_dtype(row_splits_dtype)
    dense = convert_to_tensor(tensor)
    if dense.shape is None or len(dense.shape) < ragged_rank + 1:
        shown = "<unknown>" if dense.shape is None else _shape_text(dense.shape)
        raise ValueError(f"Shape {shown} must have rank at least {ragged_rank + 1}")
    dims = list(dense.shape)
    if any(d is None for d in dims[:ragged_rank + 1]):
        raise NotImplementedError("RaggedTensor.from_tensor of a tensor whose outer dimensions are known only when "
                                  "the graph runs is not implemented in placeflow.")
    if ragged_rank > 1:
        dense = reshape(dense, [int(np.prod(dims[:ragged_rank]))] + [int(d) for d in dims[ragged_rank:]])
    lengths_arg = None
    if lengths is not None:
        known = lengths if isinstance(lengths, (list, tuple)) else _static(lengths, "lengths")
        if isinstance(known, tuple) and ragged_rank > 1 and any(_is_list(v) for v in known):
            _refuse("RaggedTensor.from_tensor with a tuple of lengths per ragged dimension")
        known = np.asarray(known)
        if known.ndim != 1:
            raise ValueError(f"Shapes {_shape_text(dims)} and {_shape_text(list(known.shape) + [1])} are "
                             f"incompatible: from_tensor's lengths must be a vector, one length per innermost row "
                             f"({int(np.prod(dims[:ragged_rank]))} here).")
        lengths_arg = tuple(int(v) for v in known)
    attrs = {"lengths": lengths_arg, "padding": None if padding is None else _static(padding, "padding")}
    values, splits = execute("_RaggedFromTensor", (dense,), dense.dtype, attrs, name=name)
    if splits.dtype != wanted:
        splits = cast(splits, wanted)
    uniform = int(dims[ragged_rank]) if lengths is None and padding is None else None
    result = cls(values, splits, internal=True, uniform_row_length=uniform)
    for size in reversed(dims[1:ragged_rank]):
        count = (int(result.shape[0]) if result.shape[0] is not None else 0) // int(size) if size else 0
        outer = convert_to_tensor(np.arange(count + 1, dtype=np.int64) * int(size), dtype=wanted)
        result = cls(result, outer, internal=True, uniform_row_length=int(size))
    return result


def from_sparse(cls, st_input, row_splits_dtype):
    """RaggedTensor.from_sparse: the rows of a rank-2 SparseTensor filled from the start of each row."""
    from ..framework.errors import InvalidArgumentError
    from .ragged import _splits_dtype
    if not all(hasattr(st_input, k) for k in ("indices", "values", "dense_shape")):
        raise TypeError(f"Expected SparseTensor, got {type(st_input).__name__}: {st_input!r}.")
    indices = np.asarray(st_input.indices.numpy(), np.int64)
    shape = np.asarray(st_input.dense_shape.numpy(), np.int64)
    if indices.ndim != 2 or indices.shape[1] != 2:
        raise ValueError("rank(st_input) must be 2.")
    rows = int(shape[0])
    counts = np.bincount(indices[:, 0], minlength=rows)[:rows] if len(indices) else np.zeros(rows, np.int64)
    expected = np.concatenate([np.arange(c) for c in counts]) if len(indices) else np.zeros(0, np.int64)
    ordered = np.all(np.diff(indices[:, 0]) >= 0) if len(indices) else True
    if not ordered or not np.array_equal(indices[:, 1], expected):
        raise InvalidArgumentError(None, None, f"SparseTensor is not right-ragged: each row's values must fill its "
                                               f"first columns in order; SparseTensor.indices = {indices.tolist()}")
    splits = np.concatenate([[0], np.cumsum(counts)]).astype(_splits_dtype(row_splits_dtype).numpy_dtype)
    return cls(st_input.values, convert_to_tensor(splits), internal=True)


def _coordinates(rt) -> np.ndarray:
    """[number of flat values, ragged_rank + 1]: the position of each flat value in the outer dimensions."""
    splits = np.asarray(rt.row_splits.numpy(), np.int64)
    lengths = np.diff(splits)
    rows = np.repeat(np.arange(len(lengths)), lengths)
    columns = np.arange(int(splits[-1])) - np.repeat(splits[:-1], lengths)
    outer = np.stack([rows, columns], axis=1)
    if not isinstance(rt.values, RaggedTensor):
        return outer
    inner = _coordinates(rt.values)
    return np.concatenate([outer[inner[:, 0]], inner[:, 1:]], axis=1)


def to_sparse(rt):
    """RaggedTensor.to_sparse: every value's index, the bounding shape as the dense shape."""
    from .sparse import SparseTensor
    from .array_ops import reshape
    if not rt._is_eager():
        _refuse("RaggedTensor.to_sparse inside a function")
    coords = _coordinates(rt)
    flat = rt.flat_values
    inner = tuple(int(d) for d in flat.shape[1:])
    if inner:
        grid = np.indices(inner).reshape(len(inner), -1).T
        coords = np.concatenate([np.repeat(coords, len(grid), axis=0), np.tile(grid, (len(coords), 1))], axis=1)
        flat = reshape(flat, [-1])
    return SparseTensor(coords.reshape(-1, len(inner) + rt.ragged_rank + 1), flat,
                        rt.bounding_shape(out_type=dtypes.int64))


def merge_dims(rt, outer_axis, inner_axis):
    """RaggedTensor.merge_dims: dimensions outer_axis..inner_axis as one (a tensor when all are merged)."""
    from .array_ops import reshape
    from .indexing import gather
    rank = rt.shape.rank
    outer, inner = int(outer_axis), int(inner_axis)
    outer, inner = outer % rank if outer < 0 else outer, inner % rank if inner < 0 else inner
    if not 0 <= outer < rank or not 0 <= inner < rank:
        raise ValueError(f"merge_dims axes ({outer_axis}, {inner_axis}) out of bounds for rank {rank}.")
    if outer > inner:
        raise ValueError(f"Expected outer_axis ({outer}) to be less than or equal to inner_axis ({inner})")
    if outer == inner:
        return rt
    if outer == 0:
        values = rt.values
        if inner == 1:
            return values
        if isinstance(values, RaggedTensor):
            return merge_dims(values, 0, inner - 1)
        return reshape(values, [-1] + [int(d) for d in values.shape[inner:]])
    values = rt.values
    if outer >= 2:
        merged = merge_dims(values, outer - 1, inner - 1) if isinstance(values, RaggedTensor) else \
            reshape(values, [int(d) for d in values.shape[:outer - 1]] + [-1] + [int(d) for d in values.shape[inner:]])
        return rt.with_values(merged)
    if isinstance(values, RaggedTensor):  # dims 1 and 2 joined: each row's values' rows become its values
        joined = RaggedTensor(values.values, gather(values.row_splits, rt.row_splits), internal=True)
    else:
        size = int(values.shape[1])
        joined = RaggedTensor(reshape(values, [-1] + [int(d) for d in values.shape[2:]]), rt.row_splits * size,
                              internal=True)
    return merge_dims(joined, 1, inner - 1)
