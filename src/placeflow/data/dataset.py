"""Dataset: a re-iterable pipeline over NumPy host data, yielding tensors (on the CPU unless prefetched to a device).

Elements are nested structures (tuples, dicts) of arrays, and of the sparse, ragged, dataset and None components
composite.py describes. Each `iter()` starts the pipeline
again, so `shuffle(..., reshuffle_each_iteration=True)` gives a new order per epoch, repeatably
when seeded.
"""

from __future__ import annotations

import functools
import os
import queue
import threading
import weakref

import numpy as np

from ..framework import tf_types
from ..framework.errors import InvalidArgumentError
from . import arguments, composite, element_errors, pipeline
from .owned_iterator import OwnedIterator
from .grouping import GroupingTransformations

AUTOTUNE = -1
_END = object()


class Dataset(GroupingTransformations, tf_types.DatasetV2):
    """A re-iterable sequence of elements built by chaining transformations."""

    def __init__(self, make_iterator, cardinality, spec=None):
        self._make_elements = make_iterator    # () -> iterator of host elements (NumPy structures), which may
        #                                        hold ElementErrors in place of elements that failed
        self._cardinality = cardinality        # number of elements, -1 for infinite, -2 unknown
        self._spec = spec                      # the elements' TensorSpecs, or None: learned from the first one
        self._device = None

    def _make_iterator(self):
        """An iterator of host elements that raises the first element's error it meets (and ends there)."""
        return element_errors.raising(self._make_elements())

    # -- sources ---------------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors) -> "Dataset":
        """One element per row of `tensors` (all leaves must share their first dimension)."""
        host = _map_structure(_host_value, tensors)
        leaves = [x for x in _leaves(host) if x is not None]
        if any(len(x.shape) == 0 for x in leaves):
            raise ValueError(f"from_tensor_slices needs tensors of rank 1 or more to slice, got {tensors!r}.")
        lengths = {len(x) for x in leaves}
        if len(lengths) != 1:
            shapes = [tuple(x.shape) for x in leaves]
            raise ValueError(f"Dimensions of the components must agree in from_tensor_slices; got shapes {shapes}.")
        count = lengths.pop()
        spec = _map_structure(lambda x: _unbatched(_exact_spec(x)), host)
        return Dataset(lambda: (_map_structure(lambda x, i=i: None if x is None else x[i], host)
                                for i in range(count)), count, spec)

    @staticmethod
    def from_tensors(tensors) -> "Dataset":
        """One element: `tensors` itself."""
        host = _map_structure(_host_value, tensors)
        if all(leaf is None for leaf in _leaves(host)):
            raise InvalidArgumentError(None, None, f"Length for attr 'output_shapes' of 0 must be at least minimum 1: "
                                                   f"from_tensors({tensors!r}) has no component that is not None. "
                                                   f"[Op:TensorDataset]")
        return Dataset(lambda: iter([host]), 1, _map_structure(_exact_spec, host))

    @staticmethod
    def range(*args, output_type=None, name=None) -> "Dataset":
        """0, 1, ... like Python's range, as scalars of `output_type` (int64 by default)."""
        from ..framework import dtypes
        bounds = [arguments.int64_arg(a) for a in args]
        if len(bounds) == 3 and bounds[2] == 0:
            raise InvalidArgumentError(None, None, "step must be a non-zero integer. [Op:RangeDataset]")
        values = range(*bounds)
        kind = (dtypes.int64 if output_type is None else dtypes.as_dtype(output_type)).numpy_dtype.type
        return Dataset(lambda: (kind(v) for v in values), len(values), _spec_of((), kind))

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
            produced = iter(generator(*arguments))
            while True:
                try:
                    element = next(produced)
                except StopIteration:
                    return
                except Exception as error:  # noqa: BLE001 - TF: the generator's error ends the pass, as an element
                    yield element_errors.ElementError(element_errors.as_tf_error(error, ""))
                    return
                try:
                    yield _conform(element, signature)
                except TypeError as error:  # this element only: the generator goes on
                    yield element_errors.ElementError(element_errors.as_tf_error(error, ""))
        return Dataset(make, -2, signature)

    # -- transformations -------------------------------------------------------------------------
    def batch(self, batch_size: int, drop_remainder: bool = False) -> "Dataset":
        """Stack consecutive elements into batches; the last one is smaller unless `drop_remainder`."""
        batch_size = arguments.positive(batch_size, "BatchDatasetV2", "Batch size must be greater than zero.")

        def make():  # a batch holding a failed element is that element's error, as in TF
            pending, failure = [], None
            for element in self._make_elements():
                if element.__class__ is element_errors.ElementError:
                    failure = failure or element
                else:
                    pending.append(element)
                if len(pending) + (failure is not None) == batch_size:
                    yield failure if failure is not None else _stack(pending, self._spec)
                    pending, failure = [], None
            if failure is not None:
                yield failure
            elif pending and not drop_remainder:
                yield _stack(pending, self._spec)
        count = self._cardinality
        if count >= 0:
            count = count // batch_size if drop_remainder else -(-count // batch_size)
        rows = batch_size if drop_remainder else None
        return Dataset(make, count, self._mapped_spec(lambda s: _batched(s, rows)))

    def shuffle(self, buffer_size: int, seed=None, reshuffle_each_iteration: bool = True) -> "Dataset":
        """Shuffle through a buffer of `buffer_size` elements (a full shuffle when it holds everything)."""
        buffer_size = arguments.int64_arg(buffer_size)
        if buffer_size <= 0 and buffer_size != AUTOTUNE:
            raise TypeError(f"shuffle's buffer_size must be greater than zero, got {buffer_size}")  # TF's class
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

    def repeat(self, count=None, name=None) -> "Dataset":
        """The dataset `count` times (forever when None or negative); `name` names the op in TF's graph (none here)."""
        count = None if count is None else arguments.int64_arg(count)
        forever = count is None or count < 0

        def make():
            done = 0
            while forever or done < count:
                yield from self._make_iterator()
                done += 1
        size = -1 if forever else (self._cardinality * count if self._cardinality >= 0 else self._cardinality)
        return Dataset(make, size, self._spec)

    def take(self, count, name=None) -> "Dataset":
        """The first `count` elements (count -1: all of them)."""
        count = arguments.int64_arg(count)
        if count < 0:
            return Dataset(self._make_elements, self._cardinality, self._spec)

        def make():
            for index, element in enumerate(self._make_elements()):
                if index >= count:
                    return
                yield element
        known = self._cardinality
        return Dataset(make, min(count, known) if known >= 0 else (count if known == -1 else -2), self._spec)

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None) -> "Dataset":
        """Apply `map_func` to each element (called with the element's parts as tensors); with
        num_parallel_calls (AUTOTUNE: one per core) that many calls run at once on the shared pool, the
        results in order unless deterministic=False."""
        arguments.callable_arg(map_func)
        width = _parallelism(num_parallel_calls, "ParallelMapDatasetV2", "num_parallel_calls")
        call = functools.partial(_call_per_element, map_func, "Map")
        if width <= 1:
            make = lambda: (call(element) for element in self._make_elements())  # noqa: E731
        else:
            ordered = deterministic is None or bool(deterministic)
            make = lambda: (map(call, self._make_elements()) if pipeline.debugging()  # noqa: E731
                            else pipeline.parallel_map(self._make_elements(), call, width, ordered,
                                                       on_source_error=_source_error))
        mapped = Dataset(make, self._cardinality)
        mapped._spec_rule = lambda: _traced_spec(map_func, self.element_spec)
        return mapped

    def filter(self, predicate, name=None) -> "Dataset":
        """The elements for which `predicate(element)` is a true boolean scalar."""
        arguments.callable_arg(predicate)

        def make():
            for element in self._make_elements():
                if element.__class__ is element_errors.ElementError:
                    yield element
                    continue
                try:
                    result = _call_eagerly(predicate, element)
                except Exception as error:  # noqa: BLE001 - this element's error; the pass goes on
                    yield element_errors.ElementError(element_errors.as_tf_error(
                        error, "Error in user-defined function passed to Filter transformation: "))
                    continue
                if _truth(result, "filter"):  # a predicate that is not a boolean scalar fails the pass (TF: tracing)
                    yield element
        return Dataset(make, -1 if self._cardinality == -1 else -2, self._spec)

    def take_while(self, predicate, name=None) -> "Dataset":
        """The elements up to (not including) the first for which `predicate` is false."""
        def make():
            for element in self._make_iterator():
                if not _truth(_call_eagerly(predicate, element), "take_while"):
                    return
                yield element
        return Dataset(make, -2, self._spec)

    def skip(self, count, name=None) -> "Dataset":
        """All but the first `count` elements (count -1: none)."""
        count = arguments.int64_arg(count)

        def make():
            iterator = self._make_iterator()
            if count < 0:
                for _ in iterator:
                    pass
                return
            for index, element in enumerate(iterator):
                if index >= count:
                    yield element
        known = self._cardinality
        size = 0 if count < 0 and known != -1 else (max(0, known - count) if known >= 0 else known)
        return Dataset(make, size, self._spec)

    def enumerate(self, start=0, name=None) -> "Dataset":
        """(int64 position from `start`, element) pairs."""
        first = int(start)

        def make():
            for index, element in enumerate(self._make_iterator()):
                yield np.int64(first + index), element
        spec = None if self._spec is None else (_spec_of((), np.int64), self._spec)
        return Dataset(make, self._cardinality, spec)

    @staticmethod
    def zip(*datasets, name=None) -> "Dataset":
        """Elements of several datasets side by side (a tuple, or the structure of datasets given), until the
        shortest ends."""
        structure = datasets[0] if len(datasets) == 1 and not isinstance(datasets[0], Dataset) else datasets
        members = _leaves(structure)
        if not members or not all(isinstance(d, Dataset) for d in members):
            raise TypeError(f"Dataset.zip takes datasets (or a tuple or dict of them), got {structure!r}.")

        def make():
            for parts in zip(*[d._make_iterator() for d in members]):
                yield _pack(structure, list(parts))
        sizes = [d._cardinality for d in members]
        finite = [c for c in sizes if c >= 0]
        size = min(finite) if finite else (-1 if all(c == -1 for c in sizes) else -2)
        specs = None if any(d._spec is None for d in members) else _pack(structure, [d._spec for d in members])
        return Dataset(make, size, specs)

    def concatenate(self, dataset, name=None) -> "Dataset":
        """This dataset's elements, then `dataset`'s (same structure and dtypes)."""
        merged = _merged_specs(self.element_spec, dataset.element_spec)

        def make():
            yield from self._make_iterator()
            yield from dataset._make_iterator()
        a, b = self._cardinality, dataset._cardinality
        size = -1 if -1 in (a, b) else (-2 if -2 in (a, b) else a + b)
        return Dataset(make, size, merged)

    def shard(self, num_shards, index, name=None) -> "Dataset":
        """Every `num_shards`-th element starting at `index` (one worker's share)."""
        num_shards, index = arguments.int64_arg(num_shards), arguments.int64_arg(index)
        if num_shards < 1:
            raise InvalidArgumentError(None, None, f"Number of shards must be greater than zero (currently "
                                                   f"num_shards = {num_shards}). [Op:ShardDataset]")
        if not 0 <= index < num_shards:
            raise InvalidArgumentError(None, None, f"Index must be between 0 and {num_shards - 1} (currently "
                                                   f"index = {index}). [Op:ShardDataset]")

        def make():
            for position, element in enumerate(self._make_iterator()):
                if position % num_shards == index:
                    yield element
        known = self._cardinality
        size = (known - index + num_shards - 1) // num_shards if known >= 0 else known
        return Dataset(make, size, self._spec)

    def flat_map(self, map_func, name=None) -> "Dataset":
        """The elements of the datasets map_func(element) makes, one dataset after the other."""
        def make():
            for element in self._make_iterator():
                yield from _dataset_of(map_func, element)._make_iterator()
        return Dataset(make, -2)

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
                   deterministic=None, name=None) -> "Dataset":
        """The elements of the datasets map_func(element) makes, `block_length` (1) at a time from each of
        `cycle_length` (AUTOTUNE: one per core) open at once. num_parallel_calls and deterministic change only
        scheduling here: the order is always the deterministic one."""
        cycle = _parallelism(AUTOTUNE if cycle_length is None else cycle_length, "InterleaveDataset", "cycle_length")
        block = 1 if block_length is None else int(block_length)
        if cycle < 1 or block < 1:
            raise ValueError(f"interleave needs positive cycle_length and block_length, got {cycle_length} and "
                             f"{block_length}.")

        def make():
            return pipeline.interleave(self._make_iterator(),
                                       lambda e: iter(_dataset_of(map_func, e)._make_iterator()), cycle, block)
        return Dataset(make, -2)

    def unbatch(self, name=None) -> "Dataset":
        """The rows of each element (split along the first dimension)."""
        spec = self.element_spec
        rows = _map_structure(_unbatched, spec)
        return Dataset(lambda: pipeline.unbatch(self._make_iterator(), _leaves, lambda p: _pack(spec, list(p))), -2,
                       rows)

    def rebatch(self, batch_size, drop_remainder=False, name=None) -> "Dataset":
        """The same elements batched again by `batch_size` (unbatch, then batch)."""
        return self.unbatch().batch(int(batch_size), drop_remainder)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False,
                     name=None) -> "Dataset":
        """Batches whose elements are padded to `padded_shapes` (None dimensions: the batch's longest) with
        `padding_values` (default 0, or b'' for strings)."""
        spec = self.element_spec
        flat = _leaves(spec)
        for part in flat:
            if type(part).__name__ == "DatasetSpec":
                raise TypeError("`padded_batch` is not supported for datasets of datasets")
            if composite.is_composite_spec(part):
                raise TypeError(f"`padded_batch` is only supported for datasets that produce tensor elements but "
                                f"type spec of elements in the input dataset is not a subclass of TensorSpec: "
                                f"`{part!r}`.")
        shapes = [tuple(s.shape) for s in flat] if padded_shapes is None else [
            tuple(None if d is None or int(d) < 0 else int(d) for d in _dims(shape))
            for shape in _leaves_of(padded_shapes, spec)]
        values = [_padding_default(s) for s in flat] if padding_values is None else [
            _host_value(v).item() if np.ndim(_host_value(v)) == 0 else _host_value(v)
            for v in _leaves_of(padding_values, spec)]
        batch_size = arguments.positive(batch_size, "PaddedBatchDatasetV2", "Batch size must be greater than zero.")
        _check_padded_shapes(shapes, flat)

        def make():
            pending = []
            for element in self._make_iterator():
                pending.append(_leaves(element))
                if len(pending) == batch_size:
                    yield _pack(spec, pipeline.padded_stack(pending, shapes, values))
                    pending = []
            if pending and not drop_remainder:
                yield _pack(spec, pipeline.padded_stack(pending, shapes, values))
        rows = batch_size if drop_remainder else None
        out = _pack(spec, [_spec_of((rows,) + shape, s.dtype) for shape, s in zip(shapes, flat)])
        count = self._cardinality
        if count >= 0:
            count = count // batch_size if drop_remainder else -(-count // batch_size)
        return Dataset(make, count, out)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None) -> "Dataset":
        """Datasets of up to `size` consecutive elements, each starting `shift` (size) after the last and taking
        every `stride`-th element (a structure of such datasets for structured elements)."""
        size = arguments.positive(size, "WindowDataset", "Window size must be greater than zero.")
        shift = size if shift is None else arguments.positive(shift, "WindowDataset",
                                                               "Window shift must be greater than zero.")
        stride = arguments.positive(stride, "WindowDataset", "Window stride must be greater than zero.")
        spec = self.element_spec

        flat_spec = _leaves(spec)

        def as_datasets(window):
            parts = [_leaves(element) for element in window]
            members = [_dataset_of_rows([p[i] for p in parts], flat_spec[i]) for i in range(len(parts[0]))]
            return _pack(spec, members)

        def make():
            return (as_datasets(w) for w in pipeline.windows(self._make_iterator(), size, shift, stride,
                                                              drop_remainder))
        return Dataset(make, -2, _map_structure(lambda s: _WINDOW, spec))

    def reduce(self, initial_state, reduce_func, name=None):
        """reduce_func(state, element) folded over the elements from `initial_state`."""
        from ..framework import graph_mode
        if graph_mode.active() is not None:
            return self._reduce_in_graph(initial_state, reduce_func)
        state = initial_state
        for element in self:
            state = _checked_state(initial_state, reduce_func(state, element))
        return _map_structure(_as_tensor_value, state)

    def _reduce_in_graph(self, initial_state, reduce_func):
        from ..api import control_flow
        from ..framework import nest
        start, fetch, pack = self._autograph_elements()
        token = start()
        has_value, parts = fetch(token)
        state = nest.map_structure(_as_tensor_value, initial_state)

        def body(has, element, state):
            new_state = reduce_func(nest.pack_as(initial_state, state) if nest.is_nested(initial_state) else state,
                                    pack(element))
            next_has, next_parts = fetch(token)
            return [next_has, next_parts, new_state]

        flat_state = nest.flatten(state)
        result = control_flow.while_loop(lambda has, element, state: has, body,
                                         [has_value, parts, state if nest.is_nested(state) else flat_state[0]])
        return result[2]

    def cache(self, filename="", name=None) -> "Dataset":
        """Replay the first complete pass: from memory (filename ''), or from `filename`, written by the first
        complete pass and read by every later one (also by other programs: a NumPy .npz file)."""
        if filename:
            return _file_cached(self, str(filename))
        stored: list = []
        complete = threading.Event()

        def make():
            if complete.is_set():
                yield from stored
                return
            seen = []
            for element in self._make_iterator():
                seen.append(element)
                yield element
            if not complete.is_set():
                stored[:] = seen
                complete.set()
        return Dataset(make, self._cardinality, self._spec)

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        """Write the elements under the directory `path` (placeflow's format: see saved_datasets.py)."""
        from .saved_datasets import save
        return save(self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None, wait=False) -> "Dataset":
        """The dataset Dataset.save wrote under `path` (see saved_datasets.py)."""
        from .saved_datasets import load
        return load(path, element_spec, compression, reader_func, wait)

    def snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None, name=None) -> "Dataset":
        """This dataset cached under the directory `path` by its first complete pass (see saved_datasets.py)."""
        from .saved_datasets import snapshot
        return snapshot(path, compression, reader_func, shard_func)(self)

    def with_options(self, options, name=None) -> "Dataset":
        """The same dataset carrying `options` (tf.data.Options; auto-sharding matters across workers)."""
        from .options import Options
        if not isinstance(options, Options):
            raise _NotOptionsError(f"with_options takes a placeflow.data.Options, got {options!r}.")
        result = Dataset(self._make_elements, self._cardinality, self._spec)
        result._options = options
        return result

    def options(self):
        """The Options set by with_options (defaults otherwise)."""
        from .options import Options
        return getattr(self, "_options", None) or Options()

    def prefetch(self, buffer_size) -> "Dataset":
        """Prepare up to `buffer_size` elements ahead on a background thread (AUTOTUNE: 2)."""
        size = 2 if buffer_size is None else arguments.int64_arg(buffer_size)
        if size < -1:
            raise InvalidArgumentError(None, None, "buffer_size must be >= 0 or set buffer_size to be -1 for "
                                                   "auto-tuning [Op:PrefetchDataset]")
        size = 2 if size == AUTOTUNE else size
        return Dataset(lambda: _prefetching(self._make_elements(), size), self._cardinality, self._spec)

    def apply(self, transformation) -> "Dataset":
        """transformation(self), e.g. data.experimental.prefetch_to_device('/gpu:0')."""
        return transformation(self)

    # -- element specs ----------------------------------------------------------------------------
    @property
    def _spec(self):
        """The elements' TensorSpecs: given, or from the dataset's rule (its traced map function) the first time
        anything needs them, so the datasets built on it inherit them; None: to be learned from an element."""
        rule = self.__dict__.pop("_spec_rule", None)
        if rule is not None and self.__dict__.get("_spec_value") is None:
            self.__dict__["_spec_value"] = rule()
        return self.__dict__.get("_spec_value")

    @_spec.setter
    def _spec(self, value):
        self.__dict__["_spec_value"] = value

    @property
    def element_spec(self):
        """The structure of TensorSpecs of one element (learned from the first element where no rule gives
        it: then every dimension is None, as the other elements may differ)."""
        if self._spec is None:  # no rule, or a function that cannot be traced: learned from an element
            first = next(iter(self._make_iterator()), None)
            if first is None:
                raise ValueError("The dataset is empty: its element_spec cannot be learned from an element.")
            self._spec = _map_structure(_learned_spec, first)
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
        kinds = sorted({type(s).__name__ for s in flat if composite.is_composite_spec(s)})
        if kinds:
            raise NotImplementedError(f"A loop inside placeflow.function over a dataset whose elements hold "
                                      f"{', '.join(kinds)} components is not implemented in placeflow; iterate it "
                                      f"eagerly.")
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
        return OwnedIterator(self, self._device or "/cpu:0", _as_tensors)

    def as_numpy_iterator(self):
        """Elements as NumPy structures (a tf.data.NumpyIterator)."""
        from .numpy_iterator import NumpyIterator
        for part in _leaves(self.element_spec):
            if type(part).__name__ == "DatasetSpec":
                raise TypeError(f"`tf.data.Dataset.as_numpy_iterator()` is not supported for datasets that produce "
                                f"values of type {Dataset}")
        return NumpyIterator(self)

    def cardinality(self):
        """The number of elements as an int64 scalar tensor (-1 infinite, -2 unknown), as TF returns it."""
        from ..eager.convert import constant
        return constant(np.int64(self._cardinality))

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
    """The elements of `iterator`, produced up to `size` ahead by a worker thread (shape-only estimation: in the
    caller's thread, see _prefetched_in_turn; tf.data's debug mode: each when it is asked for)."""
    from ..config.context import context
    if pipeline.debugging():
        return iter(iterator)
    if context().estimating:
        return _prefetched_in_turn(iterator, size)
    return _prefetched_by_worker(iterator, size)


