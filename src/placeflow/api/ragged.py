"""tf.RaggedTensor and tf.ragged: tensors whose rows have different lengths, held as TensorFlow holds them,
`values` (the rows' elements one after another) and `row_splits` (where each row starts; int64). One ragged
dimension (ragged_rank 1): what tf.strings.split of a batch, Keras's TextVectorization and
StringLookup make. Eagerly and inside `function` (its parts are ordinary tensors; the host kernels are in
ops/ragged.py). Nested ragged dimensions are refused by name."""

from __future__ import annotations

import builtins

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes


def _refuse(name):
    raise NotImplementedError(f"{name} is not implemented in placeflow: its RaggedTensor has one ragged dimension "
                              "(ragged_rank 1); pad the inner rows (e.g. with to_tensor) first.")


def _splits_dtype(dtype):
    """row_splits_dtype: int32 or int64, as TF accepts."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"row_splits_dtype must be int32 or int64; got {dtype.name}.")
    return dtype


def _splits(value):
    literal = isinstance(value, (list, tuple, int))  # Python literals become int64 splits, as in TF
    splits = convert_to_tensor(value, dtype=dtypes.int64) if literal else convert_to_tensor(value)
    if splits.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"row_splits must be int32 or int64; got {splits.dtype.name}.")
    return splits


class RaggedTensor:
    """Rows of different lengths: `values` and `row_splits` (row i is values[row_splits[i]:row_splits[i+1]])."""

    def __init__(self, values, row_splits, internal=False):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory methods instead "
                             "(e.g., RaggedTensor.from_row_lengths())")
        self._values, self._row_splits = values, row_splits

    def _function_output_parts(self) -> tuple:
        """The tensors a function returns for this value (graph/function.py rebuilds it from their values)."""
        return self._values, self._row_splits

    def _from_function_output_parts(self, parts):
        """This value rebuilt from the values of its `_function_output_parts`."""
        return RaggedTensor(parts[0], parts[1], internal=True)

    # -- factories --------------------------------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        """Rows values[row_splits[i]:row_splits[i + 1]]."""
        if isinstance(values, RaggedTensor):
            _refuse("A RaggedTensor of RaggedTensors (ragged_rank 2)")
        values = convert_to_tensor(values)
        splits = _splits(row_splits)
        if validate and hasattr(splits, "numpy") and hasattr(values, "numpy"):
            from ..ops.ragged import check_splits
            check_splits(splits.numpy(), int(values.shape[0]))
        return cls(values, splits, internal=True)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        """Rows of the given lengths, one after another."""
        from .math_ops import cast, cumsum
        from .array_ops import concat
        lengths = cast(convert_to_tensor(row_lengths), dtypes.int64)
        return cls.from_row_splits(values, concat([[0], cumsum(lengths)], 0), validate=validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """Rows made of the values whose row id is i (row ids sorted)."""
        from .math_ops import bincount, cast, cumsum
        from .array_ops import concat
        rowids = cast(convert_to_tensor(value_rowids), dtypes.int32)
        counts = bincount(rowids, minlength=None if nrows is None else int(nrows), dtype=dtypes.int64)
        return cls.from_row_splits(values, concat([[0], cumsum(counts)], 0), validate=validate)

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None, row_splits_dtype=dtypes.int64):
        """The rows of a padded tensor: each row's first lengths[i] entries, or its entries before the trailing
        `padding`, or all of them."""
        if ragged_rank != 1:
            _refuse(f"RaggedTensor.from_tensor(ragged_rank={ragged_rank})")
        if lengths is not None and padding is not None:
            raise ValueError("Specify argument `lengths` or `padding`, but not both.")
        dense = convert_to_tensor(tensor)
        attrs = {"lengths": None if lengths is None else tuple(int(v) for v in _static(lengths, "lengths")),
                 "padding": None if padding is None else _static(padding, "padding")}
        values, splits = execute("_RaggedFromTensor", (dense,), dense.dtype, attrs, name=name)
        wanted = _splits_dtype(row_splits_dtype)
        if splits.dtype != wanted:
            from .math_ops import cast
            splits = cast(splits, wanted)
        return cls(values, splits, internal=True)

    # -- parts ------------------------------------------------------------------------------------------------
    @property
    def values(self):
        """The rows' elements, one row after another."""
        return self._values

    @property
    def flat_values(self):
        """The innermost values (the values, with one ragged dimension)."""
        return self._values

    @property
    def row_splits(self):
        """Where each row starts, and the number of values last."""
        return self._row_splits

    @property
    def dtype(self):
        """The values' dtype."""
        return self._values.dtype

    @property
    def ragged_rank(self) -> int:
        """The number of ragged dimensions: 1."""
        return 1

    @property
    def shape(self):
        """[rows, None, ...the values' inner dimensions]."""
        from ..framework.tensor_shape import TensorShape
        count = self._row_splits.shape[0] if self._row_splits.shape is not None else None
        inner = list(self._values.shape[1:]) if self._values.shape is not None else []
        return TensorShape([None if count is None else int(count) - 1, None] + inner)

    def get_shape(self):
        """The static shape (TensorFlow 1 name)."""
        return self.shape

    @property
    def row_splits_dtype(self):
        """The dtype of row_splits."""
        return self._row_splits.dtype

    def row_lengths(self, axis=1, name=None):
        """The length of each row (axis 1 or -1); axis 0 (or -2): the number of rows, as TF."""
        if not -2 <= int(axis) < 2:
            raise ValueError(f"axis={axis} out of bounds: expected -2<=axis<2")
        if int(axis) in (0, -2):
            return self.nrows()
        return self._row_splits[1:] - self._row_splits[:-1]

    def nrows(self, out_type=None, name=None):
        """The number of rows."""
        from .array_ops import shape
        from .math_ops import cast
        count = shape(self._row_splits, out_type=dtypes.int64)[0] - 1
        return count if out_type is None else cast(count, out_type)

    def value_rowids(self, name=None):
        """The row of each value."""
        return execute("_RaggedRowIds", (self._row_splits,), self._row_splits.dtype, name=name)

    def row_starts(self, name=None):
        """Where each row starts."""
        return self._row_splits[:-1]

    def row_limits(self, name=None):
        """Where each row ends."""
        return self._row_splits[1:]

    # -- conversions ------------------------------------------------------------------------------------------
    def to_tensor(self, default_value=None, name=None, shape=None):
        """A dense [rows, width, ...] tensor: rows padded with default_value (0 or b''), cut to `shape` when given
        (None entries: the number of rows, the longest row)."""
        fill = convert_to_tensor(default_value if default_value is not None else
                                 (b"" if self.dtype == dtypes.string else 0), dtype=self.dtype)
        wanted = None
        if shape is not None:
            known = _static(shape, "shape") if not isinstance(shape, (list, tuple)) else shape
            wanted = tuple(None if d is None or int(d) < 0 else int(d) for d in
                           (known.as_list() if hasattr(known, "as_list") else list(known)))[:2]
        return execute("_RaggedToDense", (self._values, self._row_splits, fill), self.dtype, {"shape": wanted},
                       name=name)

    def with_values(self, new_values):
        """The same rows holding `new_values` (as many as the values)."""
        return RaggedTensor(convert_to_tensor(new_values), self._row_splits, internal=True)

    def with_flat_values(self, new_values):
        """The same rows holding `new_values`."""
        return self.with_values(new_values)

    def to_list(self) -> list:
        """The rows as nested Python lists (eager)."""
        values, splits = self._values.numpy(), self._row_splits.numpy()
        return [values[splits[i]:splits[i + 1]].tolist() for i in builtins.range(len(splits) - 1)]

    def numpy(self):
        """An object array of each row's NumPy array (eager)."""
        values, splits = self._values.numpy(), self._row_splits.numpy()
        rows = np.empty(len(splits) - 1, dtype=object)
        for i in builtins.range(len(splits) - 1):
            rows[i] = values[splits[i]:splits[i + 1]]
        return rows

    def __repr__(self) -> str:
        if hasattr(self._values, "numpy"):
            return f"<tf.RaggedTensor {_format_rows(self.to_list())}>"
        return (f"tf.RaggedTensor(values={self._values!r}, row_splits={self._row_splits!r})")

    __str__ = __repr__


