"""Distributing input: each global batch is split across replicas and copied to their devices.

Split rule (TensorFlow's): a batch of b rows gives each replica, in order, a chunk of
ceil(b / n) rows; the last replicas get what is left, possibly nothing (an empty batch with the
right trailing shape). So 5 rows over 2 replicas -> [3, 2]; 5 over 4 -> [2, 2, 1, 0]. Losses scaled by
the global batch size (see `compute_average_loss`) make uneven and empty chunks weigh correctly.
"""

from __future__ import annotations

import abc

import numpy as np

from ..framework import tf_types
from ..data.dataset import _as_tensors, _leaves, _map_structure, _prefetching
from .values import PerReplica


def split_sizes(rows: int, replicas: int) -> list:
    """Rows per replica for a batch of `rows`: chunks of ceil(rows / replicas) in order, remainder last."""
    chunk = -(-rows // replicas) if rows else 0
    sizes = []
    left = rows
    for _ in range(replicas):
        take = min(chunk, left)
        sizes.append(take)
        left -= take
    return sizes


def _host(value):
    return value.numpy() if hasattr(value, "numpy") else np.asarray(value)


class DistributedDataset(tf_types.DistributedDataset):
    """Iterating yields, per global batch, a structure of PerReplica tensors (one chunk per device).

    Several workers (MultiWorkerMirroredStrategy): as TensorFlow's auto-sharding by data, each global
    batch is cut into one piece per replica of the cluster and the worker `w` of `W` keeps pieces w, w+W,
    w+2W, ... of that stream, its local replicas taking them in turn; with sharding OFF every worker reads
    the whole stream of pieces."""

    def __init__(self, dataset, devices, prefetch: int = 2, num_workers: int = 1, worker_index: int = 0,
                 shard: bool = True):
        self._dataset, self._devices, self._prefetch = dataset, list(devices), prefetch
        self._workers, self._worker, self._shard = num_workers, worker_index, shard

    def __iter__(self):
        if self._workers == 1:
            batches = (self._split(element) for element in self._dataset._make_iterator())
        else:
            batches = self._worker_steps()
        return iter(_prefetching(batches, self._prefetch) if self._prefetch else batches)

    def _split(self, element):
        host = _map_structure(_host, element)
        pieces = self._pieces(host, len(self._devices))
        return self._place(pieces)

    def _pieces(self, host, count: int) -> list:
        leaves = _leaves(host)
        if any(np.ndim(leaf) == 0 for leaf in leaves):
            raise ValueError(f"Call the `batch` method on the input Dataset in order to be able to split your "
                             f"input across {count} replicas.")
        bounds = np.cumsum([0] + split_sizes(len(leaves[0]), count))
        return [_map_structure(lambda x, lo=lo, hi=hi: x[lo:hi], host) for lo, hi in zip(bounds, bounds[1:])]

    def _place(self, pieces):
        parts = [_as_tensors(piece, device) for piece, device in zip(pieces, self._devices)]
        return parts[0] if len(parts) == 1 else _regroup_parts(parts)

    def _worker_steps(self):
        """This worker's steps: the stream of per-replica pieces, sharded by worker, grouped by local replicas."""
        replicas = self._workers * len(self._devices)
        step = []
        position = 0
        for element in self._dataset._make_iterator():
            for piece in self._pieces(_map_structure(_host, element), replicas):
                mine = not self._shard or position % self._workers == self._worker
                position += 1
                if mine:
                    step.append(piece)
                    if len(step) == len(self._devices):
                        yield self._place(step)
                        step = []

    def __repr__(self) -> str:
        return f"<DistributedDataset over {len(self._devices)} replicas>"


class DatasetsFromFunction(tf_types.DistributedDataset):
    """Per-replica datasets made by a function of InputContext: replica i takes every n-th element."""

    def __init__(self, dataset, devices):
        self._dataset, self._devices = dataset, list(devices)

    def __iter__(self):
        pending = []
        for element in self._dataset._make_iterator():
            pending.append(element)
            if len(pending) == len(self._devices):
                parts = [_as_tensors(_map_structure(_host, e), d) for e, d in zip(pending, self._devices)]
                yield parts[0] if len(parts) == 1 else _regroup_parts(parts)
                pending = []


def _regroup_parts(parts):
    columns = [_leaves(p) for p in parts]
    leaves = [PerReplica(column) for column in zip(*columns)]
    it = iter(leaves)
    return _map_structure(lambda _: next(it), parts[0])


class InputContext:
    """What an input function learns: pipelines, this pipeline's id, and the replica count."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self.num_input_pipelines = num_input_pipelines
        self.input_pipeline_id = input_pipeline_id
        self.num_replicas_in_sync = num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size: int) -> int:
        """global_batch_size / num_replicas_in_sync (which must divide it)."""
        if global_batch_size % self.num_replicas_in_sync:
            raise ValueError(f"The `global_batch_size` {global_batch_size} is not divisible by "
                             f"`num_replicas_in_sync` {self.num_replicas_in_sync}")
        return global_batch_size // self.num_replicas_in_sync

    def __repr__(self) -> str:
        return (f"tf.distribute.InputContext(input pipeline id {self.input_pipeline_id}, total: "
                f"{self.num_input_pipelines})")


class ValueContext:
    """What a value function learns: this replica's id and the replica count."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self.replica_id_in_sync_group = replica_id_in_sync_group
        self.num_replicas_in_sync = num_replicas_in_sync


class DistributedDatasetInterface(abc.ABC):  # noqa: B024
    """tf.distribute.DistributedDataset: what experimental_distribute_dataset and
    distribute_datasets_from_function return (Keras tests isinstance against it)."""


class DistributedIteratorInterface(abc.ABC):  # noqa: B024
    """tf.distribute.DistributedIterator: an iterator over a distributed dataset."""


DistributedDatasetInterface.register(DistributedDataset)
DistributedDatasetInterface.register(DatasetsFromFunction)
