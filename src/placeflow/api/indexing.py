"""Gathering, scattering and reshaping by index: gather, gather_nd, scatter_nd, tensor_scatter_nd_*,
boolean_mask, reverse, pad, broadcast_to, slice, unstack, size, rank, shape_n."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes, errors
from .axis_args import axis_arg, check_axes, rank_of
from .array_ops import _ints, reshape, shape, zeros_like

newaxis = None

_INDEX_TYPES = (dtypes.int32, dtypes.int64)


def _indices(value, op: str):
    """`value` as an index tensor (int32 by default); other dtypes are TF's InvalidArgumentError."""
    tensor = convert_to_tensor(value)
    if tensor.dtype not in _INDEX_TYPES:
        name = {"float32": "float", "float64": "double"}.get(tensor.dtype.name, tensor.dtype.name)
        raise errors.InvalidArgumentError(None, None, (
            f"Value for attr 'Tindices' of {name} is not in the list of allowed values: int32, int64\n\t; NodeDef: "
            f"{{{{node {op}}}}} [Op:{op}]\nplaceflow: cast the indices with placeflow.cast(indices, placeflow.int32)."))
    return tensor


def _no_batch_dims(batch_dims) -> None:
    if batch_dims:
        raise NotImplementedError(f"gather_nd(batch_dims={batch_dims}) is not implemented in placeflow; gather per "
                                  f"batch row or leave batch_dims=0.")


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Slices of `params` at `indices` along `axis` (0 when None; batch_dims when batch_dims is given): with
    batch_dims=b, batch entry i of indices picks from batch entry i of params (GatherV2 / _BatchGather)."""
    params, indices = convert_to_tensor(params), _indices(indices, "GatherV2")
    if batch_dims:
        return _batch_gather(params, indices, axis, int(batch_dims), name)
    axis = 0 if axis is None else axis_arg(axis, "Taxis", float_error=errors.InvalidArgumentError)
    rank = len(params.shape)
    if not -rank <= axis < max(rank, 1):
        raise errors.InvalidArgumentError(None, None, f"Shape must be at least rank {axis + 1} but is rank {rank} "
                                                      "[Op:GatherV2]")
    return execute("GatherV2", (params, indices), params.dtype, {"axis": axis % max(rank, 1)}, name=name)


def _batch_gather(params, indices, axis, batch_dims, name):
    rank = len(indices.shape) if indices.shape is not None else None
    if batch_dims < 0 and rank is not None:
        batch_dims += rank
    axis = batch_dims if axis is None else int(axis)
    if axis < 0 and params.shape is not None:
        axis += len(params.shape)
    if axis != batch_dims or batch_dims < 0 or (rank is not None and batch_dims > rank):
        raise NotImplementedError(f"gather(axis={axis}, batch_dims={batch_dims}) is implemented in placeflow only "
                                  "for axis == batch_dims (TensorFlow's default) with 0 <= batch_dims <= "
                                  "rank(indices).")
    return execute("_BatchGather", (params, indices), params.dtype, {"batch_dims": batch_dims}, name=name)


def _policy(bad_indices_policy, op: str) -> None:
    """TF's bad_indices_policy: the default ('' or 'DEFAULT') and 'ERROR' raise for an index out of range, as
    placeflow always does; 'IGNORE' is refused by name."""
    if bad_indices_policy not in ("", "DEFAULT", "ERROR"):
        raise NotImplementedError(f"{op}(bad_indices_policy={bad_indices_policy!r}) is not implemented in placeflow: "
                                  f"out-of-range indices always raise InvalidArgumentError; leave the default.")


def gather_nd(params, indices, batch_dims=0, name=None, bad_indices_policy=""):
    """The elements (or slices) of `params` named by the last axis of `indices` (GatherNd)."""
    _policy(bad_indices_policy, "tf.gather_nd")
    _no_batch_dims(batch_dims)
    params, indices = convert_to_tensor(params), _indices(indices, "GatherNd")
    return execute("GatherNd", (params, indices), params.dtype, name=name)


def scatter_nd(indices, updates, shape, name=None, bad_indices_policy=""):  # noqa: A002 - TensorFlow's parameter name
    """Zeros of `shape` with `updates` added at `indices` (duplicates add up) (ScatterNd)."""
    _policy(bad_indices_policy, "tf.scatter_nd")
    indices, updates = _indices(indices, "ScatterNd"), convert_to_tensor(updates)
    return execute("ScatterNd", (indices, updates), updates.dtype, {"shape": _ints(shape)}, name=name)


def tensor_scatter_nd_update(tensor, indices, updates, name=None, bad_indices_policy=""):
    """A copy of `tensor` with the elements at `indices` replaced by `updates` (TensorScatterUpdate)."""
    _policy(bad_indices_policy, "tf.tensor_scatter_nd_update")
    tensor = convert_to_tensor(tensor)
    updates = convert_to_tensor(updates, dtype=tensor.dtype)
    indices = _indices(indices, "TensorScatterUpdate")
    return execute("TensorScatterUpdate", (tensor, indices, updates), tensor.dtype, name=name)


def tensor_scatter_nd_add(tensor, indices, updates, name=None, bad_indices_policy=""):
    """A copy of `tensor` with `updates` added at `indices` (TensorScatterAdd)."""
    _policy(bad_indices_policy, "tf.tensor_scatter_nd_add")
    tensor = convert_to_tensor(tensor)
    updates = convert_to_tensor(updates, dtype=tensor.dtype)
    indices = _indices(indices, "TensorScatterAdd")
    return execute("TensorScatterAdd", (tensor, indices, updates), tensor.dtype, name=name)


def tensor_scatter_nd_max(tensor, indices, updates, name=None, bad_indices_policy=""):
    """A copy of `tensor` with each element at `indices` the maximum of it and its updates (TensorScatterMax)."""
    _policy(bad_indices_policy, "tf.tensor_scatter_nd_max")
    tensor = convert_to_tensor(tensor)
    updates = convert_to_tensor(updates, dtype=tensor.dtype)
    return execute("TensorScatterMax", (tensor, _indices(indices, "TensorScatterMax"), updates), tensor.dtype,
                   name=name)


def tensor_scatter_nd_min(tensor, indices, updates, name=None, bad_indices_policy=""):
    """A copy of `tensor` with each element at `indices` the minimum of it and its updates (TensorScatterMin)."""
    _policy(bad_indices_policy, "tf.tensor_scatter_nd_min")
    tensor = convert_to_tensor(tensor)
    updates = convert_to_tensor(updates, dtype=tensor.dtype)
    return execute("TensorScatterMin", (tensor, _indices(indices, "TensorScatterMin"), updates), tensor.dtype,
                   name=name)


def boolean_mask(tensor, mask, axis=None, name=None):
    """The entries of `tensor` where `mask` (a bool tensor over dimensions axis..axis+k) is True."""
    from .math_ops import where
    tensor, mask = convert_to_tensor(tensor), convert_to_tensor(mask)
    if mask.dtype != dtypes.bool:  # TF: the mask's non-zero entries select (its Where reads any dtype)
        from .math_ops import not_equal
        mask = not_equal(mask, zeros_like(mask))
    axis = 0 if axis is None else int(axis)
    k = len(mask.shape)
    if k == 0:
        raise ValueError("mask cannot be scalar.")
    dims = tuple(tensor.shape)
    if tuple(dims[axis:axis + k]) != tuple(mask.shape):
        raise ValueError(f"Shapes {dims[axis:axis + k]} and {tuple(mask.shape)} are incompatible")
    flat = reshape(tensor, [int(d) for d in dims[:axis]] + [-1] + [int(d) for d in dims[axis + k:]])
    chosen = reshape(where(reshape(mask, [-1])), [-1])
    return gather(flat, chosen, axis=axis)


def _bracketed(shape) -> str:
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def reverse(tensor, axis, name=None):
    """`tensor` with the order of the `axis` dimensions reversed (ReverseV2)."""
    tensor = convert_to_tensor(tensor)
    axes = axis_arg(axis, float_error=errors.InvalidArgumentError)
    axes = axes if isinstance(axes, tuple) else (axes,)
    rank = rank_of(tensor)
    check_axes(axes, rank, "ReverseV2", "'axis'[0] = {axis} is out of valid range [0, " + str(max((rank or 1) - 1, 0)))
    return execute("ReverseV2", (tensor,), tensor.dtype, {"axis": axes}, name=name)


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """`tensor` padded by `paddings` ([[before, after]] per dimension): CONSTANT, REFLECT or SYMMETRIC."""
    tensor = convert_to_tensor(tensor)
    mode = str(mode).upper()
    if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        raise ValueError(f'Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
                         f"Received `mode` = {mode}")
    rows = [_ints(row) for row in _known_paddings(paddings)]
    if len(rows) != len(tensor.shape) or any(len(row) != 2 for row in rows):
        shape = f"[{len(rows)},{len(rows[0]) if rows else 0}]"
        raise errors.InvalidArgumentError(None, None, f"The first dimension of paddings must be the rank of inputs"
                                                      f"{shape} {_bracketed(tensor.shape)} [Op:Pad]")
    if any(v < 0 for row in rows for v in row):
        raise errors.InvalidArgumentError(None, None, f"Paddings must be non-negative: {min(min(r) for r in rows)} "
                                                      "[Op:Pad]")
    attrs = {"paddings": tuple(rows), "mode": mode}
    if mode == "CONSTANT":
        attrs["constant_values"] = _host_scalar(constant_values, tensor.dtype)
    return execute("PadV2", (tensor,), tensor.dtype, attrs, name=name)


def _known_paddings(paddings) -> list:
    """The paddings as nested lists: a literal, an eager tensor, or a graph tensor whose value is known."""
    if hasattr(paddings, "dtype") and hasattr(paddings, "shape"):
        from .array_ops import get_static_value
        known = get_static_value(paddings)
        if known is None:
            raise NotImplementedError(f"pad with paddings computed when the graph runs ({paddings!r}) is not "
                                      f"implemented in placeflow; pass paddings known while building.")
        return np.asarray(known).tolist()
    return paddings


def _host_scalar(value, dtype):
    read = getattr(value, "numpy", None)
    if read is None and hasattr(value, "dtype") and hasattr(value, "op"):
        from .array_ops import get_static_value
        known = get_static_value(value)   # a constant of the graph being built (a Python number converted)
        if known is None:
            raise NotImplementedError("pad(constant_values=<a tensor computed when the graph runs>) is not "
                                      "implemented in placeflow; pass a Python number, a constant or an eager tensor.")
        return np.asarray(known, dtype=dtype.numpy_dtype)
    return np.asarray(read() if read is not None else value, dtype=dtype.numpy_dtype)


def broadcast_to(input, shape, name=None):  # noqa: A002 - TensorFlow's parameter names
    """`input` broadcast to `shape` (BroadcastTo)."""
    tensor = convert_to_tensor(input)
    return execute("BroadcastTo", (tensor,), tensor.dtype, {"shape": _ints(shape)}, name=name)


def slice(input_, begin, size, name=None):  # noqa: A001 - TensorFlow's public name
    """The block of `input_` starting at `begin` of extent `size` (-1: to the end) (Slice)."""
    tensor = convert_to_tensor(input_)
    begin, size = _ints(begin), _ints(size)
    if len(begin) != len(tensor.shape) or len(size) != len(tensor.shape):
        raise ValueError(f"begin {list(begin)} and size {list(size)} must each have one entry per dimension of the "
                         f"input (rank {len(tensor.shape)}).")
    return execute("Slice", (tensor,), tensor.dtype, {"begin": begin, "size": size}, name=name)


def unstack(value, num=None, axis=0, name="unstack"):
    """The slices of `value` along `axis`, as a list (Unpack)."""
    tensor = convert_to_tensor(value)
    rank = len(tensor.shape)
    if not -rank <= axis < rank:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-rank}, {rank})")
    count = tensor.shape[axis] if num is None else num
    if count is None:
        raise ValueError(f"Cannot infer argument `num` from shape {tuple(tensor.shape)}")
    outputs = execute("Unpack", (tensor,), tensor.dtype, {"num": int(count), "axis": axis % rank}, name=name)
    return list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]


def size(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """The number of elements of `input` (Size); of a RaggedTensor, of its flat values."""
    from .ragged import RaggedTensor
    tensor = convert_to_tensor(input.flat_values if isinstance(input, RaggedTensor) else input)
    out_type = dtypes.as_dtype(out_type)
    return execute("Size", (tensor,), out_type, {"out_type": out_type}, name=name)


def rank(input, name=None):  # noqa: A002
    """The number of dimensions of `input` (Rank); of a RaggedTensor, its ragged rank plus its flat values'."""
    from .ragged import RaggedTensor
    if isinstance(input, RaggedTensor):
        from .math_ops import add
        return add(execute("Rank", (input.flat_values,), dtypes.int32), input.ragged_rank, name=name)
    tensor = convert_to_tensor(input)
    return execute("Rank", (tensor,), dtypes.int32, name=name)