def _format_rows(rows) -> str:
    return "[" + ", ".join("[" + ", ".join(repr(v) for v in row) + "]" for row in rows) + "]"


def _static(value, what: str):
    from .array_ops import get_static_value
    known = get_static_value(value)
    if known is None:
        raise NotImplementedError(f"a RaggedTensor {what} computed only when the graph runs is not implemented in "
                                  f"placeflow; pass it as a Python value.")
    return known


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=dtypes.int64):
    """A RaggedTensor of a list of rows (lists of scalars)."""
    if ragged_rank not in (None, 1) or inner_shape not in (None, ()):
        _refuse(f"tf.ragged.constant(ragged_rank={ragged_rank}, inner_shape={inner_shape})")
    rows = [list(row) for row in pylist]
    if any(isinstance(v, (list, tuple)) for row in rows for v in row):
        _refuse("tf.ragged.constant of nested rows (ragged_rank 2)")
    flat = [v for row in rows for v in row]
    values = convert_to_tensor(flat, dtype=dtype) if flat else convert_to_tensor(
        np.zeros(0, (dtypes.as_dtype(dtype) if dtype is not None else dtypes.float32).numpy_dtype))
    splits = np.concatenate([[0], np.cumsum([len(row) for row in rows])]).astype(
        _splits_dtype(row_splits_dtype).numpy_dtype)
    return RaggedTensor(values, convert_to_tensor(splits), internal=True)


def map_flat_values(op, *args, **kwargs):
    """op applied to the flat values of the RaggedTensor arguments (same rows), as a RaggedTensor of them."""
    ragged = [a for a in list(args) + list(kwargs.values()) if isinstance(a, RaggedTensor)]
    if not ragged:
        raise ValueError("map_flat_values needs at least one RaggedTensor argument.")
    flat_args = [a.flat_values if isinstance(a, RaggedTensor) else a for a in args]
    flat_kwargs = {k: (v.flat_values if isinstance(v, RaggedTensor) else v) for k, v in kwargs.items()}
    return ragged[0].with_flat_values(op(*flat_args, **flat_kwargs))


def split_rows(strings, sep=None, maxsplit=-1, name=None) -> RaggedTensor:
    """tf.strings.split of a batch of strings: each string's parts as a row."""
    values, splits = execute("_StringSplitRows", (strings,), dtypes.string,
                             {"sep": sep, "maxsplit": int(maxsplit)}, name=name)
    return RaggedTensor(values, splits, internal=True)


__all__ = ["RaggedTensor", "constant", "map_flat_values"]


from .ragged_more import (  # noqa: E402,F401,A004 - the rest of tf.ragged (`range` is TensorFlow's name)
    boolean_mask, cross, cross_hashed, range, row_splits_to_segment_ids, segment_ids_to_row_splits, stack,
    stack_dynamic_partitions,
)
