"""tf.RaggedTensor and tf.ragged: tensors whose rows have different lengths, held as TensorFlow holds them,
`values` (the rows' elements one after another: a tensor, or another RaggedTensor for a further ragged
dimension) and `row_splits` (where each row starts). Any number of ragged dimensions (ragged_rank); a row
partition made from a uniform row length keeps that length, so the static shape shows it as TF does.
Eagerly and inside `function` (the parts are ordinary tensors; the host kernels are in ops/ragged.py).
Indexing, operators and printing are in ragged_ops.py; stack and the rest of tf.ragged in ragged_more.py."""

from __future__ import annotations

import builtins

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes


def _refuse(name):
    raise NotImplementedError(f"{name} is not implemented in placeflow's RaggedTensor; pad the rows (e.g. with "
                              "to_tensor) first.")


def _splits_dtype(dtype):
    """row_splits_dtype: int32 or int64, as TF accepts."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"row_splits_dtype must be int32 or int64; got {dtype.name}.")
    return dtype


def _splits(value, like=None):
    """A row partition tensor: Python literals become int64 (or `like`'s dtype), tensors keep theirs."""
    literal = isinstance(value, (list, tuple, int, np.ndarray))
    want = like if like is not None else dtypes.int64
    splits = convert_to_tensor(np.asarray(value, np.int64) if literal else value, dtype=want) if literal \
        else convert_to_tensor(value)
    if splits.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"row_splits must be int32 or int64; got {splits.dtype.name}.")
    return splits


def _known(tensor):
    """The value of an eager tensor as a NumPy array; None for a symbolic one."""
    return np.asarray(tensor.numpy()) if hasattr(tensor, "numpy") else None


def _invalid(factory, why):
    from ..framework.errors import InvalidArgumentError
    return InvalidArgumentError(None, None, f"Arguments to {factory} do not form a valid RaggedTensor: {why}")