def _prefetched_in_turn(iterator, size):
    """A prefetch buffer as a worker keeps it when the input is ahead of the steps (the buffer full and one more
    element in the worker's hand while an element is consumed), filled in the caller's thread, so that an estimate
    never depends on how the worker's copies interleave with the step's allocations."""
    buffer: list = []
    try:
        try:
            for element in iterator:
                buffer.append(element)
                if len(buffer) > size + 1:
                    yield buffer.pop(0)
        except Exception as error:  # noqa: BLE001 - raised after the elements made before it, as a worker does
            failed = error
        else:
            failed = None
        while buffer:
            yield buffer.pop(0)
        if failed is not None:
            raise failed
    finally:
        close = getattr(iterator, "close", None)
        if close is not None:
            close()


def _prefetched_by_worker(iterator, size):
    items = queue.Queue(maxsize=size)
    stop = threading.Event()

    def offer(item) -> bool:
        """Queue `item` unless the consumer has gone (then False: the pass ends, never blocking a worker)."""
        while not stop.is_set():
            try:
                items.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def fill():
        try:
            for element in iterator:
                if not offer(element):
                    return
            offer(_END)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the consumer
            offer(exc)
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                close()

    pipeline.prefetch_workers.run(fill)
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
    """The element's arrays as tensors on `device`. A read-only host array (the dataset's own copy of its
    source data, or a view of it) becomes a host tensor without a copy: nothing can change it, and a view is
    never written into (runtime/forwarding.py); other arrays are copied, as tf.constant does (under a scope of
    `device`, entered only when there are some)."""
    from ..eager.tensor import EagerTensor
    host = _host_device() if _on_host(device) else None
    copied = []

    def view(x):
        if isinstance(x, (EagerTensor, Dataset)) or x is None:
            return x
        if host is not None and isinstance(x, np.ndarray) and not x.flags.writeable and x.dtype.kind in "biufc":
            return EagerTensor(x.view(), host)
        copied.append(x)
        return x

    viewed = _map_structure(view, element)
    if not copied:
        return viewed
    from ..api.device import device as device_scope
    from ..eager.convert import constant

    def copy(x):
        if isinstance(x, (EagerTensor, Dataset)) or x is None:
            return x
        return composite.to_value(x) if composite.is_host_composite(x) else constant(x)
    with device_scope(device):
        return _map_structure(copy, viewed)


