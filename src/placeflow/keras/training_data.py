"""What fit/evaluate/predict iterate: host batches from NumPy arrays or a Dataset, spread to the replicas."""

from __future__ import annotations

import numpy as np

from ..data.dataset import Dataset
from ..distribute.input_lib import DistributedDataset


class HostBatches:
    """Batches of host arrays (x, y) or x alone, reshuffled per epoch when asked (seeded)."""

    def __init__(self, x, y=None, batch_size=32, shuffle=False, seed=None):
        self.x = _host(x)
        self.y = None if y is None else _host(y)
        if self.y is not None and len(self.y) != len(self.x):
            raise ValueError(f"Data cardinality is ambiguous: x sizes: {len(self.x)}, y sizes: {len(self.y)}. "
                             "Make sure all arrays contain the same number of samples.")
        self.batch_size = int(batch_size or 32)
        self.shuffle = shuffle
        self._rng = np.random.default_rng(seed)

    def __len__(self) -> int:
        return -(-len(self.x) // self.batch_size)

    def _make_iterator(self):
        count = len(self.x)
        order = self._rng.permutation(count) if self.shuffle else None
        for start in range(0, count, self.batch_size):
            rows = slice(start, start + self.batch_size) if order is None else order[start:start + self.batch_size]
            xb = self.x[rows]
            yield xb if self.y is None else (xb, self.y[rows])


class DatasetBatches:
    """A user's Dataset whose elements are already batches ((x, y) or x)."""

    def __init__(self, dataset: Dataset):
        self.dataset = dataset

    def __len__(self):
        size = self.dataset.cardinality()
        return size if size >= 0 else None

    def _make_iterator(self):
        return self.dataset._make_iterator()


def batches_of(x, y, batch_size, shuffle, seed=None):
    """HostBatches for arrays, DatasetBatches for a Dataset (then y and batch_size must be None)."""
    if isinstance(x, Dataset):
        if y is not None:
            raise ValueError("`y` argument is not supported when using dataset as input: the dataset yields "
                             "(x, y) pairs.")
        return DatasetBatches(x)
    if x is None:
        raise ValueError("fit/evaluate/predict need input data `x` (NumPy arrays or a placeflow.data.Dataset).")
    return HostBatches(x, y, batch_size, shuffle, seed)


def distributed(source, strategy):
    """Iterate `source`'s batches as tensors on the strategy's devices (PerReplica when several)."""
    devices = list(strategy.extended.worker_devices) or [None]
    return DistributedDataset(source, devices)


def rows_of(batch) -> int:
    """Global rows in a (possibly distributed) batch."""
    from ..distribute.values import local_results
    from ..framework.nest import flatten
    first = flatten(batch)[0]
    return sum(int(part.shape[0]) for part in local_results(first))


def _host(value):
    if hasattr(value, "numpy"):
        return value.numpy()
    return np.asarray(value)
