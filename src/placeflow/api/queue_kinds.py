"""The queue classes of tf.queue (their shared machinery is QueueBase in queue_ops.py)."""

from __future__ import annotations

import heapq
import itertools

import numpy as np

from ..framework import errors
from ..framework.tensor_shape import TensorShape
from .queue_ops import QueueBase, _shape_list


class FIFOQueue(QueueBase):
    """A queue that dequeues elements in the order they were enqueued."""

    _KIND = "FIFOQueue"

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None, name="fifo_queue"):
        """A FIFO queue of at most `capacity` elements with components of `dtypes` (and `shapes`)."""
        _no_shared_name(shared_name, "FIFOQueue")
        self._setup(capacity, dtypes, shapes, names, name)


class PaddingFIFOQueue(QueueBase):
    """A FIFO queue whose components may have unknown dimensions; dequeue_many pads them with zeros."""

    _KIND = "PaddingFIFOQueue"

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None, name="padding_fifo_queue"):
        """A padding FIFO queue: `shapes` are required, None marks a dimension of any size."""
        _no_shared_name(shared_name, "PaddingFIFOQueue")
        self._setup(capacity, dtypes, None, names, name)
        self._shapes = _shape_list(shapes, len(self._dtypes), self._KIND, unknown_dims_allowed=True)
        if any(s.rank is None for s in self._shapes):
            raise ValueError(f"Shapes must have known rank for PaddingFIFOQueue: {self._shapes}")

    def _stack(self, arrays: list, index: int):
        shape = self._shapes[index].as_list()
        if not arrays:
            return np.zeros([0] + [d or 0 for d in shape], dtype=self._dtypes[index].as_numpy_dtype)
        arrays = [np.asarray(a, dtype=object) if isinstance(a, bytes) else a for a in arrays]
        widest = [max(a.shape[k] for a in arrays) for k in range(len(shape))]
        fill = b"" if self._dtypes[index].name == "string" else 0
        out = np.full([len(arrays)] + widest, fill, dtype=arrays[0].dtype if fill != b"" else object)
        for row, a in enumerate(arrays):
            out[(row,) + tuple(slice(0, n) for n in a.shape) + (Ellipsis,)] = a  # a view: 0-d objects copied in
        return out


class PriorityQueue(QueueBase):
    """A queue that dequeues the element with the smallest int64 priority (its first component) first."""

    _KIND = "PriorityQueue"

    def __init__(self, capacity, types, shapes=None, names=None, shared_name=None, name="priority_queue"):
        """A priority queue of elements (priority, *components of `types`); `shapes` are required."""
        _no_shared_name(shared_name, "PriorityQueue")
        types = list(types) if isinstance(types, (list, tuple)) else [types]
        if shapes is None:
            raise errors.InvalidArgumentError(None, None, "Shared queue has component shapes [] but requested "
                                              "component shapes were [[]] (PriorityQueue needs `shapes`)")
        shapes = _shape_list(shapes, len(types), self._KIND)
        if names is not None:
            raise NotImplementedError("tf.queue.PriorityQueue(names=...) is not implemented in placeflow.")
        self._setup(capacity, ["int64"] + types, [TensorShape([])] + shapes, None, name)
        self._heap: list = []
        self._serial = itertools.count()

    def _put(self, element) -> None:
        heapq.heappush(self._heap, (int(element[0]), next(self._serial), element))
        self._items.append(None)

    def _take(self):
        self._items.pop()
        return heapq.heappop(self._heap)[2]


class RandomShuffleQueue(QueueBase):
    """A queue that dequeues elements in a random order, keeping `min_after_dequeue` elements until closed."""

    _KIND = "RandomShuffleQueue"

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None, shared_name=None,
                 name="random_shuffle_queue"):
        """A shuffling queue (NumPy's random order, seeded by `seed`: not TensorFlow's sequence)."""
        _no_shared_name(shared_name, "RandomShuffleQueue")
        self._setup(capacity, dtypes, shapes, names, name)
        self._min_after_dequeue = int(min_after_dequeue)
        self._rng = np.random.default_rng(seed)

    def _ready(self, count: int) -> bool:
        return len(self._items) >= count + self._min_after_dequeue

    def _take(self):
        index = int(self._rng.integers(len(self._items)))
        self._items[index], self._items[-1] = self._items[-1], self._items[index]
        return self._items.pop()


def _no_shared_name(shared_name, what: str) -> None:
    if shared_name:
        raise NotImplementedError(f"tf.queue.{what}(shared_name=...) (queues shared between sessions) is not "
                                  f"implemented in placeflow; got shared_name={shared_name!r}.")