def _on_host(device) -> bool:
    return isinstance(device, str) and _names_the_host_cpu(device)


@functools.lru_cache(maxsize=64)
def _names_the_host_cpu(device: str) -> bool:
    from ..framework.device_spec import DeviceSpec
    spec = DeviceSpec.from_string(device)
    return (spec.device_type or "").upper() == "CPU" and spec.device_index in (None, 0)


def _host_device():
    from ..config import context as context_module
    from ..runtime import registry
    ctx = context_module._context or context_module.context()
    found = _HOST_DEVICES.get(id(ctx))
    if found is None or found[0] is not ctx:
        found = (ctx, registry.find(ctx, "/job:localhost/replica:0/task:0/device:CPU:0"))
        _HOST_DEVICES.clear()
        _HOST_DEVICES[id(ctx)] = found
    return found[1]


_HOST_DEVICES: dict = {}   # id(context) -> (context, its host CPU device): the context now, looked up once


def _traced_spec(fn, input_spec):
    """The TensorSpecs of fn's result, from tracing it on `input_spec` (as tf.data traces a map function);
    None when it cannot be traced (it then runs eagerly anyway, and the spec is learned from an element)."""
    from ..graph.function import function
    args = input_spec if isinstance(input_spec, tuple) else (input_spec,)
    traced = lambda *xs: fn(*xs)  # noqa: E731
    if any(composite.is_composite_spec(s) for s in _leaves(input_spec)):
        from . import composite_trace
        made = composite_trace.plan(input_spec, _leaves, _pack)
        if made is None:  # e.g. dataset components: the spec is learned from the first result
            return None
        args, arguments = made
        traced = lambda *xs: fn(*arguments(xs))  # noqa: E731
    try:
        outputs = function(traced).get_concrete_function(*args).structured_outputs
        return _map_structure(_traced_output_spec, outputs)
    except Exception:  # noqa: BLE001 - any failure to trace falls back to the first element's spec
        return None


