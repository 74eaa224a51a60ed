"""tf.lookup: StaticHashTable, KeyValueTensorInitializer, TextFileInitializer and experimental.MutableHashTable.

A table's entries live on the host (a dict); `lookup`, `insert`, `remove`, `size` and `export` are ops
(ops/lookup.py), so they work eagerly and inside `function`, where the updates run when the step runs."""

from __future__ import annotations

import threading
import types

import numpy as np

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes


class TextFileIndex:
    """Which part of a line is a key or value: the whole line, or its line number."""

    WHOLE_LINE = -2
    LINE_NUMBER = -1


class _Initializer:
    """A table initializer: its dtypes, and `initialize(table)`, which fills the table (TF's protocol; Keras
    subclasses it)."""

    @property
    def key_dtype(self):
        """The keys' dtype."""
        return self._key_dtype

    @property
    def value_dtype(self):
        """The values' dtype."""
        return self._value_dtype

    def initialize(self, table):
        """Put this initializer's entries into `table`."""
        keys, values = self._pairs()
        if len(keys) != len(values):
            raise ValueError(f"keys and values must have the same size; got {len(keys)} and {len(values)}")
        with table._table.lock:
            for key, value in zip(keys, values):
                table._table.entries[_key(key)] = value


class KeyValueTensorInitializer(_Initializer):
    """A table's entries from two 1-D tensors of keys and values."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = convert_to_tensor(keys, dtype=key_dtype)
        self._values = convert_to_tensor(values, dtype=value_dtype)
        self._key_dtype, self._value_dtype = self._keys.dtype, self._values.dtype

    def _pairs(self):
        return _host(self._keys), _host(self._values)


class TextFileInitializer(_Initializer):
    """A table's entries from a text file: keys and values are whole lines, line numbers or delimited fields."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None, delimiter="\t",
                 name=None, value_index_offset=0):
        self._filename, self._delimiter, self._vocab_size = filename, delimiter, vocab_size
        self._key_dtype, self._value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        self._key_index, self._value_index, self._offset = key_index, value_index, value_index_offset

    def _column(self, lines, index, dtype, offset=0):
        if index == TextFileIndex.LINE_NUMBER:
            return np.arange(len(lines), dtype=np.int64) + offset
        parts = lines if index == TextFileIndex.WHOLE_LINE else [line.split(self._delimiter)[index] for line in lines]
        if dtype == dtypes.string:
            return np.array([p.encode("utf-8") for p in parts], dtype=object)
        return np.array([int(p) if dtype.is_integer else float(p) for p in parts], dtype=dtype.numpy_dtype)

    def _pairs(self):
        path = self._filename.numpy().decode() if hasattr(self._filename, "numpy") else str(self._filename)
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        if self._vocab_size is not None:
            lines = lines[:int(self._vocab_size)]
        return (self._column(lines, self._key_index, self.key_dtype),
                self._column(lines, self._value_index, self.value_dtype, self._offset))


def _host(tensor) -> np.ndarray:
    return np.asarray(tensor.numpy()).reshape(-1)


def _key(value):
    return value.encode("utf-8") if isinstance(value, str) else (value.item() if hasattr(value, "item") else value)


class _Table:
    """What the ops hold: the entries, their dtypes, the default value, and a lock."""

    def __init__(self, key_dtype, value_dtype, default):
        self.key_dtype, self.value_dtype, self.default = key_dtype, value_dtype, default
        self.entries: dict = {}
        self.lock = threading.Lock()


