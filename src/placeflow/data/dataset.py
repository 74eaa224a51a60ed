"""Dataset: a re-iterable pipeline over NumPy host data, yielding tensors (on the CPU unless prefetched to a device).

Elements are nested structures (tuples, lists, dicts) of arrays. Each `iter()` starts the pipeline
again, so `shuffle(..., reshuffle_each_iteration=True)` gives a new order per epoch, repeatably
when seeded.
"""

from __future__ import annotations

import queue
import threading

import numpy as np

AUTOTUNE = -1
_END = object()


class Dataset:
    """A re-iterable sequence of elements built by chaining transformations."""

    def __init__(self, make_iterator, cardinality):
        self._make_iterator = make_iterator    # () -> iterator of host elements (NumPy structures)
        self._cardinality = cardinality        # number of elements, -1 for infinite, -2 unknown
        self._device = None

    # -- sources ---------------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors) -> "Dataset":
        """One element per row of `tensors` (all leaves must share their first dimension)."""
        host = _map_structure(lambda x: np.asarray(x), tensors)
        leaves = _leaves(host)
        lengths = {len(x) for x in leaves}
        if len(lengths) != 1:
            shapes = [tuple(np.shape(x)) for x in leaves]
            raise ValueError(f"Dimensions of the components must agree in from_tensor_slices; got shapes {shapes}.")
        count = lengths.pop()
        return Dataset(lambda: (_map_structure(lambda x, i=i: x[i], host) for i in range(count)), count)

    @staticmethod
    def from_tensors(tensors) -> "Dataset":
        """One element: `tensors` itself."""
        host = _map_structure(lambda x: np.asarray(x), tensors)
        return Dataset(lambda: iter([host]), 1)

    @staticmethod
    def range(*args) -> "Dataset":
        """0, 1, ... like Python's range, as int64 scalars."""
        values = range(*args)
        return Dataset(lambda: (np.int64(v) for v in values), len(values))

    # -- transformations -------------------------------------------------------------------------
    def batch(self, batch_size: int, drop_remainder: bool = False) -> "Dataset":
        """Stack consecutive elements into batches; the last one is smaller unless `drop_remainder`."""
        if batch_size <= 0:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size}.")

        def make():
            pending = []
            for element in self._make_iterator():
                pending.append(element)
                if len(pending) == batch_size:
                    yield _stack(pending)
                    pending = []
            if pending and not drop_remainder:
                yield _stack(pending)
        count = self._cardinality
        if count >= 0:
            count = count // batch_size if drop_remainder else -(-count // batch_size)
        return Dataset(make, count)

    def shuffle(self, buffer_size: int, seed=None, reshuffle_each_iteration: bool = True) -> "Dataset":
        """Shuffle through a buffer of `buffer_size` elements (a full shuffle when it holds everything)."""
        epoch = [0]

        def make():
            rng = np.random.default_rng(None if seed is None else [int(seed), epoch[0]])
            if reshuffle_each_iteration:
                epoch[0] += 1
            buffer = []
            for element in self._make_iterator():
                buffer.append(element)
                if len(buffer) >= buffer_size:
                    yield buffer.pop(int(rng.integers(len(buffer))))
            while buffer:
                yield buffer.pop(int(rng.integers(len(buffer))))
        return Dataset(make, self._cardinality)

    def repeat(self, count=None) -> "Dataset":
        """The dataset `count` times (forever when None or -1)."""
        forever = count is None or count < 0

        def make():
            done = 0
            while forever or done < count:
                yield from self._make_iterator()
                done += 1
        size = -1 if forever else (self._cardinality * count if self._cardinality >= 0 else self._cardinality)
        return Dataset(make, size)

    def take(self, count: int) -> "Dataset":
        """The first `count` elements."""
        def make():
            for index, element in enumerate(self._make_iterator()):
                if index >= count:
                    return
                yield element
        known = self._cardinality
        return Dataset(make, min(count, known) if known >= 0 else (count if known == -1 else -2))

    def map(self, map_func, num_parallel_calls=None) -> "Dataset":
        """Apply `map_func` to each element (called with the element's parts as tensors)."""
        def make():
            for element in self._make_iterator():
                args = element if isinstance(element, tuple) else (element,)
                result = map_func(*[_as_tensors(a) for a in args])
                yield _map_structure(_to_host, result)
        return Dataset(make, self._cardinality)

    def prefetch(self, buffer_size) -> "Dataset":
        """Prepare up to `buffer_size` elements ahead on a background thread (AUTOTUNE: 2)."""
        size = 2 if buffer_size in (None, AUTOTUNE) else int(buffer_size)
        return Dataset(lambda: _prefetching(self._make_iterator(), size), self._cardinality)

    def apply(self, transformation) -> "Dataset":
        """transformation(self), e.g. data.experimental.prefetch_to_device('/gpu:0')."""
        return transformation(self)

    # -- consumption ------------------------------------------------------------------------------
    def __iter__(self):
        device = self._device or "/cpu:0"
        for element in self._make_iterator():
            yield _as_tensors(element, device)

    def as_numpy_iterator(self):
        """Elements as NumPy structures."""
        return iter(self._make_iterator())

    def cardinality(self) -> int:
        """Number of elements (-1 infinite, -2 unknown)."""
        return self._cardinality

    def __len__(self) -> int:
        if self._cardinality < 0:
            raise TypeError("The dataset length is infinite or unknown.")
        return self._cardinality

    def __repr__(self) -> str:
        return f"<placeflow.data.Dataset cardinality={self._cardinality}>"