def _traced_output_spec(t):
    """The spec of one traced output: a tensor's TensorSpec, a composite's TypeSpec (None: NoneTensorSpec)."""
    from ..api.type_specs import NoneTensorSpec, SparseTensorSpec, type_spec_from_value
    if t is None:
        return NoneTensorSpec()
    if type(t).__name__ == "SparseTensorValue":
        from ..api.array_ops import get_static_value
        shape = get_static_value(t.dense_shape)
        values = t.values if hasattr(t.values, "dtype") else np.asarray(t.values)
        from ..framework import dtypes
        dtype = values.dtype if isinstance(values.dtype, dtypes.DType) else dtypes.as_dtype(values.dtype)
        return SparseTensorSpec(None if shape is None else [int(d) for d in np.asarray(shape).reshape(-1)], dtype)
    if composite._kind(t) is not None:
        return type_spec_from_value(t)
    return _spec_of(None if t.shape is None else tuple(t.shape), t.dtype)


def _call_per_element(fn, where, element):
    """fn on one element, or an ElementError standing for the element when it raises (user errors as TF
    reports them: see element_errors.as_tf_error); an element that already failed passes on as it is."""
    if element.__class__ is element_errors.ElementError:
        return element
    try:
        return _call_eagerly(fn, element)
    except Exception as error:  # noqa: BLE001 - the element's error, raised when the consumer reaches it
        return element_errors.ElementError(element_errors.as_tf_error(
            error, f"Error in user-defined function passed to {where} transformation: "))