class _TableBase:
    def __init__(self, key_dtype, value_dtype, default_value):
        default = convert_to_tensor(default_value, dtype=value_dtype).numpy()
        self._table = _Table(dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype),
                             default.item() if default.dtype.kind != "O" else default.reshape(-1)[0])
        self._default_value = convert_to_tensor(default_value, dtype=value_dtype)

    @property
    def key_dtype(self):
        """The keys' dtype."""
        return self._table.key_dtype

    @property
    def value_dtype(self):
        """The values' dtype."""
        return self._table.value_dtype

    @property
    def default_value(self):
        """The value of keys the table does not hold."""
        return self._default_value

    def lookup(self, keys, name=None):
        """Each key's value (the default for missing keys), in the keys' shape."""
        if hasattr(keys, "dtype") and keys.dtype != self.key_dtype:
            raise TypeError(f"Signature mismatch. Keys must be dtype {self.key_dtype.name}, got {keys.dtype.name}.")
        keys = convert_to_tensor(keys, dtype=self.key_dtype)
        return execute("LookupTableFindV2", (keys,), keys.dtype, {"table": self._table, "_stateful": True}, name=name)

    def size(self, name=None):
        """How many keys the table holds (an int64 scalar)."""
        return execute("LookupTableSizeV2", (), dtypes.int64, {"table": self._table, "_stateful": True}, name=name)

    def export(self, name=None):
        """(keys, values) of every entry."""
        return tuple(execute("LookupTableExportV2", (), dtypes.int64, {"table": self._table, "_stateful": True}, name=name))

    def __getitem__(self, keys):
        return self.lookup(keys)


class StaticHashTable(_TableBase):
    """A table filled once from an initializer; lookups only."""

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        super().__init__(initializer.key_dtype, initializer.value_dtype, default_value)
        self._initializer = initializer
        initializer.initialize(self)


class MutableHashTable(_TableBase):
    """A table whose entries are inserted and removed (tf.lookup.experimental.MutableHashTable)."""

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable", checkpoint=True,
                 experimental_is_anonymous=False):
        super().__init__(key_dtype, value_dtype, default_value)

    def insert(self, keys, values, name=None):
        """Set the values of `keys` (same shapes); returns the insert op's result."""
        keys = convert_to_tensor(keys, dtype=self.key_dtype)
        values = convert_to_tensor(values, dtype=self.value_dtype)
        if tuple(keys.shape) != tuple(values.shape):
            raise ValueError(f"keys and values must have the same shape; got {keys.shape} and {values.shape}")
        return execute("LookupTableInsertV2", (keys, values), keys.dtype, {"table": self._table, "_stateful": True}, name=name)

    def remove(self, keys, name=None):
        """Drop `keys` from the table."""
        keys = convert_to_tensor(keys, dtype=self.key_dtype)
        return execute("LookupTableRemoveV2", (keys,), keys.dtype, {"table": self._table, "_stateful": True}, name=name)


experimental = types.SimpleNamespace(MutableHashTable=MutableHashTable)


class StaticVocabularyTable:
    """Keys of a vocabulary to their int64 ids, and every other key to one of `num_oov_buckets` ids after the
    vocabulary (vocabulary size + Fingerprint64 bucket of the key, or of an integer key's decimal text)."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if initializer.value_dtype != dtypes.int64:
            raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64!s} but got {initializer.value_dtype!s}.")
        self._table = StaticHashTable(initializer, -1)
        self._num_oov_buckets = int(num_oov_buckets)
        self._key_dtype = dtypes.as_dtype(lookup_key_dtype or initializer.key_dtype)
        self.name = name or "hash_table"

    @property
    def key_dtype(self):
        """The dtype lookups take."""
        return self._key_dtype

    @property
    def value_dtype(self):
        """int64: the ids."""
        return dtypes.int64

    @property
    def resource_handle(self):
        """The table itself (placeflow has no separate resource handles)."""
        return self._table

    def size(self, name=None):
        """The vocabulary size plus the number of OOV buckets (an int64 scalar)."""
        from . import math_ops
        return math_ops.add(self._table.size(), convert_to_tensor(self._num_oov_buckets, dtype=dtypes.int64))

    def lookup(self, keys, name=None):
        """Each key's id: its vocabulary id, else vocabulary size + its hash bucket."""
        from . import math_ops, strings
        if hasattr(keys, "dtype") and keys.dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype!s}, received: {keys.dtype!s}")
        keys = convert_to_tensor(keys, dtype=self._key_dtype)
        ids = self._table.lookup(keys)
        text = keys if self._key_dtype == dtypes.string else strings.as_string(keys)
        buckets = math_ops.add(strings.to_hash_bucket_fast(text, self._num_oov_buckets), self._table.size())
        return math_ops.where(math_ops.equal(ids, convert_to_tensor(-1, dtype=dtypes.int64)), buckets, ids)

    def __getitem__(self, keys):
        return self.lookup(keys)
