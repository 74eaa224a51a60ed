"""The generators behind Dataset's transformations: each takes host elements (NumPy structures) and yields host
elements; Dataset (dataset.py) chains them and tracks cardinality and element specs.

Parallel map calls run on one process-wide thread pool, and prefetching passes on reused worker threads
(`prefetch_workers`), so iterating a dataset again never starts threads of its own. In tf.data's debug mode
(`enable_debug`) both run in the iterating thread, one element at a time, as TF's debug mode does.
"""

from __future__ import annotations

import os
import queue as queue_module
import threading
from collections import deque

import numpy as np

_pool = None
_pool_lock = threading.Lock()
_debug = threading.Event()


def enable_debug() -> None:
    """tf.data.experimental.enable_debug_mode: from now on, in this process, every pipeline runs synchronously."""
    _debug.set()


def disable_debug() -> None:
    """Turn debug mode off again (placeflow's tests, so that each test starts as a fresh process would; TF has no
    public way back)."""
    _debug.clear()


def debugging() -> bool:
    """Whether tf.data's debug mode is on (parallel maps run one call at a time, prefetching fetches on demand)."""
    return _debug.is_set()


def shared_pool():
    """The process-wide pool parallel map uses (one worker per core, at least 2; made on first use)."""
    import concurrent.futures
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(max(2, os.cpu_count() or 2),
                                                          thread_name_prefix="placeflow-data")
        return _pool


def parallel_map(elements, fn, width: int, deterministic: bool, on_source_error=None):
    """fn over `elements` with up to `width` calls in flight; in order unless deterministic is False (a map
    iterated by a pool worker itself runs in that worker, so pool workers never wait for each other). When the
    source raises, the calls already made are delivered first, then on_source_error(error) (or the error)."""
    if threading.current_thread().name.startswith("placeflow-data"):
        yield from (fn(element) for element in elements)
        return
    pool = shared_pool()
    pending: deque = deque()
    source = iter(elements)
    failure = None
    try:
        while True:
            try:
                element = next(source)
            except StopIteration:
                break
            except Exception as error:  # noqa: BLE001 - delivered after the elements before it
                failure = error
                break
            pending.append(pool.submit(fn, element))
            if len(pending) >= width:
                yield _take(pending, deterministic)
        while pending:
            yield _take(pending, deterministic)
        if failure is not None:
            if on_source_error is None:
                raise failure
            yield on_source_error(failure)
    finally:
        for future in pending:
            future.cancel()


def _take(pending: deque, deterministic: bool):
    if not deterministic:
        done = next((f for f in pending if f.done()), None)
        if done is not None:
            pending.remove(done)
            return done.result()
    return pending.popleft().result()


def interleave(elements, open_dataset, cycle_length: int, block_length: int):
    """Elements of the datasets open_dataset(element) makes, `block_length` at a time from each of
    `cycle_length` open ones in turn (a finished one is replaced by the next input's)."""
    inputs = iter(elements)
    open_iterators: list = []
    exhausted = False
    while True:
        while not exhausted and len(open_iterators) < cycle_length:
            element = next(inputs, _NOTHING)
            if element is _NOTHING:
                exhausted = True
            else:
                open_iterators.append(open_dataset(element))
        if not open_iterators:
            return
        index = 0
        while index < len(open_iterators):
            iterator = open_iterators[index]
            finished = False
            for _ in range(block_length):
                value = next(iterator, _NOTHING)
                if value is _NOTHING:
                    finished = True
                    break
                yield value
            if finished:  # the slot takes the next input's dataset, which starts when the cycle comes back
                replacement = _NOTHING if exhausted else next(inputs, _NOTHING)
                if replacement is _NOTHING:
                    exhausted = True
                    open_iterators.pop(index)
                    continue
                open_iterators[index] = open_dataset(replacement)
            index += 1


_NOTHING = object()


def unbatch(elements, leaves, rebuild):
    """The rows of each element (every part split along its first dimension)."""
    for element in elements:
        parts = leaves(element)
        rows = {len(p) for p in parts if p is not None}  # a None part is None in every row
        if len(rows) != 1:
            raise ValueError(f"unbatch needs parts with the same first dimension, got shapes "
                             f"{[getattr(p, 'shape', None) for p in parts]}.")
        for row in range(rows.pop()):
            yield rebuild([None if p is None else p[row] for p in parts])


def padded_stack(rows, shapes, values):
    """Stack same-rank arrays padded to `shapes` (None: the batch's longest) with `values`."""
    out = []
    for index, (shape, value) in enumerate(zip(shapes, values)):
        arrays = [np.asarray(r[index]) for r in rows]
        target = [max(a.shape[d] for a in arrays) if want is None else want for d, want in enumerate(shape)]
        batch = np.full([len(arrays)] + target, value, dtype=arrays[0].dtype)
        for position, array in enumerate(arrays):
            if any(got > want for got, want in zip(array.shape, target)):
                raise ValueError(f"padded_batch: an element of shape {array.shape} does not fit the padded shape "
                                 f"{tuple(target)}.")
            batch[(position,) + tuple(slice(0, n) for n in array.shape)] = array
        out.append(batch)
    return out


def windows(elements, size: int, shift: int, stride: int, drop_remainder: bool):
    """Lists of up to `size` elements, each window starting `shift` after the last, taking every `stride`-th."""
    span = (size - 1) * stride + 1
    buffer: list = []
    base = start = 0  # buffer[0] is element number `base`; the next window starts at element `start`
    for position, element in enumerate(elements):
        if not buffer:
            base = position
        if position < start:
            continue
        buffer.append(element)
        while len(buffer) >= start - base + span:
            yield buffer[start - base:start - base + span:stride]
            start += shift
            drop = min(start - base, len(buffer))
            del buffer[:drop]
            base += drop
    while base + len(buffer) > start:
        window = buffer[start - base:start - base + span:stride]
        if len(window) < size and drop_remainder:
            return
        yield window
        start += shift


class _Workers:
    """Long-running jobs (a prefetching pass fills its queue until the pass ends) on reused threads: an idle
    worker takes the next job, a new one starts only when none is idle, and a worker idle for a minute exits."""

    def __init__(self):
        self._lock = threading.Lock()
        self._idle: list = []  # queues of idle workers

    def run(self, job) -> None:
        """Run job() on an idle worker, or on a new one."""
        with self._lock:
            inbox = self._idle.pop() if self._idle else None
        if inbox is not None:
            inbox.put(job)
            return
        inbox = queue_module.Queue()
        inbox.put(job)
        threading.Thread(target=self._serve, args=(inbox,), name="placeflow-prefetch", daemon=True).start()

    def _serve(self, inbox) -> None:
        while True:
            try:
                job = inbox.get(timeout=60.0)
            except queue_module.Empty:
                with self._lock:
                    if inbox in self._idle:
                        self._idle.remove(inbox)
                        return
                continue  # a job was handed over just now
            job()
            with self._lock:
                self._idle.append(inbox)


prefetch_workers = _Workers()
