"""Hash-table ops (tf.lookup): a table is a host object held in the op's `table` attribute; keys and values
are host arrays (strings as bytes objects). Inserts and removals are stateful ops, so in a graph they run
when the step runs, in the order written."""

import numpy as np

from ..framework import dtypes as d
from .registry import ANY, CHEAP, NOT_DIFFERENTIABLE, define


def _host(array):
    return array.get() if hasattr(array, "get") else np.asarray(array)


def _key(value):
    return value.encode("utf-8") if isinstance(value, str) else (value.item() if hasattr(value, "item") else value)


def _same_shape(shapes, attrs):
    return shapes[0]


@define("LookupTableFindV2", ANY, gpu=(), shape=_same_shape, grad=NOT_DIFFERENTIABLE, cost=CHEAP,
        dtype=lambda dtype, attrs: attrs["table"].value_dtype)
def _find(xp, keys, table=None, _stateful=True):
    """Each key's value, or the table's default for keys it does not hold."""
    host = _host(keys)
    out = np.empty(host.shape, dtype=object if table.value_dtype == d.string else table.value_dtype.numpy_dtype)
    flat, default = out.reshape(-1), table.default
    with table.lock:
        entries = table.entries
        for index, key in enumerate(host.reshape(-1)):
            flat[index] = entries.get(_key(key), default)
    return out


@define("LookupTableInsertV2", ANY, gpu=(), shape=lambda shapes, attrs: (), grad=NOT_DIFFERENTIABLE, cost=CHEAP,
        dtype=lambda dtype, attrs: d.bool)
def _insert(xp, keys, values, table=None, _stateful=True):
    """Set each key's value (keys and values of the same shape)."""
    host_keys, host_values = _host(keys).reshape(-1), _host(values).reshape(-1)
    with table.lock:
        for key, value in zip(host_keys, host_values):
            table.entries[_key(key)] = value
    return np.array(True)


@define("LookupTableRemoveV2", ANY, gpu=(), shape=lambda shapes, attrs: (), grad=NOT_DIFFERENTIABLE, cost=CHEAP,
        dtype=lambda dtype, attrs: d.bool)
def _remove(xp, keys, table=None, _stateful=True):
    """Drop the keys the table holds (others are ignored)."""
    with table.lock:
        for key in _host(keys).reshape(-1):
            table.entries.pop(_key(key), None)
    return np.array(True)


@define("LookupTableSizeV2", {d.int64}, gpu=(), shape=lambda shapes, attrs: (), grad=NOT_DIFFERENTIABLE,
        cost=CHEAP, dtype=lambda dtype, attrs: d.int64)
def _size(xp, table=None, _stateful=True):
    """How many keys the table holds now."""
    with table.lock:
        return np.array(len(table.entries), np.int64)


def _export_shapes(shapes, attrs):
    return [(None,), (None,)]


@define("LookupTableExportV2", {d.int64}, gpu=(), shape=_export_shapes, grad=NOT_DIFFERENTIABLE, cost=CHEAP,
        dtype=lambda dtype, attrs: [attrs["table"].key_dtype, attrs["table"].value_dtype])
def _export(xp, table=None, _stateful=True):
    """(keys, values) of every entry, in insertion order."""
    with table.lock:
        keys, values = list(table.entries), list(table.entries.values())
    return _array(keys, table.key_dtype), _array(values, table.value_dtype)


def _array(items, dtype):
    if dtype == d.string:
        out = np.empty(len(items), dtype=object)
        out[:] = items
        return out
    return np.array(items, dtype=dtype.numpy_dtype).reshape(-1)
