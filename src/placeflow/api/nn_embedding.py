"""embedding_lookup_sparse and safe_embedding_lookup_sparse: rows of an embedding gathered by SparseTensor ids and
combined per row (sum, mean or sqrtn, optionally weighted), as TensorFlow computes them."""

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes

_COMBINERS = ("mean", "sqrtn", "sum")


def _params(params):
    if isinstance(params, (list, tuple)):
        if not params:
            raise ValueError("Missing embedding_weights [].")
        if len(params) != 1:
            raise NotImplementedError("embedding lookups over a partitioned list of params are not implemented in "
                                      "placeflow; pass one tensor.")
        params = params[0]
    return convert_to_tensor(params)


def _lookup(params, ids, max_norm):
    """params[ids], each row clipped to an L2 norm of at most `max_norm` (over all but the first dimension)."""
    from .clip_ops import clip_by_norm
    from .indexing import gather
    rows = gather(params, ids)
    if max_norm is None:
        return rows
    return clip_by_norm(rows, max_norm, axes=list(range(1, len(rows.shape))))


def _combine(params, ids, segment_ids, weights, combiner, max_norm, num_segments=None):
    """The per-segment combination of params[ids] (weighted when `weights` is given)."""
    from . import array_ops, math_ops
    embeddings = _lookup(params, ids, max_norm)
    count = (lambda data: math_ops.segment_sum(data, segment_ids)) if num_segments is None else (
        lambda data: math_ops.unsorted_segment_sum(data, segment_ids, num_segments))
    weighted = weights is not None
    weights = math_ops.cast(weights, embeddings.dtype) if weighted else array_ops.ones_like(ids, embeddings.dtype)
    column = array_ops.reshape(weights, [-1] + [1] * (len(embeddings.shape) - 1))
    total = count(embeddings * column) if weighted else count(embeddings)
    if combiner == "sum":
        return total
    scale = count(weights) if combiner == "mean" else math_ops.sqrt(count(weights * weights))
    scale = array_ops.reshape(scale, [-1] + [1] * (len(embeddings.shape) - 1))
    from .division_ops import divide_no_nan
    return divide_no_nan(total, scale)  # an empty row: 0, as TensorFlow's


def _check(combiner, sp_ids, sp_weights):
    if combiner not in _COMBINERS:
        raise ValueError(f"`combiner` must be one of 'mean', 'sqrtn' or 'sum'. Received: combiner={combiner!r}")
    for value, what in ((sp_ids, "sp_ids"), (sp_weights, "sp_weights")):
        if value is not None and not (hasattr(value, "indices") and hasattr(value, "dense_shape")):
            raise TypeError(f"{what} must be SparseTensor, got {type(value)}")


def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None, name=None,
                            allow_fast_lookup=False):
    """Per row of the SparseTensor `sp_ids`: the combination (sum, mean or sqrtn, weighted by `sp_weights` when
    given) of the embedding rows of its ids; rows up to the last one with an id."""
    from . import math_ops
    combiner = "mean" if combiner is None else combiner
    _check(combiner, sp_ids, sp_weights)
    params = _params(params)
    segment_ids = math_ops.cast(sp_ids.indices[:, 0], dtypes.int32)
    weights = None if sp_weights is None else sp_weights.values
    return _combine(params, sp_ids.values, segment_ids, weights, combiner, max_norm)


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                                 default_id=None, max_norm=None, name=None, allow_fast_lookup=False):
    """embedding_lookup_sparse that drops ids < 0 (and, unless summing, weights <= 0), gives rows left empty the
    embedding of `default_id` (zeros when None), and takes ids of any rank >= 2 (leading dims kept)."""
    from . import array_ops, math_ops
    from .array_ops import _ints
    from .indexing import boolean_mask
    _check(combiner, sparse_ids, sparse_weights)
    params = _params(embedding_weights)
    shape = list(_ints(sparse_ids.dense_shape))
    rows = int(np.prod(shape[:-1]))
    indices = math_ops.cast(sparse_ids.indices, dtypes.int64)
    strides = convert_to_tensor(np.array([int(np.prod(shape[i + 1:-1])) for i in range(len(shape) - 1)], np.int64))
    segment_ids = math_ops.reduce_sum(indices[:, :-1] * strides, axis=1)  # the row of each id once flattened to 2-D
    ids, weights = sparse_ids.values, None if sparse_weights is None else sparse_weights.values
    keep = math_ops.greater_equal(ids, 0)
    if weights is not None and combiner != "sum":
        keep = math_ops.logical_and(keep, math_ops.greater(weights, 0))
    ids, segment_ids = boolean_mask(ids, keep), math_ops.cast(boolean_mask(segment_ids, keep), dtypes.int32)
    if weights is not None:
        weights = boolean_mask(weights, keep)
    result = _combine(params, ids, segment_ids, weights, combiner, max_norm, num_segments=rows)
    present = math_ops.unsorted_segment_max(array_ops.ones_like(segment_ids), segment_ids, rows) > 0
    mask = array_ops.reshape(present, [-1] + [1] * (len(result.shape) - 1))
    if default_id is None:
        fill = array_ops.zeros_like(result)
    else:
        fill = array_ops.zeros_like(result) + _lookup(params, convert_to_tensor([int(default_id)]), max_norm)
    result = math_ops.where(mask, result, fill)
    return array_ops.reshape(result, shape[:-1] + [int(d) for d in result.shape[1:]])