class RaggedTensor:
    """Rows of different lengths: `values` and `row_splits` (row i is values[row_splits[i]:row_splits[i+1]]);
    `values` is a RaggedTensor itself when there are more ragged dimensions."""

    _is_ragged_tensor = True   # tells math_ops' reductions to reduce it as one (api/ragged_reduce.py)

    def __init__(self, values, row_splits, internal=False, uniform_row_length=None):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory methods instead "
                             "(e.g., RaggedTensor.from_row_lengths())")
        if isinstance(values, RaggedTensor) and values.row_splits.dtype != row_splits.dtype:
            raise ValueError("dtype mismatch: the row_splits of a RaggedTensor and of its ragged values must have "
                             f"one dtype, got {row_splits.dtype.name} and {values.row_splits.dtype.name}; use "
                             "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")
        self._values, self._row_splits = values, row_splits
        self._uniform = uniform_row_length  # a Python int when every row has this length (static), else None

    def _function_output_parts(self) -> tuple:
        """The tensors a function returns for this value (graph/function.py rebuilds it from their values)."""
        return (self.flat_values,) + self.nested_row_splits

    def _from_function_output_parts(self, parts):
        """This value rebuilt from the values of its `_function_output_parts` (uniform lengths kept)."""
        value, uniforms = parts[0], self._uniform_lengths()
        for splits, uniform in zip(reversed(parts[1:]), reversed(uniforms)):
            value = RaggedTensor(value, splits, internal=True, uniform_row_length=uniform)
        return value

    def _uniform_lengths(self) -> tuple:
        """The static uniform row length of each ragged dimension (None where rows differ), outermost first."""
        inner = self._values._uniform_lengths() if isinstance(self._values, RaggedTensor) else ()
        return (self._uniform,) + inner

    # -- factories --------------------------------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        """Rows values[row_splits[i]:row_splits[i + 1]] (values: a tensor or a RaggedTensor)."""
        values = _as_values(values)
        like = values.row_splits.dtype if isinstance(values, RaggedTensor) else None
        splits = _splits(row_splits, like)
        if validate:
            _check_splits(splits, _nvals(values), "from_row_splits")
        return cls(values, splits, internal=True)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        """Rows of the given lengths, one after another."""
        from .array_ops import concat, zeros
        from .math_ops import cumsum
        values = _as_values(values)
        like = values.row_splits.dtype if isinstance(values, RaggedTensor) else None
        lengths = _splits(row_lengths, like)
        known = _known(lengths)
        if validate and known is not None and (known < 0).any():
            raise _invalid("from_row_lengths", f"row_lengths must be non-negative, got {known.tolist()}")
        splits = concat([zeros([1], lengths.dtype), cumsum(lengths)], 0)
        return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """Rows made of the values whose row id is i (row ids sorted); `nrows` rows (default: the last id + 1)."""
        from .array_ops import concat
        from .math_ops import bincount, cast, cumsum
        values = _as_values(values)
        ids = _splits(value_rowids, values.row_splits.dtype if isinstance(values, RaggedTensor) else None)
        known, count = _known(ids), _nvals(values)
        if known is not None and count is not None and known.ndim == 1 and len(known) != count:
            raise ValueError(f"Shapes ({count},) and ({len(known)},) are incompatible: value_rowids needs one row id "
                             f"per value ({count} values).")
        if validate and known is not None and ((np.diff(known) < 0).any() or (known < 0).any()):
            raise _invalid("from_value_rowids", f"value_rowids must be sorted and non-negative: {known.tolist()}")
        counts = bincount(cast(ids, dtypes.int32), minlength=None if nrows is None else int(nrows),
                          dtype=ids.dtype)
        if nrows is not None:
            counts = counts[:int(nrows)]
        return cls.from_row_splits(values, concat([convert_to_tensor([0], dtype=ids.dtype), cumsum(counts)], 0),
                                   validate=validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        """Rows starting at row_starts[i], the last ending at the number of values."""
        from .array_ops import concat, reshape
        from .math_ops import cast
        values = _as_values(values)
        starts = _splits(row_starts, values.row_splits.dtype if isinstance(values, RaggedTensor) else None)
        end = reshape(cast(_nvals_tensor(values), starts.dtype), [1])
        return cls.from_row_splits(values, concat([starts, end], 0), validate=validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        """Rows ending at row_limits[i], the first starting at 0."""
        from .array_ops import concat, zeros
        values = _as_values(values)
        limits = _splits(row_limits, values.row_splits.dtype if isinstance(values, RaggedTensor) else None)
        return cls.from_row_splits(values, concat([zeros([1], limits.dtype), limits], 0), validate=validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True, name=None):
        """Rows of `uniform_row_length` values each (`nrows` of them, or all the values'); the static shape
        shows the length, as TF's does."""
        values = _as_values(values)
        length = int(_static(uniform_row_length, "uniform_row_length"))
        total = int(_static(_nvals_tensor(values), "number of values"))
        count = int(nrows) if nrows is not None else (total // length if length else 0)
        if validate and (count * length != total if length or nrows is not None else total != 0):
            raise _invalid("from_uniform_row_length", f"{total} values cannot form {count} rows of "
                                                      f"{length} (uniform_row_length)")
        like = values.row_splits.dtype if isinstance(values, RaggedTensor) else dtypes.int64
        splits = convert_to_tensor(np.arange(count + 1, dtype=np.int64) * length, dtype=like)
        return cls(values, splits, internal=True, uniform_row_length=length)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        """The RaggedTensor whose row_splits are nested_row_splits[0], its values' nested_row_splits[1], ...
        down to flat_values."""
        return _nested(flat_values, nested_row_splits, "nested_row_splits",
                       lambda values, splits: cls.from_row_splits(values, splits, validate=validate))

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
        """The RaggedTensor whose rows have lengths nested_row_lengths[0], its values' [1], ..."""
        return _nested(flat_values, nested_row_lengths, "nested_row_lengths",
                       lambda values, lengths: cls.from_row_lengths(values, lengths, validate=validate))

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None, name=None,
                                 validate=True):
        """The RaggedTensor whose values' row ids are nested_value_rowids[0], ... (nested_nrows: the row counts)."""
        if isinstance(nested_value_rowids, (int, np.integer)) or hasattr(nested_value_rowids, "dtype"):
            raise TypeError(f"nested_value_rowids must be a list of Tensors, got {nested_value_rowids!r}.")
        rowids = list(nested_value_rowids)
        nrows = [None] * len(rowids) if nested_nrows is None else list(nested_nrows)
        if len(nrows) != len(rowids):
            raise ValueError(f"Argument `nested_nrows` must have the same length as argument "
                             f"`nested_value_rowids`. len(nested_nrows) = {len(nrows)} vs. "
                             f"len(nested_values_rowids) = {len(rowids)}.")
        result = flat_values
        for ids, count in reversed(list(zip(rowids, nrows))):
            result = cls.from_value_rowids(result, ids, count, validate=validate)
        return result

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None, row_splits_dtype=dtypes.int64):
        """The rows of a padded tensor: each innermost row's first lengths[i] entries, or its entries before the
        trailing `padding`, or all of them (then every partition is uniform); dimensions 1..ragged_rank become
        ragged dimensions."""
        from .ragged_more import from_tensor
        return from_tensor(cls, tensor, lengths, padding, ragged_rank, name, row_splits_dtype)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
        """The rows of a rank-2 SparseTensor whose values fill each row from its start (ragged-right)."""
        from .ragged_more import from_sparse
        return from_sparse(cls, st_input, row_splits_dtype)

    # -- parts ------------------------------------------------------------------------------------------------
    @property
    def values(self):
        """The rows' elements, one row after another (a RaggedTensor when there are more ragged dimensions)."""
        return self._values

    @property
    def flat_values(self):
        """The innermost values (a tensor)."""
        value = self._values
        while isinstance(value, RaggedTensor):
            value = value._values
        return value

    @property
    def row_splits(self):
        """Where each row starts, and the number of values last."""
        return self._row_splits

    @property
    def nested_row_splits(self) -> tuple:
        """The row_splits of each ragged dimension, outermost first."""
        inner = self._values.nested_row_splits if isinstance(self._values, RaggedTensor) else ()
        return (self._row_splits,) + inner

    @property
    def dtype(self):
        """The values' dtype."""
        return self.flat_values.dtype

    @property
    def ragged_rank(self) -> int:
        """The number of ragged dimensions."""
        return 1 + (self._values.ragged_rank if isinstance(self._values, RaggedTensor) else 0)

    @property
    def uniform_row_length(self):
        """The length of every row when the partition was made uniform (an int64 scalar), else None."""
        return None if self._uniform is None else convert_to_tensor(self._uniform, dtype=self._row_splits.dtype)

    @property
    def shape(self):
        """[rows, the row length or None, ...the values' further dimensions]."""
        from ..framework.tensor_shape import TensorShape
        count = self._row_splits.shape[0] if self._row_splits.shape is not None else None
        if isinstance(self._values, RaggedTensor):
            inner = list(self._values.shape)[1:]
        else:
            inner = list(self._values.shape[1:]) if self._values.shape is not None else []
        return TensorShape([None if count is None else int(count) - 1, self._uniform] + inner)

    def get_shape(self):
        """The static shape (TensorFlow 1 name)."""
        return self.shape

    @property
    def row_splits_dtype(self):
        """The dtype of row_splits."""
        return self._row_splits.dtype

    def with_row_splits_dtype(self, dtype):
        """The same value with row partitions of `dtype` (int32 or int64)."""
        from .math_ops import cast
        dtype = _splits_dtype(dtype)
        values = self._values.with_row_splits_dtype(dtype) if isinstance(self._values, RaggedTensor) else \
            self._values
        splits = self._row_splits if self._row_splits.dtype == dtype else cast(self._row_splits, dtype)
        return RaggedTensor(values, splits, internal=True, uniform_row_length=self._uniform)

    def row_lengths(self, axis=1, name=None):
        """The length of each row (axis 1); axis 0: the number of rows; a deeper axis: a RaggedTensor of the
        lengths of the rows at that depth."""
        rank = self.shape.rank
        axis = int(axis)
        if not -rank <= axis < rank:
            raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
        axis %= rank
        if axis == 0:
            return self.nrows()
        if axis == 1:
            return self._row_splits[1:] - self._row_splits[:-1]
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.row_lengths(axis - 1))
        from .array_ops import fill  # a uniform dimension of the flat values: its size for every entry
        shape = self._values.shape
        size = convert_to_tensor(int(shape[axis - 1]), dtype=self._row_splits.dtype)
        return self.with_values(fill([int(d) for d in shape[:axis - 1]], size))

    def nested_row_lengths(self, name=None) -> tuple:
        """The row lengths of each ragged dimension, outermost first."""
        return tuple(s[1:] - s[:-1] for s in self.nested_row_splits)

    def nrows(self, out_type=None, name=None):
        """The number of rows."""
        from .array_ops import shape
        from .math_ops import cast
        count = shape(self._row_splits, out_type=self._row_splits.dtype)[0] - 1
        return count if out_type is None else cast(count, out_type)

    def value_rowids(self, name=None):
        """The row of each value."""
        return execute("_RaggedRowIds", (self._row_splits,), self._row_splits.dtype, name=name)

    def nested_value_rowids(self, name=None) -> tuple:
        """The value_rowids of each ragged dimension, outermost first."""
        inner = self._values.nested_value_rowids() if isinstance(self._values, RaggedTensor) else ()
        return (self.value_rowids(),) + inner

    def row_starts(self, name=None):
        """Where each row starts."""
        return self._row_splits[:-1]

    def row_limits(self, name=None):
        """Where each row ends."""
        return self._row_splits[1:]

    def bounding_shape(self, axis=None, name=None, out_type=None):
        """The smallest dense shape holding every row: [rows, longest row, ...] (one entry with `axis`)."""
        from .array_ops import concat, reshape, shape, stack as stack_dense
        from .math_ops import cast, maximum, reduce_max
        kind = dtypes.as_dtype(out_type) if out_type is not None else self._row_splits.dtype
        lengths = self._row_splits[1:] - self._row_splits[:-1]
        longest = maximum(reduce_max(cast(lengths, kind)), convert_to_tensor(0, dtype=kind))
        if isinstance(self._values, RaggedTensor):
            inner = self._values.bounding_shape(out_type=kind)[1:]
        else:
            inner = shape(self._values, out_type=kind)[1:]
        result = concat([stack_dense([cast(self.nrows(), kind), longest]), reshape(inner, [-1])], 0)
        return result if axis is None else result[int(axis)]

    # -- conversions ------------------------------------------------------------------------------------------
    def to_tensor(self, default_value=None, name=None, shape=None):
        """A dense [rows, longest row, ...] tensor: rows padded with default_value (0 or b''), cut to `shape`
        when given (None entries: the bounding shape's)."""
        fill = convert_to_tensor(default_value if default_value is not None else
                                 (b"" if self.dtype == dtypes.string else 0), dtype=self.dtype)
        wanted = None
        if shape is not None:
            known = _static(shape, "shape") if not isinstance(shape, (list, tuple)) else shape
            wanted = [None if d is None or int(d) < 0 else int(d) for d in
                      (known.as_list() if hasattr(known, "as_list") else list(known))]
        values = self._values
        if isinstance(values, RaggedTensor):
            values = values.to_tensor(fill, shape=None if wanted is None else [None] + wanted[2:])
        elif wanted is not None and len(wanted) > 2 and any(d is not None for d in wanted[2:]):
            values = _fit_inner(values, wanted[2:], fill)
        return execute("_RaggedToDense", (values, self._row_splits, fill), self.dtype,
                       {"shape": None if wanted is None else tuple(wanted[:2])}, name=name)

    def to_sparse(self, name=None):
        """The SparseTensor of this value's entries (indices of every value, dense shape the bounding shape)."""
        from .ragged_more import to_sparse
        return to_sparse(self)

    def with_values(self, new_values):
        """The same rows holding `new_values` (as many as the values)."""
        new_values = _as_values(new_values)
        return RaggedTensor(new_values, self._row_splits, internal=True, uniform_row_length=self._uniform)

    def with_flat_values(self, new_values):
        """The same ragged dimensions holding `new_values` as their flat values."""
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def merge_dims(self, outer_axis, inner_axis):
        """Dimensions outer_axis..inner_axis joined into one (only joining ragged dimensions from axis 0 is
        implemented)."""
        from .ragged_more import merge_dims
        return merge_dims(self, outer_axis, inner_axis)

    def to_list(self) -> list:
        """The rows as nested Python lists (eager)."""
        inner = self._values.to_list() if isinstance(self._values, RaggedTensor) else \
            _host_values(self._values).tolist()
        splits = _eager_value(self._row_splits, "to_list")
        return [inner[splits[i]:splits[i + 1]] for i in builtins.range(len(splits) - 1)]

    def numpy(self):
        """The rows as NumPy arrays: one array where the rows have one length, else an object array of rows
        (eager)."""
        values = self._values.numpy() if isinstance(self._values, RaggedTensor) else _host_values(self._values)
        splits = _eager_value(self._row_splits, "numpy")
        rows = [values[splits[i]:splits[i + 1]] for i in builtins.range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if any(len(row) != len(rows[0]) for row in rows):
            out = np.empty(len(rows), dtype=object)
            for index, row in enumerate(rows):
                out[index] = row
            return out
        return np.array(rows)

    def _is_eager(self) -> bool:
        return hasattr(self._row_splits, "numpy") and hasattr(self.flat_values, "numpy")

    def __repr__(self) -> str:
        from .ragged_ops import format_value
        if self._is_eager():
            return f"<tf.RaggedTensor {format_value(self.numpy())}>"
        return f"tf.RaggedTensor(values={self._values!r}, row_splits={self._row_splits!r})"

    __str__ = __repr__


def _as_values(values):
    """`values` as a RaggedTensor or a tensor."""
    if isinstance(values, RaggedTensor):
        return values
    from .tf1_values import RaggedTensorValue
    if isinstance(values, RaggedTensorValue):
        return RaggedTensor.from_nested_row_splits(values.flat_values, values.nested_row_splits)
    return convert_to_tensor(values)


def _nvals(values):
    """The number of rows of `values` when known without running a graph, else None."""
    if isinstance(values, RaggedTensor):
        known = _known(values.row_splits)
        return None if known is None else int(known.shape[0]) - 1
    shape = values.shape
    if shape is None or len(shape) == 0:
        raise ValueError(f"values must have rank 1 or more (its first dimension holds the rows' entries), got "
                         f"{values!r}.")
    return None if shape[0] is None else int(shape[0])


def _nvals_tensor(values):
    from .array_ops import shape
    if isinstance(values, RaggedTensor):
        return values.nrows()
    return shape(values, out_type=dtypes.int64)[0]


def _check_splits(splits, count, factory) -> None:
    """row_splits must be a vector starting at 0, never decreasing and ending at the number of values."""
    known = _known(splits)
    if known is None:
        return
    if known.ndim != 1 or known.size == 0:
        raise _invalid(factory, f"row_splits must be a non-empty vector, got shape {known.shape}")
    if known[0] != 0 or (np.diff(known) < 0).any() or (count is not None and known[-1] != count):
        raise _invalid(factory, f"row_splits {known.tolist()} for {count} values (they must start at 0, never "
                                f"decrease and end at the number of values).")


def _host_values(values) -> np.ndarray:
    if not hasattr(values, "numpy"):
        raise ValueError("RaggedTensor.to_list() and numpy() are only supported in eager mode.")
    return np.asarray(values.numpy())


def _eager_value(splits, what):
    if not hasattr(splits, "numpy"):
        raise ValueError(f"RaggedTensor.{what}() is only supported in eager mode.")
    return np.asarray(splits.numpy())


def _fit_inner(values, wanted, fill):
    """The flat values cut or padded (with `fill`) to the `wanted` sizes of their inner dimensions."""
    from .array_ops import pad
    for axis, size in enumerate(wanted, start=1):
        if size is None:
            continue
        have = int(values.shape[axis])
        if have > size:
            values = values[(slice(None),) * axis + (slice(0, size),)]
        elif have < size:
            paddings = [[0, 0]] * len(values.shape)
            paddings[axis] = [0, size - have]
            values = pad(values, paddings, constant_values=fill)
    return values


def _static(value, what: str):
    from .array_ops import get_static_value
    known = get_static_value(value)
    if known is None:
        raise NotImplementedError(f"a RaggedTensor {what} computed only when the graph runs is not implemented in "
                                  f"placeflow; pass it as a Python value.")
    return known


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=dtypes.int64):
    """A RaggedTensor of nested Python lists (a tensor when there is nothing ragged), with `ragged_rank`
    ragged dimensions (default: all but the innermost) and values of `inner_shape`."""
    from .ragged_more import constant_parts
    if isinstance(pylist, RaggedTensor) or type(pylist).__name__ == "RaggedTensorValue":
        raise TypeError("pylist may not be a RaggedTensor or RaggedTensorValue.")
    splits_dtype = _splits_dtype(row_splits_dtype)
    flat, nested, inner = constant_parts(pylist, ragged_rank, inner_shape)
    kind = dtypes.as_dtype(dtype) if dtype is not None else None
    if nested is None:  # nothing ragged: a tensor, as TF returns
        from .array_ops import reshape
        dense = convert_to_tensor(flat, dtype=kind)
        return dense if inner is None else reshape(dense, list(inner))
    if flat:
        values = convert_to_tensor(flat, dtype=kind)
        if tuple(values.shape) != (len(flat),) + tuple(inner):
            raise ValueError("inner values have inconsistent shape")
    else:
        kind = kind or dtypes.float32
        values = convert_to_tensor(np.zeros((0,) + tuple(inner), object if kind == dtypes.string
                                            else kind.numpy_dtype), dtype=kind)
    for splits in reversed(nested):
        values = RaggedTensor(values, convert_to_tensor(np.asarray(splits, splits_dtype.numpy_dtype)),
                              internal=True)
    return values


