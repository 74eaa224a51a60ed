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

    def __init__(self, make_iterator, cardinality, spec=None):
        self._make_iterator = make_iterator    # () -> iterator of host elements (NumPy structures)
        self._cardinality = cardinality        # number of elements, -1 for infinite, -2 unknown
        self._spec = spec                      # the elements' TensorSpecs, or None: learned from the first one
        self._device = None

    # -- sources ---------------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors) -> "Dataset":
        """One element per row of `tensors` (all leaves must share their first dimension)."""
        host = _map_structure(_host_value, tensors)
        leaves = _leaves(host)
        if any(x.ndim == 0 for x in leaves):
            raise ValueError(f"from_tensor_slices needs tensors of rank 1 or more to slice, got {tensors!r}.")
        lengths = {len(x) for x in leaves}
        if len(lengths) != 1:
            shapes = [tuple(np.shape(x)) for x in leaves]
            raise ValueError(f"Dimensions of the components must agree in from_tensor_slices; got shapes {shapes}.")
        count = lengths.pop()
        spec = _map_structure(lambda x: _spec_of(x.shape[1:], x.dtype), host)
        return Dataset(lambda: (_map_structure(lambda x, i=i: x[i], host) for i in range(count)), count, spec)

    @staticmethod
    def from_tensors(tensors) -> "Dataset":
        """One element: `tensors` itself."""
        host = _map_structure(_host_value, tensors)
        return Dataset(lambda: iter([host]), 1, _map_structure(lambda x: _spec_of(x.shape, x.dtype), host))

    @staticmethod
    def range(*args) -> "Dataset":
        """0, 1, ... like Python's range, as int64 scalars."""
        values = range(*args)
        return Dataset(lambda: (np.int64(v) for v in values), len(values), _spec_of((), np.int64))

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None,
                       name=None) -> "Dataset":
        """The elements `generator(*args)` yields, called anew for each pass, checked against
        `output_signature` (a structure of TensorSpecs; or the older output_types and output_shapes)."""
        if not callable(generator):
            raise TypeError(f"`generator` must be a Python callable, got {generator!r}.")
        if output_signature is None:
            if output_types is None:
                raise TypeError("from_generator needs output_signature (or output_types).")
            shapes = output_shapes if output_shapes is not None else _map_structure(lambda _: None, output_types)
            output_signature = _zip_structures(output_types, shapes)
        elif output_types is not None or output_shapes is not None:
            raise TypeError("from_generator takes output_signature or output_types/output_shapes, not both.")
        signature = _map_structure(_as_spec, output_signature)
        arguments = tuple(_host_value(a) for a in (args or ()))

        def make():
            for element in generator(*arguments):
                yield _conform(element, signature)
        return Dataset(make, -2, signature)

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
        rows = batch_size if drop_remainder else None
        return Dataset(make, count, self._mapped_spec(lambda s: _spec_of((rows,) + tuple(s.shape), s.dtype)))

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
        return Dataset(make, self._cardinality, self._spec)

    def repeat(self, count=None) -> "Dataset":
        """The dataset `count` times (forever when None or -1)."""
        forever = count is None or count < 0

        def make():
            done = 0
            while forever or done < count:
                yield from self._make_iterator()
                done += 1
        size = -1 if forever else (self._cardinality * count if self._cardinality >= 0 else self._cardinality)
        return Dataset(make, size, self._spec)

    def take(self, count: int) -> "Dataset":
        """The first `count` elements."""
        def make():
            for index, element in enumerate(self._make_iterator()):
                if index >= count:
                    return
                yield element
        known = self._cardinality
        return Dataset(make, min(count, known) if known >= 0 else (count if known == -1 else -2), self._spec)

    def map(self, map_func, num_parallel_calls=None) -> "Dataset":
        """Apply `map_func` to each element (called with the element's parts as tensors)."""
        def make():
            for element in self._make_iterator():
                yield _call_eagerly(map_func, element)
        return Dataset(make, self._cardinality)

    def prefetch(self, buffer_size) -> "Dataset":
        """Prepare up to `buffer_size` elements ahead on a background thread (AUTOTUNE: 2)."""
        size = 2 if buffer_size in (None, AUTOTUNE) else int(buffer_size)
        return Dataset(lambda: _prefetching(self._make_iterator(), size), self._cardinality, self._spec)

    def apply(self, transformation) -> "Dataset":
        """transformation(self), e.g. data.experimental.prefetch_to_device('/gpu:0')."""
        return transformation(self)

    # -- element specs ----------------------------------------------------------------------------
    @property
    def element_spec(self):
        """The structure of TensorSpecs of one element (learned from the first element where no rule gives
        it: then every dimension is None, as the other elements may differ)."""
        if self._spec is None:
            first = next(iter(self._make_iterator()), None)
            if first is None:
                raise ValueError("The dataset is empty: its element_spec cannot be learned from an element.")
            self._spec = _map_structure(lambda x: _spec_of((None,) * np.ndim(x), np.asarray(x).dtype), first)
        return self._spec

    def _mapped_spec(self, fn):
        return None if self._spec is None else _map_structure(fn, self._spec)

    def _autograph_elements(self):
        """(start, fetch, pack) for a loop over this dataset inside a graph (see api/autograph.for_stmt): start()
        begins a pass and returns its token; fetch(token) -> (has_value, flat parts); pack(parts) -> element."""
        from ..eager.execute import execute
        from ..framework import dtypes
        spec = self.element_spec
        flat = _leaves(spec)
        next_attrs = {"specs": tuple((s.dtype, tuple(s.shape)) for s in flat), "flatten": _leaves, "_stateful": True}

        def start():
            return execute("_IteratorStart", (), dtypes.int64, {"dataset": self, "flatten": _leaves, "_stateful": True})

        def fetch(token):
            outputs = execute("_IteratorGetNext", (token,), dtypes.int64, next_attrs)
            return outputs[0], list(outputs[1:])

        return start, fetch, lambda parts: _pack(spec, list(parts))

    # -- consumption ------------------------------------------------------------------------------
    def __iter__(self):
        from ..framework import graph_mode
        if graph_mode.active() is not None:
            raise NotImplementedError(
                "Iterating a placeflow.data.Dataset in Python while a graph is built would freeze its elements into "
                "the graph. Inside placeflow.function, write `for element in dataset:` in the function itself (with "
                "AutoGraph on): the loop then pulls the elements each time the function runs.")
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


