"""TensorFlow 1's value classes for composite tensors: what a Session run (and tf.test.TestCase.evaluate)
returns for a SparseTensor, a RaggedTensor or an IndexedSlices: tf.compat.v1.SparseTensorValue,
tf.compat.v1.ragged.RaggedTensorValue and IndexedSlicesValue, holding NumPy arrays."""

from __future__ import annotations

import collections

import numpy as np

SparseTensorValue = collections.namedtuple("SparseTensorValue", ["indices", "values", "dense_shape"])
SparseTensorValue.__doc__ = "A SparseTensor's value: (indices, values, dense_shape) as NumPy arrays."

IndexedSlicesValue = collections.namedtuple("IndexedSlicesValue", ["values", "indices", "dense_shape"])
IndexedSlicesValue.__doc__ = "An IndexedSlices' value: (values, indices, dense_shape) as NumPy arrays."


class RaggedTensorValue:
    """A RaggedTensor's value: flat values and one row_splits array per ragged dimension (NumPy arrays)."""

    def __init__(self, values, row_splits):
        row_splits = np.asarray(row_splits)
        if row_splits.ndim != 1 or row_splits.dtype.kind not in "iu":
            raise TypeError(f"row_splits must be a 1-D integer array, got {row_splits!r}")
        if not isinstance(values, (np.ndarray, RaggedTensorValue)):
            raise TypeError(f"values must be a NumPy array or a RaggedTensorValue, got {type(values).__name__}")
        self._values, self._row_splits = values, row_splits

    @classmethod
    def from_splits(cls, flat_values, nested_row_splits) -> "RaggedTensorValue":
        """The value whose outermost row_splits is nested_row_splits[0] over the inner ones and flat_values."""
        value = np.asarray(flat_values)
        for splits in reversed(list(nested_row_splits)):
            value = cls(value, splits)
        return value

    values = property(lambda self: self._values, doc="The next ragged level, or the flat values.")
    row_splits = property(lambda self: self._row_splits, doc="Where each row starts in `values`, then its end.")

    @property
    def flat_values(self) -> np.ndarray:
        """The innermost values."""
        value = self._values
        while isinstance(value, RaggedTensorValue):
            value = value.values
        return value

    @property
    def nested_row_splits(self) -> tuple:
        """The row_splits of each ragged dimension, outermost first."""
        splits, value = [self._row_splits], self._values
        while isinstance(value, RaggedTensorValue):
            splits.append(value.row_splits)
            value = value.values
        return tuple(splits)

    @property
    def ragged_rank(self) -> int:
        """The number of ragged dimensions."""
        return len(self.nested_row_splits)

    @property
    def dtype(self):
        """The NumPy dtype of the flat values."""
        return self.flat_values.dtype

    @property
    def shape(self) -> tuple:
        """(rows, None for each ragged dimension, then the flat values' inner dimensions)."""
        return (len(self._row_splits) - 1,) + (None,) * self.ragged_rank + tuple(self.flat_values.shape[1:])

    def to_list(self) -> list:
        """The value as nested Python lists."""
        inner = self._values.to_list() if isinstance(self._values, RaggedTensorValue) else self._values.tolist()
        return [inner[start:end] for start, end in zip(self._row_splits[:-1], self._row_splits[1:])]

    def __repr__(self) -> str:
        return f"tf.RaggedTensorValue(values={self._values!r}, row_splits={self._row_splits!r})"
