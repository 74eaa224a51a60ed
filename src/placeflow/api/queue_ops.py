"""tf.queue: FIFOQueue, PaddingFIFOQueue, PriorityQueue, RandomShuffleQueue (QueueBase), eager only.

Elements are tuples of host arrays kept under one lock with condition variables, so producers and
consumers in several threads block as TensorFlow's do: enqueue waits while the queue is full, dequeue and
dequeue_many while it holds too few elements, dequeue_up_to until enough arrive or the queue closes.
A closed queue refuses enqueues (CancelledError) and, once it holds too few elements, dequeues
(OutOfRangeError); close(cancel_pending_enqueues=True) also cancels enqueues already waiting, while a plain
close() blocks until the waiting enqueues complete (TensorFlow 2.21 does the same).

TensorFlow has no timeout for eager queue waits (only Session RunOptions.timeout_in_ms in graphs).
placeflow adds one: PLACEFLOW_QUEUE_TIMEOUT_S (seconds; unset: wait forever) bounds every wait, raising
DeadlineExceededError when it passes. Queues inside a graph (placeflow.function traces, Sessions) are refused
by name. RandomShuffleQueue draws from NumPy's generator (seeded by `seed` when given): its order is random as
TensorFlow's but not TensorFlow's sequence. PriorityQueue dequeues equal priorities in insertion order.
"""

from __future__ import annotations

import itertools
import os
import threading
import time

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes as dtypes_module
from ..framework import errors, graph_mode
from ..framework.tensor_shape import TensorShape

_IDS = itertools.count()


def _refuse_in_graph(what: str) -> None:
    if graph_mode.active() is not None:
        raise NotImplementedError(f"tf.queue.{what} inside a graph (placeflow.function or a Session) is not "
                                  f"implemented in placeflow; use queues eagerly.")


def _deadline():
    limit = os.environ.get("PLACEFLOW_QUEUE_TIMEOUT_S")
    return time.monotonic() + float(limit) if limit else None


def _wait(condition, deadline) -> None:
    if deadline is None:
        condition.wait()
        return
    left = deadline - time.monotonic()
    if left <= 0 or not condition.wait(left) and time.monotonic() >= deadline:
        raise errors.DeadlineExceededError(None, None, "Timed out waiting for notification "
                                           "(PLACEFLOW_QUEUE_TIMEOUT_S)")


def _dtype_list(dtypes) -> list:
    if isinstance(dtypes, (list, tuple)):
        return [dtypes_module.as_dtype(d) for d in dtypes]
    return [dtypes_module.as_dtype(dtypes)]


def _shape_list(shapes, count: int, kind: str, unknown_dims_allowed=False) -> list:
    if shapes is None:
        return [TensorShape(None)] * count
    if isinstance(shapes, TensorShape) or not isinstance(shapes, (list, tuple)) or \
            all(d is None or isinstance(d, (int, np.integer)) for d in shapes):
        shapes = [shapes]
    shapes = [TensorShape(s) for s in shapes]
    if not unknown_dims_allowed and any(not s.is_fully_defined() for s in shapes):
        raise ValueError(f"All shapes must be fully defined: {shapes}")
    if len(shapes) != count:
        raise errors.InvalidArgumentError(None, None, f"Different number of component types.  Types: {count} "
                                          f"types, Shapes: {[s.as_list() for s in shapes]}")
    return shapes


def _host(tensor):
    """A tensor's value as a host array of its own (object arrays of bytes for strings)."""
    value = tensor.numpy()
    return np.array(value, dtype=object) if tensor.dtype == dtypes_module.string else np.array(value)