def map_flat_values(op, *args, **kwargs):
    """op applied to the flat values of the RaggedTensor arguments (same row partitions), as a RaggedTensor of
    them."""
    ragged = [a for a in list(args) + list(kwargs.values()) if isinstance(a, RaggedTensor)]
    if not ragged:
        raise ValueError("map_flat_values needs at least one RaggedTensor argument.")
    from .ragged_ops import check_same_partitions
    for other in ragged[1:]:
        check_same_partitions(ragged[0], other)
    flat_args = [a.flat_values if isinstance(a, RaggedTensor) else a for a in args]
    flat_kwargs = {k: (v.flat_values if isinstance(v, RaggedTensor) else v) for k, v in kwargs.items()}
    return ragged[0].with_flat_values(op(*flat_args, **flat_kwargs))


def split_rows(strings, sep=None, maxsplit=-1, name=None) -> RaggedTensor:
    """tf.strings.split of a batch of strings: each string's parts as a row."""
    values, splits = execute("_StringSplitRows", (strings,), dtypes.string,
                             {"sep": sep, "maxsplit": int(maxsplit)}, name=name)
    return RaggedTensor(values, splits, internal=True)


def _nested(flat_values, partitions, what, wrap):
    """flat_values wrapped in one ragged dimension per partition, the innermost (last) first."""
    if isinstance(partitions, (int, np.integer)) or hasattr(partitions, "dtype"):
        raise TypeError(f"{what} must be a list of Tensors, got {partitions!r}.")
    result = flat_values
    for partition in reversed(list(partitions)):
        result = wrap(result, partition)
    return result


__all__ = ["RaggedTensor", "constant", "map_flat_values"]


from . import ragged_ops as _ragged_ops  # noqa: E402 - indexing, operators and printing of RaggedTensor

_ragged_ops.install(RaggedTensor)

from .ragged_more import (  # noqa: E402,F401,A004 - the rest of tf.ragged (`range` is TensorFlow's name)
    boolean_mask, cross, cross_hashed, range, row_splits_to_segment_ids, segment_ids_to_row_splits, stack,
    stack_dynamic_partitions,
)
