"""tf.sets: set operations along the last dimension of dense tensors or SparseTensors (each row a set of its
distinct values), as host computations on eager values; results are SparseTensors of sorted values."""

from __future__ import annotations

import itertools

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes
from .sparse import SparseTensor

_ALLOWED = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.string)


def _rows(value) -> tuple:
    """({leading index: [values]}, leading shape, dtype) of a dense tensor or a SparseTensor."""
    if isinstance(value, SparseTensor):
        indices, values = value.indices.numpy(), value.values.numpy()
        leading = [int(d) for d in value.dense_shape.numpy()[:-1]]
        rows: dict = {}
        for index, item in zip(map(tuple, indices[:, :-1].tolist()), values.tolist()):
            rows.setdefault(index, []).append(item)
        dtype = value.dtype
    else:
        tensor = convert_to_tensor(value)
        array, dtype = tensor.numpy(), tensor.dtype
        leading = list(array.shape[:-1])
        rows = {index: array[index].tolist() for index in itertools.product(*(range(d) for d in leading))}
    if dtype not in _ALLOWED:
        raise TypeError(f"Invalid dtype {dtype.name} for a set operation; expected an integer or string dtype.")
    return rows, leading, dtype


def _result(rows: dict, leading: list, dtype) -> SparseTensor:
    width = max((len(v) for v in rows.values()), default=0)
    indices, values = [], []
    for index in itertools.product(*(range(d) for d in leading)):
        for position, item in enumerate(rows.get(index, [])):
            indices.append(list(index) + [position])
            values.append(item)
    host = np.empty(len(values), dtype=object) if dtype == dtypes.string else np.asarray(values, dtype.numpy_dtype)
    if dtype == dtypes.string:
        host[:] = values
    return SparseTensor(np.asarray(indices, np.int64).reshape(-1, len(leading) + 1),
                        convert_to_tensor(host, dtype=dtype), leading + [width])


def _set_operation(a, b, combine) -> SparseTensor:
    rows_a, leading, dtype = _rows(a)
    rows_b, other, other_dtype = _rows(b)
    if leading != other or dtype != other_dtype:
        raise ValueError(f"Set operands must have the same leading shape and dtype; got {leading} {dtype.name} and "
                         f"{other} {other_dtype.name}.")
    keys = set(rows_a) | set(rows_b)
    return _result({k: sorted(combine(set(rows_a.get(k, [])), set(rows_b.get(k, [])))) for k in keys}, leading,
                   dtype)


def intersection(a, b, validate_indices=True):
    """Each row's values present in both a and b."""
    return _set_operation(a, b, lambda x, y: x & y)


def union(a, b, validate_indices=True):
    """Each row's values present in a or b."""
    return _set_operation(a, b, lambda x, y: x | y)


def difference(a, b, aminusb=True, validate_indices=True):
    """Each row's values in a and not in b (or in b and not in a, with aminusb=False)."""
    return _set_operation(a, b, (lambda x, y: x - y) if aminusb else (lambda x, y: y - x))


def size(a, validate_indices=True):
    """The number of distinct values in each row of SparseTensor `a` (int32)."""
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a}.")
    rows, leading, _ = _rows(a)
    counts = np.zeros(leading, np.int32)
    for index, values in rows.items():
        counts[index] = len(set(values))
    return convert_to_tensor(counts)