def prefetch_to_device(device: str, buffer_size=None):
    """A transformation whose elements arrive already copied to `device`, prepared on a background thread."""
    def transform(dataset):
        size = 1 if buffer_size in (None, AUTOTUNE) else int(buffer_size)

        def make():
            return _prefetching((_as_tensors(e, device) for e in dataset._make_iterator()), size)
        result = Dataset(make, dataset._cardinality)
        result._device = device
        return _DeviceDataset(result)
    return transform


class _DeviceDataset(Dataset):
    """A dataset whose iterator already yields tensors on a device."""

    def __init__(self, inner):
        super().__init__(inner._make_iterator, inner._cardinality)
        self._device = inner._device

    def __iter__(self):
        return iter(self._make_iterator())


def _prefetching(iterator, size):
    items = queue.Queue(maxsize=size)
    stop = threading.Event()

    def fill():
        try:
            for element in iterator:
                while not stop.is_set():
                    try:
                        items.put(element, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            items.put(_END)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the consumer
            items.put(exc)

    thread = threading.Thread(target=fill, name="placeflow-prefetch", daemon=True)
    thread.start()
    try:
        while True:
            element = items.get()
            if element is _END:
                return
            if isinstance(element, BaseException):
                raise element
            yield element
    finally:
        stop.set()


def _as_tensors(element, device="/cpu:0"):
    from ..api.device import device as device_scope
    from ..eager.convert import constant
    from ..eager.tensor import EagerTensor
    with device_scope(device):
        return _map_structure(lambda x: x if isinstance(x, EagerTensor) else constant(x), element)


def _to_host(value):
    return value.numpy() if hasattr(value, "numpy") else np.asarray(value)


def _stack(elements):
    first = elements[0]
    if isinstance(first, dict):
        return {k: _stack([e[k] for e in elements]) for k in first}
    if isinstance(first, tuple):
        items = [_stack([e[i] for e in elements]) for i in range(len(first))]
        return type(first)(*items) if hasattr(first, "_fields") else tuple(items)
    return np.stack(elements)


def _map_structure(fn, structure):
    """Apply `fn` to the leaves; tuples and dicts are structure, lists are values (as in tf.data)."""
    if isinstance(structure, dict):
        return {k: _map_structure(fn, v) for k, v in structure.items()}
    if isinstance(structure, tuple):
        items = [_map_structure(fn, v) for v in structure]
        return type(structure)(*items) if hasattr(structure, "_fields") else tuple(items)
    return fn(structure)


def _leaves(structure) -> list:
    if isinstance(structure, dict):
        return [leaf for v in structure.values() for leaf in _leaves(v)]
    if isinstance(structure, tuple):
        return [leaf for v in structure for leaf in _leaves(v)]
    return [structure]
