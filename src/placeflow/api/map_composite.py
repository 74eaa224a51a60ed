"""map_fn over RaggedTensors and SparseTensors (see map_ops.py): their rows as fn's arguments, and fn's results
stacked into the RaggedTensor or SparseTensor that fn_output_signature describes, with TF's error when a
result does not match its spec."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes


def is_composite(value) -> bool:
    """A RaggedTensor or a SparseTensor."""
    from .ragged import RaggedTensor
    from .sparse import SparseTensor
    return isinstance(value, (RaggedTensor, SparseTensor))


def rows(value, count: int) -> list:
    """The `count` rows of a RaggedTensor (tensors, or RaggedTensors of one ragged dimension fewer) or of a
    SparseTensor (SparseTensors of one dimension fewer; eager)."""
    from .ragged import RaggedTensor
    if isinstance(value, RaggedTensor):
        return [value[i] for i in range(count)]
    from .sparse import SparseTensor
    if not hasattr(value.indices, "numpy"):
        raise NotImplementedError("tf.map_fn over a SparseTensor inside placeflow.function is not implemented; "
                                  "call it eagerly, or map over tf.sparse.to_dense of it.")
    indices, values = np.asarray(value.indices.numpy()), value.values
    dense_shape = np.asarray(value.dense_shape.numpy())
    out = []
    for row in range(count):
        keep = np.nonzero(indices[:, 0] == row)[0]
        from .indexing import gather
        out.append(SparseTensor(indices[keep][:, 1:].reshape(-1, len(dense_shape) - 1),
                                gather(values, convert_to_tensor(keep.astype(np.int64))), dense_shape[1:]))
    return out


def row_spec(value):
    """The spec of one row of a RaggedTensor or SparseTensor (TF's default fn_output_signature); None for a
    tensor (its results' dtypes are taken as they come)."""
    from .type_specs import RaggedTensorSpec, SparseTensorSpec
    from .ragged import RaggedTensor
    from .sparse import SparseTensor
    if isinstance(value, RaggedTensor):  # TF: the most general spec of a row (every dimension unknown)
        return RaggedTensorSpec([None] * (value.shape.rank - 1), value.dtype, value.ragged_rank - 1,
                                value.row_splits.dtype)
    if isinstance(value, SparseTensor):
        return SparseTensorSpec(None, value.dtype)
    return None


def _spec_text(value) -> str:
    from .type_specs import type_spec_from_value
    try:
        return repr(type_spec_from_value(value))
    except (TypeError, ValueError, NotImplementedError):
        return type(value).__name__


def _mismatch(spec, value):
    return ValueError(f"Error in map_fn:\n  Expected `fn` to return a:\n    {spec!r}\n  But it returned a:\n    "
                      f"{_spec_text(value)}\n    (value={value})\n  To fix, update the `fn_output_signature` (or "
                      f"`dtype`) argument to `map_fn`.")


def stack(column: list, spec):
    """fn's results for one output part stacked as `spec` (a RaggedTensorSpec, SparseTensorSpec, TensorSpec,
    dtype or None) says."""
    from . import array_ops
    from .ragged import RaggedTensor
    from .sparse import SparseTensor
    kind = type(spec).__name__
    if kind == "RaggedTensorSpec":
        return _stack_ragged(column, spec)
    if kind == "SparseTensorSpec":
        for value in column:
            if not isinstance(value, SparseTensor):
                raise _mismatch(spec, value)
        return _stack_sparse(column)
    for value in column:
        if isinstance(value, (RaggedTensor, SparseTensor)):
            from .type_specs import TensorSpec
            raise _mismatch(spec if hasattr(spec, "shape") else TensorSpec(None, value.dtype if spec is None
                                                                            else dtypes.as_dtype(spec)), value)
    return array_ops.stack([convert_to_tensor(r) for r in column])


def _stack_ragged(column, spec):
    from .array_ops import concat
    from .ragged import RaggedTensor
    from .ragged_more import concat_rows
    for value in column:
        got = value.ragged_rank if isinstance(value, RaggedTensor) else 0
        if got != spec.ragged_rank or value.dtype != spec.dtype or \
                not spec.shape.is_compatible_with(_shape_of(value)):
            raise _mismatch(spec, value)
    splits_dtype = spec.row_splits_dtype
    if spec.ragged_rank == 0:
        tensors = [convert_to_tensor(v) for v in column]
        lengths = np.array([int(t.shape[0]) for t in tensors], np.int64)
        values = concat(tensors, 0)
    else:
        column = [v.with_row_splits_dtype(splits_dtype) for v in column]
        lengths = np.array([int(v.shape[0]) for v in column], np.int64)
        values = concat_rows(column)
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(splits_dtype.numpy_dtype)
    uniform = spec.shape.as_list()[0] if spec.shape.rank else None  # a static row length the spec gives
    return RaggedTensor(values, convert_to_tensor(splits), internal=True, uniform_row_length=uniform)


def _shape_of(value):
    from ..framework.tensor_shape import TensorShape
    shape = value.shape
    return shape if isinstance(shape, TensorShape) else TensorShape(None if shape is None else list(shape))


def _stack_sparse(column):
    """SparseTensors of one rank as one SparseTensor with a batch dimension (each dimension the largest)."""
    from .sparse import SparseTensor
    from .array_ops import concat
    ranks = {int(v.dense_shape.shape[0]) for v in column}
    if len(ranks) != 1:
        raise ValueError(f"tf.map_fn: fn returned SparseTensors of different ranks {sorted(ranks)}; a "
                         f"SparseTensorSpec result needs one rank.")
    rank = ranks.pop()
    indices = [np.concatenate([np.full((int(v.indices.shape[0]), 1), row, np.int64),
                               np.asarray(v.indices.numpy()).reshape(-1, rank)], axis=1)
               for row, v in enumerate(column)]
    dense = np.max(np.stack([np.asarray(v.dense_shape.numpy()) for v in column]), axis=0) if rank else []
    return SparseTensor(np.concatenate(indices).reshape(-1, rank + 1), concat([v.values for v in column], 0),
                        np.concatenate([[len(column)], dense]).astype(np.int64))


def empty(spec):
    """map_fn's result over zero rows for a RaggedTensorSpec or SparseTensorSpec part (None for others)."""
    from .ragged import RaggedTensor
    from .sparse import SparseTensor
    kind = type(spec).__name__
    if kind not in ("RaggedTensorSpec", "SparseTensorSpec"):
        return None
    shape = spec.shape
    if shape.rank is None:
        raise NotImplementedError(f"tf.map_fn over zero elements with {spec!r} (unknown rank) is not implemented in "
                                  f"placeflow; give the spec's shape.")
    numpy_dtype = object if spec.dtype == dtypes.string else spec.dtype.numpy_dtype
    if kind == "SparseTensorSpec":
        return SparseTensor(np.zeros((0, shape.rank + 1), np.int64), np.zeros(0, numpy_dtype),
                            [0] + [d or 0 for d in shape.as_list()])
    inner = [d or 0 for d in shape.as_list()[spec.ragged_rank + 1:]]
    value = convert_to_tensor(np.zeros([0] + inner, numpy_dtype), dtype=spec.dtype)
    for _ in range(spec.ragged_rank + 1):
        value = RaggedTensor(value, convert_to_tensor(np.zeros(1, spec.row_splits_dtype.numpy_dtype)),
                             internal=True)
    return value
