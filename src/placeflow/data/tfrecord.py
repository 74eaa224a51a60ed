"""tf.data.TFRecordDataset: the records of TFRecord files (api/tfrecord.py reads them) as scalar strings."""

from __future__ import annotations

import numpy as np

from ..api.tfrecord import _compression, read_records
from ..framework import errors


def tfrecord_dataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
    """tf.data.TFRecordDataset: every record of each file in turn, as a scalar string."""
    from .dataset import Dataset, _spec_of
    from ..framework import dtypes
    names = filenames.numpy() if hasattr(filenames, "numpy") else filenames
    paths = [names] if isinstance(names, (str, bytes)) or np.ndim(names) == 0 else list(np.asarray(names).reshape(-1))
    paths = [p.decode("utf-8") if isinstance(p, bytes) else str(p) for p in paths]
    compression = _compression(compression_type)

    def make():
        for path in paths:
            try:
                for body in read_records(path, compression):
                    yield np.asarray(body, dtype=object)
            except FileNotFoundError:
                raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None
    return Dataset(make, -2, _spec_of((), dtypes.string))
