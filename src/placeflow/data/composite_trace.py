"""Tracing a dataset function whose element holds sparse, ragged or None components (for the element_spec of
`map`, as TF traces it): each component is traced as the tensors it is made of (a SparseTensor's indices,
values and dense_shape; a RaggedTensor's flat values and row splits) and rebuilt from them inside the trace,
with the static shape its spec gives."""

from __future__ import annotations


def _parts(spec):
    """The TensorSpecs of one component's parts, or None when it cannot be traced this way."""
    from ..framework import dtypes
    from ..framework.tensor_spec import TensorSpec
    name = type(spec).__name__
    if name == "NoneTensorSpec":
        return []
    if name not in ("SparseTensorSpec", "RaggedTensorSpec"):
        return [spec] if isinstance(spec, TensorSpec) else None
    shape = spec.shape
    if shape.rank is None:
        return None
    dims = shape.as_list()
    if name == "SparseTensorSpec":
        return [TensorSpec([None, len(dims)], dtypes.int64), TensorSpec([None], spec.dtype),
                TensorSpec([len(dims)], dtypes.int64)]
    if spec.ragged_rank == 0:
        return [TensorSpec(dims, spec.dtype)]
    rows = [None if dims[0] is None else dims[0] + 1] + [None] * (spec.ragged_rank - 1)
    return [TensorSpec([None] + dims[spec.ragged_rank + 1:], spec.dtype)] + \
        [TensorSpec([count], spec.row_splits_dtype) for count in rows]


def _rebuild(spec, parts: list):
    """One component rebuilt from its traced parts (taken from the front of `parts`)."""
    name = type(spec).__name__
    if name == "NoneTensorSpec":
        return None
    if name == "SparseTensorSpec":
        from ..api.sparse import SparseTensor
        value = SparseTensor(parts.pop(0), parts.pop(0), parts.pop(0))
        value.set_shape(spec.shape)
        return value
    if name != "RaggedTensorSpec" or spec.ragged_rank == 0:
        return parts.pop(0)
    from ..api.ragged import RaggedTensor
    value = parts.pop(0)
    levels = [parts.pop(0) for _ in range(spec.ragged_rank)]
    uniform = spec.shape.as_list()[1:spec.ragged_rank + 1]
    for splits, length in zip(reversed(levels), reversed(uniform)):
        value = RaggedTensor(value, splits, internal=True, uniform_row_length=length)
    return value


def plan(input_spec, leaves, pack):
    """(the TensorSpecs to trace with, a function rebuilding the element's arguments from those tensors), or
    None when a component cannot be traced (a dataset, an unknown rank)."""
    flat = leaves(input_spec)
    per_leaf = [_parts(spec) for spec in flat]
    if any(parts is None for parts in per_leaf):
        return None

    def arguments(tensors):
        remaining = list(tensors)
        element = pack(input_spec, [_rebuild(spec, remaining) for spec in flat])
        return element if isinstance(input_spec, tuple) else (element,)
    return [spec for parts in per_leaf for spec in parts], arguments