class QueueBase:
    """Base class of the queues: enqueue/dequeue of tuples of tensors with TensorFlow's blocking semantics."""

    _KIND = "Queue"

    def __init__(self, dtypes, shapes, names, queue_ref=None):
        """Not constructible directly in placeflow (it takes a queue resource): use one of the queue classes."""
        raise NotImplementedError("tf.queue.QueueBase(dtypes, shapes, names, queue_ref) with a queue resource is "
                                  "not implemented in placeflow; create a FIFOQueue, PaddingFIFOQueue, "
                                  "PriorityQueue or RandomShuffleQueue.")

    def _setup(self, capacity, dtypes, shapes, names, name) -> None:
        _refuse_in_graph(type(self).__name__)
        self._dtypes = _dtype_list(dtypes)
        if shapes is not None and not isinstance(self, PaddingFIFOQueue):
            shapes = _shape_list(shapes, len(self._dtypes), self._KIND)
        self._shapes = shapes if shapes is not None else [TensorShape(None)] * len(self._dtypes)
        if names is not None:
            names = list(names) if isinstance(names, (list, tuple)) else [names]
            if len(names) != len(self._dtypes):
                raise ValueError(f"List of names must have the same length as the list of dtypes, received "
                                 f"len(names)={len(names)},len(dtypes)={len(self._dtypes)}")
        self._names = names
        self._capacity = int(capacity) if capacity is not None and int(capacity) >= 0 else None
        self._label = str(next(_IDS))
        self._user_name = name
        self._items: list = []
        self._closed = self._cancelled = False
        self._pending_enqueues = 0
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)

    # -- properties --------------------------------------------------------------------------------
    @property
    def dtypes(self) -> list:
        """The dtypes of the components of an element."""
        return list(self._dtypes)

    @property
    def shapes(self) -> list:
        """The static shapes of the components of an element (unknown shapes when none were given)."""
        return list(self._shapes)

    @property
    def names(self):
        """The names of the components (None when the queue has none)."""
        return None if self._names is None else list(self._names)

    @property
    def name(self) -> str:
        """The queue's name; eagerly 'Empty', as TensorFlow's eager queues report."""
        return "Empty"

    @property
    def queue_ref(self):
        """Not available: placeflow's queues have no resource tensor."""
        raise NotImplementedError("tf.queue.QueueBase.queue_ref (a queue resource tensor) is not implemented in "
                                  "placeflow.")

    @staticmethod
    def from_list(index, queues):
        """Not implemented in placeflow (it selects among queue resources)."""
        raise NotImplementedError("tf.queue.QueueBase.from_list is not implemented in placeflow.")

    # -- converting what is enqueued ---------------------------------------------------------------
    def _components(self, vals) -> list:
        if self._names is not None:
            if not isinstance(vals, dict):
                raise ValueError("You must enqueue a dictionary in a Queue with names")
            if sorted(self._names) != sorted(vals.keys()):
                raise ValueError(f"Keys in dictionary to enqueue do not match names of Queue.  Dictionary: "
                                 f"{sorted(vals.keys())},Queue: {sorted(self._names)}")
            vals = [vals[k] for k in self._names]
        elif not isinstance(vals, (list, tuple)):
            vals = [vals]
        return [convert_to_tensor(v, dtype=d) for v, d in zip(vals, self._dtypes)]  # zip: as TensorFlow's

    def _check_shape(self, index: int, shape) -> None:
        try:
            self._shapes[index].merge_with(TensorShape(shape))
        except ValueError:
            raise ValueError(f"Shapes {TensorShape(shape)} and {self._shapes[index]} are incompatible") from None

    def _element(self, vals) -> tuple:
        tensors = self._components(vals)
        for i, t in enumerate(tensors):
            self._check_shape(i, t.shape)
        if len(tensors) != len(self._dtypes):
            raise errors.InvalidArgumentError(None, None, f"Expected {len(self._dtypes)} components, got "
                                              f"{len(tensors)}")
        return tuple(_host(t) for t in tensors)

    def _elements(self, vals) -> list:
        tensors = self._components(vals)
        batch = None
        for i, t in enumerate(tensors):
            shape = TensorShape(t.shape)
            if shape.rank == 0:
                raise ValueError(f"Shape {shape} must have rank at least 1")
            if batch is not None and shape[0] != batch:
                raise ValueError(f"Shapes {TensorShape([batch])} and {TensorShape([shape[0]])} are incompatible")
            batch = shape[0]
            self._check_shape(i, shape[1:])
        arrays = [_host(t) for t in tensors]
        return [tuple(a[k] for a in arrays) for k in range(batch or 0)]

    # -- storage (called with the lock held) ----------------------------------------------------------
    def _put(self, element) -> None:
        self._items.append(element)

    def _take(self):
        return self._items.pop(0)

    def _ready(self, count: int) -> bool:
        return len(self._items) >= count

    # -- operations -------------------------------------------------------------------------------
    def enqueue(self, vals, name=None):
        """Add one element (a tensor, a tuple/list of tensors, or a dict for named queues); blocks while full."""
        _refuse_in_graph("QueueBase.enqueue")
        self._enqueue([self._element(vals)])

    def enqueue_many(self, vals, name=None):
        """Add the elements along the first dimension of the components; blocks while the queue is full."""
        _refuse_in_graph("QueueBase.enqueue_many")
        self._enqueue(self._elements(vals))

    def _enqueue(self, elements) -> None:
        deadline = _deadline()
        with self._changed:
            if self._closed:
                raise errors.CancelledError(None, None, f"{self._KIND} '{self._label}' is closed.")
            for element in elements:
                self._waiting_for_room(deadline)
                if self._cancelled:
                    raise errors.CancelledError(None, None, "Enqueue operation was cancelled")
                self._put(element)
                self._changed.notify_all()

    def _waiting_for_room(self, deadline) -> None:
        """Wait (holding the condition) while the queue is full, counted as a pending enqueue for close()."""
        self._pending_enqueues += 1
        try:
            while self._capacity is not None and len(self._items) >= self._capacity and not self._cancelled:
                _wait(self._changed, deadline)
        finally:
            self._pending_enqueues -= 1
            self._changed.notify_all()

    def dequeue(self, name=None):
        """Remove and return one element; blocks while empty; OutOfRangeError once closed and empty."""
        _refuse_in_graph("QueueBase.dequeue")
        return self._pack(self._dequeue(1, exact=True, batch=False), batch=False)

    def dequeue_many(self, n, name=None):
        """Remove and return `n` elements stacked; blocks until there are `n`; OutOfRangeError when closed first."""
        _refuse_in_graph("QueueBase.dequeue_many")
        return self._pack(self._dequeue(self._count(n, "DequeueManyOp"), exact=True, batch=True), batch=True)

    def dequeue_up_to(self, n, name=None):
        """Remove and return up to `n` elements stacked; blocks until `n` or the queue closes (then fewer)."""
        _refuse_in_graph("QueueBase.dequeue_up_to")
        return self._pack(self._dequeue(self._count(n, "DequeueUpToOp"), exact=False, batch=True), batch=True)

    def _count(self, n, op: str) -> int:
        count = int(convert_to_tensor(n).numpy())
        if count < 0:
            raise errors.InvalidArgumentError(None, None, f"{op} requested {count} < 0 elements")
        if not isinstance(self, PaddingFIFOQueue) and not all(s.is_fully_defined() for s in self._shapes):
            raise errors.InvalidArgumentError(None, None, f"{self._KIND}'s DequeueMany and DequeueUpTo require the "
                                              f"components to have specified shapes.")
        return count

    def _dequeue(self, count: int, exact: bool, batch: bool) -> list:
        deadline = _deadline()
        with self._changed:
            while not (self._ready(count) or self._closed):
                _wait(self._changed, deadline)
            size = len(self._items)
            if self._closed and not self._ready(count) and (size < count if exact else (count and not size)):
                raise errors.OutOfRangeError(None, None, f"{self._KIND} '{self._label}' is closed and has "
                                             f"insufficient elements (requested {count}, current size "
                                             f"{size})")
            taken = [self._take() for _ in range(min(count, len(self._items)))]
            self._changed.notify_all()
        return taken

    def _pack(self, elements: list, batch: bool):
        if batch:
            parts = [self._stack([e[i] for e in elements], i) for i in range(len(self._dtypes))]
        else:
            parts = list(elements[0])
        tensors = [convert_to_tensor(p, dtype=d) for p, d in zip(parts, self._dtypes)]
        if self._names is not None:
            return dict(zip(self._names, tensors))
        return tensors[0] if len(tensors) == 1 else tensors

    def _stack(self, arrays: list, index: int):
        shape = self._shapes[index].as_list() if self._shapes[index].rank is not None else []
        if not arrays:
            return np.zeros([0] + shape, dtype=self._dtypes[index].as_numpy_dtype)
        return np.stack(arrays)

    def size(self, name=None):
        """The number of elements in the queue, as an int32 scalar."""
        with self._lock:
            return convert_to_tensor(np.int32(len(self._items)))

    def is_closed(self, name=None):
        """Whether the queue is closed, as a bool scalar."""
        with self._lock:
            return convert_to_tensor(np.bool_(self._closed))

    def close(self, cancel_pending_enqueues=False, name=None):
        """Close the queue: no more enqueues. Waiting enqueues fail with cancel_pending_enqueues; otherwise,
        as TensorFlow's, close blocks until they have completed (a consumer in another thread makes room)."""
        deadline = _deadline()
        with self._changed:
            self._closed = True
            if cancel_pending_enqueues:
                self._cancelled = True
            self._changed.notify_all()
            while self._pending_enqueues and not self._cancelled:
                _wait(self._changed, deadline)


from .queue_kinds import FIFOQueue, PaddingFIFOQueue, PriorityQueue, RandomShuffleQueue  # noqa: E402,F401
