"""What fit/evaluate/predict iterate: host batches from NumPy arrays or a Dataset, spread to the replicas."""

from __future__ import annotations

import numpy as np

from ..framework import nest

from ..data.dataset import Dataset
from ..distribute.input_lib import DistributedDataset


class HostBatches:
    """Batches of host arrays (x, y) or x alone, reshuffled per epoch when asked (seeded)."""

    def __init__(self, x, y=None, batch_size=32, shuffle=False, seed=None, sample_weight=None):
        self.x = _host_structure(x)  # an array, or a list/tuple/dict of arrays (a model's several inputs)
        self.y = None if y is None else _host_structure(y)
        self.sample_weight = None if sample_weight is None else _host(sample_weight).astype(np.float32)
        sizes = {name: sorted({len(a) for a in nest.flatten(part)}) for name, part in
                 (("x", self.x), ("y", self.y), ("sample_weight", self.sample_weight)) if part is not None}
        if len({size for found in sizes.values() for size in found}) > 1:
            described = ", ".join(f"{name} sizes: {', '.join(map(str, found))}" for name, found in sizes.items())
            raise ValueError(f"Data cardinality is ambiguous: {described}. Make sure all arrays contain the same "
                             f"number of samples.")
        self._rows = len(nest.flatten(self.x)[0])
        self.batch_size = int(batch_size or 32)
        self.shuffle = shuffle
        self._rng = np.random.default_rng(seed)

    def __len__(self) -> int:
        return -(-self._rows // self.batch_size)

    def _make_iterator(self):
        count = self._rows
        order = self._rng.permutation(count) if self.shuffle else None
        for start in range(0, count, self.batch_size):
            rows = slice(start, start + self.batch_size) if order is None else order[start:start + self.batch_size]
            xb = _rows(self.x, rows)
            if self.y is None:
                yield xb
            elif self.sample_weight is None:
                yield xb, _rows(self.y, rows)
            else:
                yield xb, _rows(self.y, rows), self.sample_weight[rows]


class DatasetBatches:
    """A user's Dataset whose elements are already batches ((x, y) or x)."""

    def __init__(self, dataset: Dataset):
        self.dataset = dataset

    def __len__(self):
        size = self.dataset.cardinality()
        return size if size >= 0 else None

    def _make_iterator(self):
        return self.dataset._make_iterator()


def batches_of(x, y, batch_size, shuffle, seed=None, sample_weight=None, class_weight=None):
    """HostBatches for arrays, DatasetBatches for a Dataset (then y and batch_size must be None); class
    weights become per-example sample weights (the two cannot be combined, as in Keras)."""
    if class_weight is not None and sample_weight is not None:
        raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
    if isinstance(x, Dataset):
        if y is not None or sample_weight is not None:
            raise ValueError("`y` argument is not supported when using dataset as input: the dataset yields "
                             "(x, y) or (x, y, sample_weight) batches.")
        source = DatasetBatches(x)
        return source if class_weight is None else ClassWeighted(source, class_weight)
    if x is None:
        raise ValueError("fit/evaluate/predict need input data `x` (NumPy arrays or a placeflow.data.Dataset).")
    if class_weight is not None:
        if y is None:
            raise ValueError("`class_weight` needs targets `y`.")
        sample_weight = class_weights_of(_host(y), class_weight)
    return HostBatches(x, y, batch_size, shuffle, seed, sample_weight)


class ClassWeighted:
    """A Dataset's (x, y) batches with sample weights from `class_weight` added."""

    def __init__(self, source, class_weight):
        self.source, self.class_weight = source, class_weight

    def __len__(self):
        return len(self.source)

    def _make_iterator(self):
        for x, y, *rest in self.source._make_iterator():
            if rest:
                raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
            yield x, y, class_weights_of(_host(y), self.class_weight)


def class_weights_of(y, class_weight) -> np.ndarray:
    """One weight per example: class_weight[label] (labels are argmax of one-hot rows)."""
    labels = np.argmax(y, axis=-1) if y.ndim > 1 and y.shape[-1] > 1 else y.reshape(len(y), -1)[:, 0]
    labels = labels.astype(np.int64)
    missing = sorted(set(labels.tolist()) - set(int(k) for k in class_weight))
    if missing:
        raise ValueError(f"`class_weight` must contain all classes in the data. The classes {set(missing)} exist in "
                         f"the data but not in `class_weight`.")
    table = {int(k): float(v) for k, v in class_weight.items()}
    return np.array([table[int(label)] for label in labels], np.float32)


def split_for_validation(x, y, sample_weight, fraction):
    """((x, y, sample_weight) to train on, (x, y, sample_weight) to validate on): the last `fraction` of the
    rows are held out, before any shuffling, as Keras does."""
    if isinstance(x, Dataset):
        raise ValueError("`validation_split` is only supported for Tensors or NumPy arrays; with a Dataset, pass "
                         "`validation_data`.")
    if not 0.0 < float(fraction) < 1.0:
        raise ValueError(f"`validation_split` must be in (0, 1); got {fraction}.")
    arrays = [None if a is None else _host(a) for a in (x, y, sample_weight)]
    split = int(np.floor(len(arrays[0]) * (1.0 - float(fraction))))
    if split == 0 or split == len(arrays[0]):
        raise ValueError(f"validation_split={fraction} leaves no rows for training or none for validation "
                         f"({len(arrays[0])} rows).")
    train = tuple(None if a is None else a[:split] for a in arrays)
    held = tuple(None if a is None else a[split:] for a in arrays)
    return train, held


def distributed(source, strategy, every_worker_whole: bool = False):
    """Iterate `source`'s batches as tensors on the strategy's devices (PerReplica when several). Several
    workers share each batch (auto-sharding), unless `every_worker_whole` (predict: each worker predicts
    every batch on its own devices and returns all the outputs, which needs no collective)."""
    extended = strategy.extended
    devices = list(extended.worker_devices) or [None]
    if extended.num_workers > 1 and not every_worker_whole:
        return strategy.experimental_distribute_dataset(source)
    return DistributedDataset(source, devices)


def rows_of(batch) -> int:
    """Global rows in a (possibly distributed) batch."""
    from ..distribute.values import local_results
    from ..framework.nest import flatten
    first = flatten(batch)[0]
    return sum(int(part.shape[0]) for part in local_results(first))


def _host_structure(value):
    """Arrays of a structure of inputs (lists and tuples of several inputs stay lists; dicts stay dicts)."""
    if isinstance(value, dict):
        return {k: _host(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and value and all(hasattr(v, "shape") or isinstance(v, (list, np.ndarray))
                                                          for v in value) and _several_inputs(value):
        return tuple(_host(v) for v in value)
    return _host(value)


def _several_inputs(value) -> bool:
    """A list of arrays of different shapes (or of arrays at all) is several inputs; a nested list of numbers
    is one array."""
    return all(hasattr(v, "shape") for v in value)


def _rows(structure, rows):
    if isinstance(structure, dict):
        return {k: v[rows] for k, v in structure.items()}
    if isinstance(structure, tuple):
        return tuple(v[rows] for v in structure)
    return structure[rows]


def _host(value):
    if hasattr(value, "numpy"):
        return value.numpy()
    return np.asarray(value)
