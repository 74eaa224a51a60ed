"""tf.experimental.RowPartition and tf.experimental.DynamicRaggedShape, for RaggedTensors of any ragged rank.

A RowPartition splits `nvals` values into `nrows` rows, held as row_splits (int64, or int32 when asked); a
uniform partition also keeps its row length. A DynamicRaggedShape is a dense tensor's or RaggedTensor's shape:
one row partition per ragged dimension and the shape of the flat values (`inner_shape`)."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes, errors
from . import array_ops, math_ops


def _index_dtype(dtype, dtype_hint, given):
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"dtype must be int32 or int64, got {dtype.name}; pass tf.int64 (the default) or "
                             f"tf.int32.")
        return dtype
    if given is not None and getattr(given, "dtype", None) in (dtypes.int32, dtypes.int64):
        return given.dtype
    return dtypes.as_dtype(dtype_hint) if dtype_hint is not None else dtypes.int64


def _index_tensor(value, dtype, dtype_hint, what):
    given = value if hasattr(value, "dtype") else None
    want = _index_dtype(dtype, dtype_hint, given)
    tensor = convert_to_tensor(value)
    if tensor.dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"{what} must be an int32 or int64 tensor, got {tensor.dtype.name} ({value!r}).")
    return math_ops.cast(tensor, want) if tensor.dtype != want else tensor


def _known(tensor):
    return tensor.numpy() if hasattr(tensor, "numpy") else None


def _invalid(factory, why):
    return errors.InvalidArgumentError(None, None, f"Arguments to {factory} do not form a valid RaggedTensor: "
                                                   f"{why}")


class RowPartition:
    """How the values of a ragged dimension are split into rows (tf.experimental.RowPartition)."""

    def __init__(self, row_splits, uniform_row_length=None, nrows=None, internal=False):
        if not internal:
            raise ValueError("RowPartition constructor is private; use one of the factory methods instead (e.g., "
                             "RowPartition.from_row_lengths()).")
        self._row_splits, self._uniform, self._nrows = row_splits, uniform_row_length, nrows

    # -- factories ------------------------------------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, row_splits, validate=True, dtype=None, dtype_hint=None):
        """Row i is values[row_splits[i]:row_splits[i + 1]]."""
        splits = _index_tensor(row_splits, dtype, dtype_hint, "row_splits")
        known = _known(splits)
        if validate and known is not None:
            if known.ndim != 1 or known.size == 0:
                raise _invalid("from_row_splits", f"row_splits must be a non-empty vector, got shape {known.shape}")
            if known[0] != 0:
                raise _invalid("from_row_splits", f"zero (the first split, {known[0]}, must be 0)")
            if (np.diff(known) < 0).any():
                raise _invalid("from_row_splits", f"monotonic (row_splits must not decrease: {known.tolist()})")
        return cls(splits, internal=True)

    @classmethod
    def from_row_lengths(cls, row_lengths, validate=True, dtype=None, dtype_hint=None):
        """Rows of the given lengths, one after another."""
        lengths = _index_tensor(row_lengths, dtype, dtype_hint, "row_lengths")
        known = _known(lengths)
        if validate and known is not None and (known < 0).any():
            raise _invalid("from_row_lengths", f"row_lengths must be non-negative, got {known.tolist()}")
        zero = array_ops.zeros([1], lengths.dtype)
        return cls(array_ops.concat([zero, math_ops.cumsum(lengths)], 0), internal=True)

    @classmethod
    def from_value_rowids(cls, value_rowids, nrows=None, validate=True, dtype=None, dtype_hint=None):
        """Row i holds the values whose row id is i (row ids sorted); `nrows` default: the last id + 1."""
        rowids = _index_tensor(value_rowids, dtype, dtype_hint, "value_rowids")
        known = _known(rowids)
        if known is None:
            raise NotImplementedError("RowPartition.from_value_rowids of row ids computed only when a graph runs "
                                      "is not implemented in placeflow; use from_row_splits.")
        if validate and ((np.diff(known) < 0).any() or (known < 0).any()):
            raise _invalid("from_value_rowids", f"value_rowids must be sorted and non-negative: {known.tolist()}")
        count = int(nrows) if nrows is not None else (int(known[-1]) + 1 if known.size else 0)
        lengths = np.bincount(known.astype(np.int64), minlength=count)[:count]
        return cls.from_row_lengths(convert_to_tensor(lengths.astype(rowids.dtype.numpy_dtype)), validate=False)

    @classmethod
    def from_row_starts(cls, row_starts, nvals, validate=True, dtype=None, dtype_hint=None):
        """Rows starting at row_starts[i], the last ending at `nvals`."""
        starts = _index_tensor(row_starts, dtype, dtype_hint, "row_starts")
        end = math_ops.cast(convert_to_tensor(nvals), starts.dtype)
        return cls.from_row_splits(array_ops.concat([starts, array_ops.reshape(end, [1])], 0), validate=validate)

    @classmethod
    def from_row_limits(cls, row_limits, validate=True, dtype=None, dtype_hint=None):
        """Rows ending at row_limits[i], the first starting at 0."""
        limits = _index_tensor(row_limits, dtype, dtype_hint, "row_limits")
        zero = array_ops.zeros([1], limits.dtype)
        return cls.from_row_splits(array_ops.concat([zero, limits], 0), validate=validate)

    @classmethod
    def from_uniform_row_length(cls, uniform_row_length, nvals=None, nrows=None, validate=True, dtype=None,
                                dtype_hint=None):
        """Rows of `uniform_row_length` values each: `nrows` of them, or nvals // uniform_row_length."""
        length = _index_tensor(uniform_row_length, dtype, dtype_hint, "uniform_row_length")
        size = int(_required_known(length, "uniform_row_length"))
        if nrows is None:
            if nvals is None:
                raise ValueError("from_uniform_row_length needs nvals or nrows (the number of rows is otherwise "
                                 "unknown).")
            total = int(_required_known(convert_to_tensor(nvals), "nvals"))
            if validate and size and total % size:
                raise _invalid("from_uniform_row_length", f"nvals={total} is not a multiple of "
                                                          f"uniform_row_length={size}")
            count = total // size if size else 0
        else:
            count = int(_required_known(convert_to_tensor(nrows), "nrows"))
        splits = convert_to_tensor(np.arange(count + 1, dtype=np.int64) * size, dtype=dtypes.int64)
        return cls(math_ops.cast(splits, length.dtype), uniform_row_length=length, nrows=count, internal=True)

    # -- accessors ------------------------------------------------------------------------------------------------
    @property
    def dtype(self):
        """The dtype of the row partition tensors (int32 or int64)."""
        return self._row_splits.dtype

    def row_splits(self):
        """Where each row starts, and nvals last."""
        return self._row_splits

    def row_lengths(self):
        """The length of each row."""
        return self._row_splits[1:] - self._row_splits[:-1]

    def row_starts(self):
        """Where each row starts."""
        return self._row_splits[:-1]

    def row_limits(self):
        """Where each row ends."""
        return self._row_splits[1:]

    def value_rowids(self):
        """The row of each value."""
        from ..eager.execute import execute
        return execute("_RaggedRowIds", (self._row_splits,), self.dtype)

    def nrows(self):
        """The number of rows (a scalar tensor of the partition's dtype)."""
        return array_ops.shape(self._row_splits, out_type=self.dtype)[0] - 1

    def nvals(self):
        """The number of values (a scalar tensor of the partition's dtype)."""
        return self._row_splits[-1]

    def uniform_row_length(self):
        """The row length of a uniform partition; None for another."""
        return self._uniform

    def is_uniform(self) -> bool:
        """Whether every row has the same length (the partition was made by from_uniform_row_length)."""
        return self._uniform is not None

    @property
    def static_nrows(self):
        """The number of rows if known without running anything, else None."""
        count = self._row_splits.shape[0] if self._row_splits.shape is not None else None
        return None if count is None else int(count) - 1

    @property
    def static_nvals(self):
        """The number of values if known statically (a uniform partition's), else None (TensorFlow's rule)."""
        if self._uniform is None or self._nrows is None:
            return None
        return int(self._nrows) * int(_known(self._uniform))

    @property
    def static_uniform_row_length(self):
        """The uniform row length if known statically, else None."""
        return None if self._uniform is None else int(_known(self._uniform))

    def with_dtype(self, dtype):
        """This partition with int32 or int64 tensors."""
        dtype = _index_dtype(dtype, None, None)
        uniform = None if self._uniform is None else math_ops.cast(self._uniform, dtype)
        return RowPartition(math_ops.cast(self._row_splits, dtype), uniform, self._nrows, internal=True)

    def offsets_in_rows(self):
        """Each value's position in its row."""
        from .indexing import gather
        return array_ops.range(self.nvals(), dtype=self.dtype) - gather(self.row_starts(), self.value_rowids())

    def __repr__(self) -> str:
        if self._uniform is not None:
            return f"tf.RowPartition(nrows={self._nrows}, uniform_row_length={int(_known(self._uniform))})"
        known = _known(self._row_splits)
        shown = np.array2string(known) if known is not None else repr(self._row_splits)
        return f"tf.RowPartition(row_splits={shown})"