def _call_eagerly(fn, element):
    """fn(*the element's parts as tensors) run eagerly (also when the pass runs inside a graph), as host arrays."""
    from ..framework import graph_mode
    args = element if isinstance(element, tuple) else (element,)
    with graph_mode.suspended():
        result = fn(*[_as_tensors(a) for a in args])
        return _map_structure(_to_host, result)


def _host_value(value):
    """A source's host array: NumPy arrays keep their dtype; Python floats become float32 and ints int32 (TF)."""
    if hasattr(value, "numpy"):
        return value.numpy()
    if isinstance(value, np.ndarray):
        return value
    array = np.asarray(value)
    if array.dtype == np.float64:
        return array.astype(np.float32)
    if array.dtype == np.int64 and array.size and np.abs(array).max() < 2 ** 31:
        return array.astype(np.int32)
    if array.dtype == np.int64 and not array.size:
        return array.astype(np.int32)
    return array


def _zip_structures(types, shapes):
    from ..framework.tensor_spec import TensorSpec
    if isinstance(types, dict):
        return {k: _zip_structures(types[k], shapes[k]) for k in types}
    if isinstance(types, tuple):
        return tuple(_zip_structures(t, s) for t, s in zip(types, shapes))
    if shapes is None:
        raise NotImplementedError("from_generator without output_shapes (unknown rank) is not implemented in "
                                  "placeflow; give output_shapes or an output_signature.")
    return TensorSpec(list(shapes), types)


def _as_spec(value):
    from ..framework.tensor_spec import TensorSpec
    if not isinstance(value, TensorSpec):
        raise TypeError(f"output_signature must be a structure of placeflow.TensorSpec, got {value!r}.")
    return value


def _conform(element, signature):
    """A generator's element as host arrays of the signature's dtypes, checked against its shapes."""
    from ..framework.errors import InvalidArgumentError
    if isinstance(signature, dict):
        return {k: _conform(element[k], v) for k, v in signature.items()}
    if isinstance(signature, tuple):
        if not isinstance(element, (tuple, list)) or len(element) != len(signature):
            raise TypeError(f"`generator` yielded an element that did not match the expected structure. The expected "
                            f"structure was {signature}, but the yielded element was {element!r}.")
        return tuple(_conform(e, s) for e, s in zip(element, signature))
    value = element.numpy() if hasattr(element, "numpy") else element
    try:
        array = np.asarray(value, dtype=signature.dtype.numpy_dtype)
    except (TypeError, ValueError):
        raise TypeError(f"`generator` yielded an element that could not be converted to the expected type. The "
                        f"expected type was {signature.dtype.name}, but the yielded element was {element!r}.") from None
    if not signature.is_compatible_with(_Shaped(array.shape, signature.dtype)):
        raise InvalidArgumentError(None, None, (
            f"`generator` yielded an element of shape {array.shape} where an element of shape "
            f"{tuple(signature.shape)} was expected."))
    return array


class _Shaped:
    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype


def _spec_of(shape, dtype):
    from ..framework import dtypes
    from ..framework.tensor_spec import TensorSpec
    return TensorSpec(list(shape), dtype if isinstance(dtype, dtypes.DType) else dtypes.as_dtype(np.dtype(dtype)))


def _pack(structure, parts: list):
    """`structure` (tuples, dicts, leaves) with its leaves replaced, in order, by `parts`."""
    if isinstance(structure, dict):
        return {k: _pack(v, parts) for k, v in structure.items()}
    if isinstance(structure, tuple):
        items = [_pack(v, parts) for v in structure]
        return type(structure)(*items) if hasattr(structure, "_fields") else tuple(items)
    return parts.pop(0)


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
