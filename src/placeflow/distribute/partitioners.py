"""tf.distribute.experimental.partitioners: how many shards a variable is cut into along one axis.

A partitioner is called with a variable's shape and dtype (and the axis to cut, 0 by default) and returns
a list with one partition count per dimension: the count along `axis`, 1 elsewhere. They are what
ParameterServerStrategy takes (`variable_partitioner`); placeflow refuses that strategy by name, but the
counts are computed as TensorFlow 2.21 computes them (tests/distribute_more records them).

- FixedShardsPartitioner(n): n shards, at most one per row of the axis.
- MinSizePartitioner(min_shard_bytes, max_shards): the variable's bytes over min_shard_bytes (rounded up)
  shards, at most max_shards and one per row, at least one.
- MaxSizePartitioner(max_shard_bytes, max_shards): as few shards as keep each at most max_shard_bytes
  (a row is never split), capped by max_shards when given.
Strings count `bytes_per_string` bytes per element.
"""

from __future__ import annotations

import math

from ..framework import dtypes
from ..framework.tensor_shape import TensorShape


class Partitioner:
    """Base class: partitioner(shape, dtype, axis=0) -> partition counts, one per dimension."""

    def __call__(self, shape, dtype, axis=0) -> list:
        """The partition count of each dimension of a variable of `shape` and `dtype`, cut along `axis`."""
        raise NotImplementedError(f"{type(self).__name__} must implement __call__(shape, dtype, axis=0).")


def _positive(name: str, value) -> None:
    if value is None or value <= 0:
        raise ValueError(f"Argument `{name}` must be positive. Received: {value}")


def _checked_shape(shape, axis: int) -> TensorShape:
    shape = TensorShape(shape)
    if shape.rank is None or not shape.is_fully_defined():
        raise ValueError(f"shape is not fully defined: {shape}. Partitioners need every dimension of the "
                         "variable's shape; give the variable a fully known shape.")
    if not isinstance(axis, int) or not 0 <= axis < len(shape):
        raise ValueError(f"Partition axis {axis!r} is out of range for the shape {shape} (rank {len(shape)}): "
                         f"pass an axis in [0, {len(shape)}).")
    return shape


def _counts(shape: TensorShape, axis: int, shards: int) -> list:
    counts = [1] * len(shape)
    counts[axis] = shards
    return counts


def _element_bytes(dtype, bytes_per_string: int) -> int:
    dtype = dtypes.as_dtype(dtype)
    return bytes_per_string if dtype == dtypes.string else dtype.size


def _slice_bytes(shape: TensorShape, axis: int, element_bytes: int) -> int:
    """The bytes of one row along `axis` (every other dimension of it)."""
    return math.prod(d for i, d in enumerate(shape) if i != axis) * element_bytes


class FixedShardsPartitioner(Partitioner):
    """A fixed number of shards along the axis (no more than its length)."""

    def __init__(self, num_shards):
        if isinstance(num_shards, bool) or not isinstance(num_shards, int) or num_shards < 1:
            raise ValueError(f"Argument `num_shards` must be a positive integer. Received: {num_shards!r}")
        self._num_shards = num_shards

    def __call__(self, shape, dtype, axis=0) -> list:
        """[1, ..., min(num_shards, shape[axis]), ..., 1]."""
        shape = _checked_shape(shape, axis)
        return _counts(shape, axis, min(self._num_shards, shape[axis]))


class MinSizePartitioner(Partitioner):
    """Shards of at least `min_shard_bytes` each, at most `max_shards` of them."""

    def __init__(self, min_shard_bytes=256 << 10, max_shards=1, bytes_per_string=16):
        _positive("min_shard_bytes", min_shard_bytes)
        _positive("max_shards", max_shards)
        _positive("bytes_per_string", bytes_per_string)
        self._min_shard_bytes, self._max_shards, self._bytes_per_string = min_shard_bytes, max_shards, \
            bytes_per_string

    def __call__(self, shape, dtype, axis=0) -> list:
        """ceil(variable bytes / min_shard_bytes) shards, at most max_shards and shape[axis]; at least 1."""
        shape = _checked_shape(shape, axis)
        total = math.prod(shape) * _element_bytes(dtype, self._bytes_per_string)
        shards = min(self._max_shards, shape[axis], math.ceil(total / self._min_shard_bytes))
        return _counts(shape, axis, max(1, shards))


class MaxSizePartitioner(Partitioner):
    """Shards of at most `max_shard_bytes` each (whole rows), at most `max_shards` of them when given."""

    def __init__(self, max_shard_bytes, max_shards=None, bytes_per_string=16):
        _positive("max_shard_bytes", max_shard_bytes)
        if max_shards is not None:
            _positive("max_shards", max_shards)
        _positive("bytes_per_string", bytes_per_string)
        self._max_shard_bytes, self._max_shards, self._bytes_per_string = max_shard_bytes, max_shards, \
            bytes_per_string

    def __call__(self, shape, dtype, axis=0) -> list:
        """The fewest shards of whole rows holding at most max_shard_bytes each (capped by max_shards)."""
        shape = _checked_shape(shape, axis)
        row_bytes = _slice_bytes(shape, axis, _element_bytes(dtype, self._bytes_per_string))
        if not row_bytes or not shape[axis]:
            return _counts(shape, axis, 1)  # an empty variable: one (empty) shard
        rows_per_shard = max(1, math.floor(self._max_shard_bytes / row_bytes))
        shards = math.ceil(shape[axis] / rows_per_shard)
        if self._max_shards is not None:
            shards = min(self._max_shards, shards)
        return _counts(shape, axis, shards)