def _source_error(error):
    """The ElementError that ends a parallel map whose source raised (after the elements computed before it)."""
    return element_errors.ElementError(element_errors.as_tf_error(error, ""))


def _call_eagerly(fn, element):
    """fn(*the element's parts as tensors) run eagerly (also when the pass runs inside a graph), as host arrays.
    Its ops run on the host CPU, as TF runs a dataset's functions, unless it names a device itself."""
    from ..api.device import device as device_scope
    from ..framework import graph_mode
    args = element if isinstance(element, tuple) else (element,)
    _check_arity(fn, len(args))
    with graph_mode.suspended(), device_scope("/cpu:0"):
        result = fn(*[_as_tensors(a) for a in args])
        try:
            host = _map_structure(_to_host, result)
            for leaf in _leaves(host):
                if isinstance(leaf, np.ndarray) and leaf.dtype == object and not all(
                        isinstance(v, bytes) for v in leaf.reshape(-1)):
                    raise TypeError(leaf)
            return host
        except (TypeError, ValueError):
            raise element_errors.DefinitionError(
                f"Unsupported return value from function passed to Dataset.map(): {result!r}.") from None


def _check_arity(fn, count: int) -> None:
    """TF's TypeError (found when it traces the function) when `fn` cannot take the element's `count` parts;
    a function found to take them is not inspected again for that count."""
    try:
        if count in _ARITIES_TAKEN.get(fn, ()):
            return
    except TypeError:   # not weakly referable: inspected every time
        pass
    import inspect
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # a builtin or C function: let the call itself decide
        return
    try:
        signature.bind(*range(count))
    except TypeError as error:
        raise element_errors.DefinitionError(f"{getattr(fn, '__name__', fn)}() {error}") from None
    try:
        _ARITIES_TAKEN.setdefault(fn, set()).add(count)
    except TypeError:
        pass