def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """The shape of each tensor of `input`, as 1-D tensors."""
    return [shape(x, out_type=out_type) for x in input]


def meshgrid(*args, indexing="xy", name=None):
    """Coordinate grids from 1-D tensors: 'xy' (Cartesian, first two swapped) or 'ij' (matrix) indexing."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'")
    vectors = [reshape(convert_to_tensor(a), [-1]) for a in args]
    sizes = [int(v.shape[0]) for v in vectors]
    if indexing == "xy" and len(vectors) >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for i, vector in enumerate(vectors):
        axis = i
        if indexing == "xy" and len(vectors) >= 2 and i < 2:
            axis = 1 - i
        view = [1] * len(vectors)
        view[axis] = -1
        grids.append(broadcast_to(reshape(vector, view), sizes))
    return grids


def unique(x, out_idx=dtypes.int32, name=None):
    """(y, idx): the distinct values of 1-D `x` in order of first appearance, and x's index into y (Unique)."""
    from collections import namedtuple
    tensor = convert_to_tensor(x)
    out_idx = dtypes.as_dtype(out_idx)
    y, idx = execute("Unique", (tensor,), tensor.dtype, {"out_idx": out_idx}, name=name)
    return namedtuple("Unique", ["y", "idx"])(y, idx)


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """(y, idx, count): unique's values and indices, and how often each value occurs (in out_idx's dtype)."""
    from collections import namedtuple
    from .math_ops import bincount
    y, idx = unique(x, out_idx, name=name)
    return namedtuple("UniqueWithCounts", ["y", "idx", "count"])(y, idx, bincount(idx, dtype=idx.dtype))