def _required_known(tensor, what):
    known = _known(tensor)
    if known is None:
        raise NotImplementedError(f"a RowPartition {what} computed only when a graph runs is not implemented in "
                                  f"placeflow; give it as a Python int.")
    return known


class DynamicRaggedShape:
    """The shape of a dense tensor or a RaggedTensor (tf.experimental.DynamicRaggedShape): one row partition per
    ragged dimension and the shape of the flat values (`inner_shape`)."""

    def __init__(self, row_partitions, inner_shape, dtype=None, validate=True, static_inner_shape=None):
        row_partitions = tuple(row_partitions)
        if any(not isinstance(p, RowPartition) for p in row_partitions):
            raise TypeError(f"row_partitions must be RowPartitions, got {row_partitions!r}.")
        inner = convert_to_tensor(inner_shape, dtype=dtypes.int64) if not hasattr(inner_shape, "dtype") \
            else inner_shape
        want = dtypes.as_dtype(dtype) if dtype is not None else \
            (row_partitions[0].dtype if row_partitions else inner.dtype)
        self._partitions = tuple(p.with_dtype(want) for p in row_partitions)
        self._inner = math_ops.cast(inner, want) if inner.dtype != want else inner

    @classmethod
    def from_tensor(cls, t, dtype=None):
        """The shape of a tensor or RaggedTensor (one row partition per ragged dimension)."""
        from .ragged import RaggedTensor
        if isinstance(t, RaggedTensor):
            partitions, value = [], t
            while isinstance(value, RaggedTensor):
                partitions.append(_partition_of(value))
                value = value.values
            return cls(partitions, array_ops.shape(value, out_type=dtypes.int64), dtype=dtype)
        return cls([], array_ops.shape(convert_to_tensor(t)), dtype=dtype)  # int32, as TensorFlow

    @classmethod
    def from_lengths(cls, lengths, num_row_partitions=None, dtype=dtypes.int64):
        """A shape from its lengths: ints for uniform dimensions, a tuple of row lengths for each ragged one
        ([2, (2, 1), (1, 2, 3)]); the ragged dimensions must follow the first directly."""
        lengths = list(lengths)
        ragged = [i for i, length in enumerate(lengths) if isinstance(length, (tuple, list))]
        if ragged and ragged != list(range(1, len(ragged) + 1)):
            raise NotImplementedError(f"DynamicRaggedShape.from_lengths({lengths!r}): a ragged dimension after a "
                                      f"uniform inner one is not implemented in placeflow; give the ragged "
                                      f"dimensions right after the first.")
        if num_row_partitions not in (None, len(ragged)):
            raise NotImplementedError(f"DynamicRaggedShape.from_lengths(num_row_partitions={num_row_partitions}) "
                                      f"for lengths with {len(ragged)} ragged dimensions is not implemented in "
                                      f"placeflow; leave num_row_partitions out.")
        if not ragged:
            return cls([], convert_to_tensor([int(v) for v in lengths], dtype=dtypes.int64), dtype=dtype)
        partitions, count = [], int(lengths[0])
        for index in ragged:
            rows = [int(r) for r in lengths[index]]
            if len(rows) != count:
                raise ValueError(f"lengths {lengths!r}: dimension {index} has {len(rows)} row lengths for {count} "
                                 f"rows; give one length per row.")
            partitions.append(RowPartition.from_row_lengths(convert_to_tensor(rows, dtype=dtypes.int64)))
            count = sum(rows)
        inner = [count] + [int(v) for v in lengths[ragged[-1] + 1:]]
        return cls(partitions, convert_to_tensor(inner, dtype=dtypes.int64), dtype=dtype)

    @property
    def dtype(self):
        """The dtype of the shape's tensors (int64 unless asked otherwise)."""
        return self._inner.dtype

    @property
    def row_partitions(self) -> tuple:
        """The row partitions, one per ragged dimension (none for a dense shape)."""
        return self._partitions

    @property
    def num_row_partitions(self) -> int:
        """How many row partitions."""
        return len(self._partitions)

    @property
    def inner_shape(self):
        """The shape of the values (a 1-D tensor)."""
        return self._inner

    @property
    def inner_rank(self) -> int:
        """The rank of the values."""
        return int(self._inner.shape[0])

    @property
    def rank(self) -> int:
        """The rank of the shaped tensor."""
        return self.inner_rank + self.num_row_partitions

    def _num_elements(self):
        """The number of elements (a scalar of the shape's dtype): the product of the flat values' shape."""
        return math_ops.cast(math_ops.reduce_prod(self._inner), self.dtype)  # Prod widens int32 (see report)

    def is_uniform(self, axis) -> bool:
        """Whether dimension `axis` has one size."""
        axis = int(axis) % self.rank
        if axis == 0 or axis > len(self._partitions):
            return True
        return self._partitions[axis - 1].is_uniform()

    def __getitem__(self, index):
        """A uniform dimension's size (a scalar tensor); ValueError for a ragged one."""
        if not isinstance(index, int):
            raise NotImplementedError(f"DynamicRaggedShape[{index!r}] (slicing) is not implemented in placeflow; "
                                      f"index one dimension with an int.")
        rank = self.rank
        if not -rank <= index < rank:
            raise IndexError(f"Index {index} out of range for a shape of rank {rank}.")
        index %= rank
        if not self._partitions:
            return self._inner[index]
        if index == 0:
            return self._partitions[0].nrows()
        if index <= len(self._partitions):
            partition = self._partitions[index - 1]
            if not partition.is_uniform():
                raise ValueError(f"Index {index} is not uniform")
            return math_ops.cast(partition.uniform_row_length(), self.dtype)
        return self._inner[index - len(self._partitions)]

    def static_lengths(self, ragged_lengths=True) -> list:
        """The lengths as Python values: ints, and a tuple of row lengths for each ragged dimension (None where
        unknown without running a graph)."""
        inner = _known(self._inner)
        inner = [None] * self.inner_rank if inner is None else [int(v) for v in inner]
        if not self._partitions:
            return inner
        out = [self._partitions[0].static_nrows]
        for partition in self._partitions:
            if partition.is_uniform():
                out.append(partition.static_uniform_row_length)
                continue
            lengths = _known(partition.row_lengths())
            out.append(tuple(int(v) for v in lengths) if lengths is not None and ragged_lengths else None)
        return out + inner[1:]

    def __repr__(self) -> str:
        lengths = ", ".join(repr(item) if isinstance(item, tuple) else str(item)
                            for item in self.static_lengths())
        return f"<DynamicRaggedShape lengths=[{lengths}] num_row_partitions={self.num_row_partitions}>"


def _partition_of(rt) -> RowPartition:
    """The RowPartition of a RaggedTensor's outer ragged dimension (uniform where its rows have one length)."""
    if rt._uniform is not None:
        nrows = rt.shape[0]
        return RowPartition(rt.row_splits, convert_to_tensor(rt._uniform, dtype=rt.row_splits.dtype), nrows,
                            internal=True)
    return RowPartition.from_row_splits(rt.row_splits, validate=False)