_ARITIES_TAKEN = weakref.WeakKeyDictionary()   # function -> the part counts it was found to take


def _host_value(value):
    """A source's host array: NumPy arrays keep their dtype; Python floats become float32 and ints int32 (TF);
    sparse, ragged, dataset and None components as composite.py holds them."""
    held = composite.to_host(value)
    if held is not NotImplemented:
        return held
    from ..graph.graph import Tensor as GraphTensor
    if isinstance(value, GraphTensor):
        raise NotImplementedError(f"A dataset of the symbolic tensor {value!r} (a value of a graph being built) is "
                                  "not implemented in placeflow: its datasets hold host values. Build the dataset "
                                  "outside placeflow.function (or from values the function is given eagerly).")
    if hasattr(value, "numpy"):
        return _owned(value.numpy())
    if isinstance(value, np.ndarray):
        return _owned(_as_bytes(value))
    array = _as_bytes(np.asarray(value))
    if array.dtype == np.float64:
        return array.astype(np.float32)
    if array.dtype == np.int64 and array.size and np.abs(array).max() < 2 ** 31:
        return array.astype(np.int32)
    if array.dtype == np.int64 and not array.size:
        return array.astype(np.int32)
    return array


def _as_bytes(array: np.ndarray) -> np.ndarray:
    """A NumPy unicode array as the UTF-8 bytes objects TF's string elements hold (others as they are)."""
    if array.dtype.kind != "U":
        return array
    out = np.empty(array.shape, dtype=object)
    out.reshape(-1)[:] = [s.encode("utf-8") for s in array.reshape(-1).tolist()]
    return out


def _owned(array: np.ndarray) -> np.ndarray:
    """The dataset's own read-only copy of a source array (TF copies a source into a tensor when the dataset
    is made: later changes to the caller's array do not reach the dataset)."""
    owned = np.array(array, copy=True)
    owned.flags.writeable = False
    return owned


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
    from ..framework.tensor_spec import TensorSpec, TypeSpec
    if isinstance(value, TypeSpec) and not isinstance(value, TensorSpec):
        raise NotImplementedError(f"Dataset.from_generator with a {type(value).__name__} in output_signature is "
                                  f"not implemented in placeflow (its datasets hold dense tensors); got {value!r}.")
    if not isinstance(value, TensorSpec):
        raise TypeError(f"output_signature must be a structure of placeflow.TensorSpec, got {value!r}.")
    return value


def _conform(element, signature):
    """A generator's element as host arrays of the signature's dtypes, checked against its shapes."""
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
        raise TypeError(f"`generator` yielded an element of shape {array.shape} where an element of shape "
                        f"{tuple(signature.shape)} was expected.")
    return array


class _Shaped:
    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype


def _spec_of(shape, dtype):
    from ..framework import dtypes
    from ..framework.tensor_spec import TensorSpec
    return TensorSpec(None if shape is None else list(shape),
                      dtype if isinstance(dtype, dtypes.DType) else dtypes.as_dtype(np.dtype(dtype)))


