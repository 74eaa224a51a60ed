"""tf.data.experimental's CSV and SQL sources: CsvDataset (one tuple of scalars per record, parsed as
tf.io.decode_csv parses), make_csv_dataset (batches of column dicts, with TF's type inference from the first
rows, optional label column, epochs and shuffling) and SqlDataset (rows of a SQLite query)."""

from __future__ import annotations

import glob
import os
import re

import numpy as np

from ..framework import dtypes, errors
from .dataset import Dataset, _spec_of
from .file_datasets import _contents, _compression, _paths


def CsvDataset(filenames, record_defaults, compression_type=None, buffer_size=None, header=False,  # noqa: N802
               field_delim=",", use_quote_delim=True, na_value="", select_cols=None, exclude_cols=None, name=None):
    """Records of CSV files as tuples of scalars: a dtype in `record_defaults` makes the column required, a value
    is the column's default for an empty field (as tf.io.decode_csv)."""
    from ..eager.convert import convert_to_tensor
    if select_cols is not None and exclude_cols is not None:
        raise ValueError("Either select_cols or exclude_cols should be set, not both.")
    defaults = [convert_to_tensor([], dtype=d) if isinstance(d, dtypes.DType) else convert_to_tensor(d)
                for d in record_defaults]
    lines = _lines(_paths(filenames), _compression(compression_type), bool(header))

    def decode(line):
        from ..api.io import decode_csv
        columns = select_cols if exclude_cols is None else None
        try:
            fields = decode_csv(line, defaults, field_delim=field_delim, use_quote_delim=use_quote_delim,
                                na_value=na_value, select_cols=columns)
        except errors.InvalidArgumentError as error:  # CsvDataset's text names no record number
            raise errors.InvalidArgumentError(None, None, re.sub(r" in record \d+!", " in record!",
                                                                 error.message)) from None
        return tuple(f.numpy() for f in fields)
    specs = tuple(_spec_of((), d.dtype.numpy_dtype) for d in defaults)
    return Dataset(lambda: (decode(line) for line in lines()), -2, specs)


def _lines(paths, compression, header):
    def make():
        for path in paths:
            rows = _contents(path, compression).split(b"\n")
            if rows and rows[-1] == b"":
                rows.pop()
            yield from (row.rstrip(b"\r") for row in rows[1 if header else 0:])
    return make


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None, label_name=None,
                     select_columns=None, field_delim=",", use_quote_delim=True, na_value="", header=True,
                     num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False, num_rows_for_inference=100,
                     compression_type=None, ignore_errors=False, encoding="utf-8"):
    """Batches of {column name: values} from CSV files (and the label column apart when label_name is given)."""
    if ignore_errors:
        raise NotImplementedError("make_csv_dataset(ignore_errors=True) is not implemented in placeflow.")
    if encoding.lower().replace("-", "") != "utf8":
        raise NotImplementedError(f"make_csv_dataset(encoding={encoding!r}) is not implemented in placeflow (UTF-8 "
                                  "only).")
    files = sorted(glob.glob(file_pattern)) if isinstance(file_pattern, str) else [os.fspath(f) for f in file_pattern]
    if not files:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    compression = _compression(compression_type)
    names = list(column_names) if column_names is not None else _header(files[0], compression, field_delim)
    if len(set(names)) != len(names):
        raise ValueError("Cannot have duplicate column names.")
    chosen = _selected(names, select_columns)
    if label_name is not None and label_name not in [names[i] for i in chosen]:
        raise ValueError(f"`label_name` provided must be one of the columns: {[names[i] for i in chosen]}. Received: "
                         f"{label_name}.")
    defaults = (list(column_defaults) if column_defaults is not None else
                _inferred_defaults(files, compression, bool(header), field_delim, na_value, chosen,
                                   num_rows_for_inference))
    if len(defaults) != len(chosen):
        raise ValueError(f"The number of column_defaults ({len(defaults)}) must match the number of selected "
                         f"columns ({len(chosen)}).")
    records = CsvDataset(files, defaults, compression_type, header=header, field_delim=field_delim,
                         use_quote_delim=use_quote_delim, na_value=na_value, select_cols=chosen)
    keys = [names[i] for i in chosen]

    def to_dict(*fields):
        features = dict(zip(keys, fields))
        return features if label_name is None else (features, features.pop(label_name))
    dataset = records.repeat(num_epochs) if num_epochs != 1 else records
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, seed=shuffle_seed)
    dataset = dataset.batch(batch_size).map(to_dict)
    return dataset.prefetch(prefetch_buffer_size) if prefetch_buffer_size else dataset


def _header(path, compression, delim) -> list:
    first = _contents(path, compression).split(b"\n", 1)[0].rstrip(b"\r").decode()
    return [name.strip().strip('"') for name in first.split(delim)]


def _selected(names, select_columns) -> list:
    if select_columns is None:
        return list(range(len(names)))
    picked = []
    for column in select_columns:
        if isinstance(column, int):
            picked.append(column)
        elif column in names:
            picked.append(names.index(column))
        else:
            raise ValueError(f"Column {column!r} in `select_columns` is not in the column names {names}.")
    return sorted(picked)


def _inferred_defaults(files, compression, header, delim, na_value, chosen, rows) -> list:
    """TF's inference from the first `rows` records: int32, else int64, else float32, else string."""
    import csv
    import io
    kinds = {i: 0 for i in chosen}  # 0 int32, 1 int64, 2 float32, 3 string
    seen = 0
    for path in files:
        text = _contents(path, compression).decode()
        reader = csv.reader(io.StringIO(text), delimiter=delim)
        for index, row in enumerate(reader):
            if (header and index == 0) or seen >= rows:
                continue
            seen += 1
            for i in chosen:
                if i < len(row) and row[i] not in ("", na_value):
                    kinds[i] = max(kinds[i], _kind(row[i]))
    return [[0, np.int64(0), 0.0, ""][kinds[i]] for i in chosen]


def _kind(text: str) -> int:
    try:
        value = int(text)
        return 0 if -2**31 <= value < 2**31 else 1
    except ValueError:
        pass
    try:
        float(text)
        return 2
    except ValueError:
        return 3


def SqlDataset(driver_name, data_source_name, query, output_types):  # noqa: N802 - TensorFlow's name
    """The rows of `query` on a SQLite database, as tuples of scalars of `output_types`."""
    import sqlite3
    if driver_name != "sqlite":
        raise NotImplementedError(f"SqlDataset(driver_name={driver_name!r}): placeflow reads SQLite only, as TF.")
    single = not isinstance(output_types, (tuple, list))
    types = [dtypes.as_dtype(t) for t in ((output_types,) if single else output_types)]

    def make():
        connection = sqlite3.connect(f"file:{data_source_name}?mode=ro", uri=True)
        try:
            for row in connection.execute(query):
                if len(row) != len(types):
                    from ..framework.errors import InvalidArgumentError
                    raise InvalidArgumentError(None, None, f"The query returned {len(row)} columns but "
                                                           f"output_types has {len(types)}.")
                values = tuple(_as_value(value, t) for value, t in zip(row, types))
                yield values[0] if single else values
        finally:
            connection.close()
    specs = tuple(_spec_of((), t.numpy_dtype) for t in types)
    return Dataset(make, -2, specs[0] if single else specs)


def _as_value(value, dtype):
    if dtype == dtypes.string:
        return np.array(value.encode() if isinstance(value, str) else bytes(value), dtype=object)
    return np.asarray(value, dtype=dtype.numpy_dtype)