def _pack(structure, parts: list):
    """`structure` (tuples, dicts, leaves) with its leaves replaced, in order, by `parts`."""
    if isinstance(structure, dict):
        return {k: _pack(v, parts) for k, v in structure.items()}
    if isinstance(structure, tuple):
        items = [_pack(v, parts) for v in structure]
        return type(structure)(*items) if hasattr(structure, "_fields") else tuple(items)
    return parts.pop(0)


def _to_host(value):
    held = composite.to_host(value)
    if held is not NotImplemented:
        return held
    from ..eager.tensor import EagerTensor
    if type(value) is EagerTensor:
        return _read_only_value(value)
    return value.numpy() if hasattr(value, "numpy") else _host_value(value)


def _read_only_value(tensor):
    """A host tensor's buffer as a read-only view (a tensor is immutable, and _as_tensors takes such a view back
    as a tensor without copying: a map's 400 KB batch is not copied twice more on its way out); a scalar, or a
    value on another device, as numpy() gives it."""
    value, device = tensor._value, tensor._device
    if type(value) is not np.ndarray or not value.ndim or not device.host_backed or device.device_type != "CPU":
        return tensor.numpy()   # (a simulated GPU's buffer is that GPU's memory: the element must not hold it)
    view = value.view()
    view.flags.writeable = False
    return view


def _exact_spec(x):
    """The spec of a source component: its static shape."""
    return composite.spec_of(x) if composite.is_host_composite(x) else _spec_of(x.shape, x.dtype)


def _learned_spec(x):
    """The spec learned from one element's component: every dimension unknown (the others may differ)."""
    if composite.is_host_composite(x):
        return composite.spec_of(x, exact=False)
    return _spec_of((None,) * np.ndim(x), np.asarray(x).dtype)


def _batched(spec, rows):
    """The spec of `spec` components batched (rows: the batch size, None when the last batch may be smaller)."""
    if composite.is_composite_spec(spec):
        return composite.batched_spec(spec, rows)
    return _spec_of(None if spec.shape.rank is None else (rows,) + tuple(spec.shape), spec.dtype)


def _unbatched(spec):
    """The spec of one row of `spec` components."""
    if composite.is_composite_spec(spec):
        return composite.unbatched_spec(spec)
    if len(spec.shape) == 0:
        raise ValueError("Cannot unbatch an input with scalar components.")
    return _spec_of(tuple(spec.shape)[1:], spec.dtype)


def _dataset_of_rows(rows: list, spec) -> "Dataset":
    """A dataset whose elements are the host components `rows` (a window's part)."""
    if composite.is_composite_spec(spec):
        return Dataset(lambda: iter(rows), len(rows), spec)
    return Dataset.from_tensor_slices(np.stack(rows))


_WINDOW = object()  # the element spec of a window's part: a dataset


def _parallelism(value, op="ParallelMapDatasetV2", what="num_parallel_calls") -> int:
    if value is None:
        return 1
    value = arguments.int64_arg(value)
    if value == AUTOTUNE:
        return max(2, os.cpu_count() or 2)
    if value < 1:
        raise InvalidArgumentError(None, None, f"{what} must be greater than zero. [Op:{op}]")
    return value


def _check_padded_shapes(shapes, specs) -> None:
    """TF's ValueError when a padded shape cannot hold its component (other rank, or a smaller dimension)."""
    for shape, spec in zip(shapes, specs):
        known = tuple(spec.shape)
        fits = len(shape) == len(known) and all(p is None or k is None or p >= k for p, k in zip(shape, known))
        if not fits:
            shown = "(" + ", ".join("None" if d is None else str(d) for d in known) + ("," if len(known) == 1 else "") + ")"
            padded = "(" + ", ".join("None" if d is None else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
            raise ValueError(f"The padded shape {padded} is not compatible with the shape {shown} of the "
                             "corresponding input component.")


class _PredicateResultError(ValueError, AttributeError):
    """A predicate's result that is not a boolean scalar: a ValueError naming it, and an AttributeError too, the
    class TF 2.21 raises (from inside its own code) for a predicate returning a Python list, so TF's `except`
    catches it."""


class _NotADatasetError(TypeError, AttributeError):
    """A flat_map/interleave function that returns no Dataset: a TypeError naming it, and an AttributeError too
    (TF 2.21's class there, from inside its own code)."""


class _NotOptionsError(TypeError, AttributeError):
    """with_options given something other than tf.data.Options: a TypeError naming it, and an AttributeError too
    (TF 2.21's class there, from inside its own code)."""


def _truth(result, what) -> bool:
    array = np.asarray(result)
    if array.dtype != np.bool_ or array.size != 1:
        raise _PredicateResultError(f"The predicate of {what} must return a boolean scalar, got {result!r}.")
    return bool(array.reshape(()))


def _dataset_of(map_func, element) -> "Dataset":
    result = _call_eagerly(map_func, element)
    if not isinstance(result, Dataset):
        raise _NotADatasetError(f"The function of flat_map/interleave must return a Dataset, got {result!r}.")
    return result


def _as_tensor_value(value):
    from ..eager.convert import convert_to_tensor
    return value if hasattr(value, "dtype") and hasattr(value, "shape") and not isinstance(value, np.ndarray) \
        else convert_to_tensor(_host_value(value))


def _merged_specs(a, b):
    left, right = _leaves(a), _leaves(b)
    if len(left) == len(right) and any(composite.is_composite_spec(x) or composite.is_composite_spec(y)
                                       for x, y in zip(left, right)):
        return _pack(a, [composite.merged_spec(x, y) if composite.is_composite_spec(x) or
                         composite.is_composite_spec(y) else _merged_specs(x, y) for x, y in zip(left, right)])
    if len(left) != len(right) or any(x.dtype != y.dtype for x, y in zip(left, right)):
        raise TypeError(f"Incompatible dataset elements for concatenate: {a} and {b}; the structures and dtypes must "
                        f"match.")
    merged = []
    for x, y in zip(left, right):
        sx, sy = tuple(x.shape), tuple(y.shape)
        shape = tuple(p if p == q else None for p, q in zip(sx, sy)) if len(sx) == len(sy) else None
        if shape is None:
            raise TypeError(f"concatenate: element ranks differ ({sx} and {sy}).")
        merged.append(_spec_of(shape, x.dtype))
    return _pack(a, merged)


def _dims(shape):
    if hasattr(shape, "numpy"):
        shape = shape.numpy().tolist()
    return [None if d is None else int(d) for d in shape]


def _leaves_of(given, spec) -> list:
    """`given` matched to the element structure: one entry per part (a lone entry for a lone part)."""
    if not isinstance(spec, (tuple, dict)):
        return [given]
    if isinstance(spec, dict):
        return [v for k in spec for v in _leaves_of(given[k], spec[k])]
    return [v for g, s in zip(given, spec) for v in _leaves_of(g, s)]


def _padding_default(spec):
    return b"" if spec.dtype.name == "string" else 0


def _file_cached(dataset, filename):
    """A dataset replaying `filename` when it exists, else writing it at the end of a complete pass."""
    path = filename if filename.endswith(".npz") else filename + ".npz"

    def make():
        if os.path.exists(path):
            with np.load(path, allow_pickle=False) as stored:
                count, parts = int(stored["count"]), int(stored["parts"])
                columns = [stored[f"part{i}"] for i in range(parts)]
            spec = dataset.element_spec
            for row in range(count):
                yield _pack(spec, [column[row] for column in columns])
            return
        seen = []
        for element in dataset._make_iterator():
            seen.append(_leaves(element))
            if any(composite.is_host_composite(leaf) for leaf in seen[-1]):
                raise NotImplementedError("Dataset.cache(filename) of elements holding sparse, ragged, dataset or "
                                          "None components is not implemented in placeflow; cache in memory "
                                          "(filename '').")
            yield element
        columns = {f"part{i}": np.stack([row[i] for row in seen]) for i in range(len(seen[0]))} if seen else {}
        temporary = path + f".{os.getpid()}.tmp.npz"
        np.savez(temporary, count=len(seen), parts=len(columns), **columns)
        os.replace(temporary, path)
    return Dataset(make, dataset._cardinality, dataset._spec)


def _stack(elements, spec=None):
    """The elements stacked along a new first dimension, part by part (sparse, ragged, dataset and None parts as
    composite.batch does, with the static dimensions of `spec`, the elements' spec, when known); TF's
    InvalidArgumentError when a part's shape differs between the elements (raised when the consumer reaches
    that batch)."""
    columns = [list(column) for column in zip(*[_leaves(e) for e in elements])]
    specs = _leaves(spec) if spec is not None else [None] * len(columns)
    return _pack(elements[0], [composite.batch(column, index, part) if composite.is_host_composite(column[0])
                               else np.stack(_checked_column(column, index))
                               for index, (column, part) in enumerate(zip(columns, specs))])


def _checked_column(column: list, component: int) -> list:
    """One dense part of every element, checked to have one shape (TF's error otherwise)."""
    expected = np.shape(column[0])
    for position, leaf in enumerate(column[1:], start=1):
        if composite.is_host_composite(leaf) or np.shape(leaf) != expected:
            text = "[" + ",".join(str(d) for d in expected) + "]"
            other = "[" + ",".join(str(d) for d in np.shape(leaf)) + "]"
            raise InvalidArgumentError(None, None, f"Cannot batch tensors with different shapes in component "
                                                   f"{component}. First element had shape {text} and element "
                                                   f"{position} had shape {other}.")
    return column


def _map_structure(fn, structure):
    """Apply `fn` to the leaves; tuples and dicts are structure, lists are values (as in tf.data), and so is a
    SparseTensorValue."""
    if isinstance(structure, dict):
        return {k: _map_structure(fn, v) for k, v in structure.items()}
    if isinstance(structure, tuple) and not composite.is_value_tuple(structure):
        items = [_map_structure(fn, v) for v in structure]
        return type(structure)(*items) if hasattr(structure, "_fields") else tuple(items)
    return fn(structure)


def _leaves(structure) -> list:
    if isinstance(structure, dict):
        return [leaf for v in structure.values() for leaf in _leaves(v)]
    if isinstance(structure, tuple) and not composite.is_value_tuple(structure):
        return [leaf for v in structure for leaf in _leaves(v)]
    return [structure]


def _checked_state(initial_state, new_state):
    """`new_state`, refused as TF refuses a reduce function whose state changes structure or dtype."""
    from ..framework import nest
    from ..eager.convert import convert_to_tensor
    before, after = nest.flatten(initial_state), nest.flatten(new_state)
    if len(before) != len(after):
        raise InvalidArgumentError(None, None, (
            f"The number of components of the initial state and the reduce function output does not match. "
            f"(initial_state={len(before)}, output={len(after)}). [Op:ReduceDataset]"))
    for old, new in zip(before, after):
        old_dtype, new_dtype = convert_to_tensor(old).dtype, convert_to_tensor(new).dtype
        if old_dtype != new_dtype:
            raise TypeError(f"The element types for the new state must match the initial state. Expected "
                            f"{old_dtype!s} but got {new_dtype!s}.")
    return new_state
