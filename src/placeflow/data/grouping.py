"""tf.data's stateful and grouping transformations and the sources that pick from other datasets: scan, unique,
group_by_window, bucket_by_sequence_length, get_single_element, sample/choose_from_datasets, counter,
list_files. A mixin of Dataset (dataset.py); each keeps TF's element order, cardinality and errors."""

from __future__ import annotations

import glob
import os

import numpy as np


class GroupingTransformations:
    """Dataset methods that carry state across elements or combine datasets."""

    def scan(self, initial_state, scan_func, name=None):
        """scan_func(state, element) -> (new state, output) over the elements: the outputs."""
        from .dataset import Dataset, _call_eagerly, _host_value, _map_structure

        def make():
            state = _map_structure(_host_value, initial_state)
            for element in self._make_iterator():
                result = _call_eagerly(scan_func, (state, element))
                if not isinstance(result, (tuple, list)) or len(result) != 2:
                    raise TypeError(f"The scan function must return a pair (new_state, output_element); got "
                                    f"{result!r}.")
                state, output = result
                yield output
        return Dataset(make, self._cardinality)

    def unique(self, name=None):
        """Each distinct element once, in first-seen order (scalar integers or strings, as TF allows)."""
        from .dataset import Dataset, _leaves
        spec = self.element_spec
        leaves = _leaves(spec)
        allowed = {"int32", "int64", "string"}
        if len(leaves) != 1 or leaves[0].dtype.name not in allowed:
            dtype = f"<dtype: '{leaves[0].dtype.name}'>" if len(leaves) == 1 else repr(spec)
            raise TypeError(f"`tf.data.Dataset.unique` does not support type {dtype} -- only `tf.int32`, "
                            "`tf.int64`, and `tf.string` are supported.")
        if len(leaves[0].shape) != 0:
            raise TypeError(f"Dataset.unique() supports scalar elements only; got shape {leaves[0].shape}.")

        def make():
            seen = set()
            for element in self._make_iterator():
                key = element.item() if hasattr(element, "item") else element
                if key not in seen:
                    seen.add(key)
                    yield element
        return Dataset(make, -1 if self._cardinality == -1 else -2, spec)

    def get_single_element(self, name=None):
        """The dataset's only element; InvalidArgumentError when it has none or more than one."""
        from ..framework import errors
        from .dataset import _as_tensors
        from .dataset import _leaves
        iterator = iter(self._make_iterator())
        first = next(iterator, _NOTHING)
        problem = "Dataset was empty." if first is _NOTHING else \
            "Dataset had more than one element." if next(iterator, _NOTHING) is not _NOTHING else None
        if problem is not None:
            count = len(_leaves(self.element_spec))
            raise errors.InvalidArgumentError(None, None, (
                f"{{{{function_node __wrapped__DatasetToSingleElement_output_types_{count}_device_/job:localhost/"
                f"replica:0/task:0/device:CPU:0}}}} {problem} [Op:DatasetToSingleElement]"))
        return _as_tensors(first)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
        """Elements grouped by key_func(element) (an int64 scalar) into windows of `window_size` (or
        window_size_func(key)); reduce_func(key, window dataset) makes the output dataset of each full window
        (and of each partial one at the end, in key order of first appearance)."""
        from .dataset import Dataset, _call_eagerly
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be "
                             "specified.")
        spec = self.element_spec

        def size_of(key: int) -> int:
            size = int(window_size) if window_size is not None else int(_call_eagerly(window_size_func, np.int64(key)))
            if size < 1:
                from ..framework import errors
                raise errors.InvalidArgumentError(None, None, f"Window size must be greater than zero, but got {size}.")
            return size

        def reduced(key: int, group: list):
            window = Dataset(lambda: iter(list(group)), len(group), spec)
            result = _call_eagerly(reduce_func, (np.int64(key), window))
            if not isinstance(result, Dataset):
                raise TypeError(f"`reduce_func` must return a `Dataset` object; got {result!r}.")
            return result._make_iterator()

        def make():
            windows: dict = {}
            for element in self._make_iterator():
                key = int(_call_eagerly(key_func, element))
                group = windows.setdefault(key, [])
                group.append(element)
                if len(group) >= size_of(key):
                    windows[key] = []
                    yield from reduced(key, group)
            for key, group in windows.items():
                if group:
                    yield from reduced(key, group)
        return Dataset(make, -2)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                  padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        """Padded batches of elements of similar length: bucket i holds lengths in [boundaries[i-1],
        boundaries[i]) and batches bucket_batch_sizes[i] of them (TF's group_by_window underneath)."""
        boundaries = [int(b) for b in bucket_boundaries]
        sizes = [int(s) for s in bucket_batch_sizes]
        if len(sizes) != len(boundaries) + 1:
            raise ValueError(f"`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` but "
                             f"`len(bucket_batch_sizes)={len(sizes)}` and `len(bucket_boundaries)={len(boundaries)}`.")
        if any(b <= a for a, b in zip(boundaries, boundaries[1:])):
            raise ValueError(f"Buckets boundaries must be sorted in ascending order; got {boundaries}")
        def bucket_of(*element):
            length = int(element_length_func(*element))
            return np.int64(sum(1 for b in boundaries if length >= b))

        def batch(key, window):
            index = int(key)
            size = sizes[index]
            if no_padding:
                return window.batch(size, drop_remainder=drop_remainder)
            shapes = padded_shapes
            if pad_to_bucket_boundary:
                if index == len(boundaries):
                    raise ValueError("When pad_to_bucket_boundary=True, elements must have length < "
                                     "max(bucket_boundaries).")
                shapes = _bucket_shapes(window.element_spec, boundaries[index] - 1, padded_shapes)
            return window.padded_batch(size, shapes, padding_values, drop_remainder=drop_remainder)
        return self.group_by_window(bucket_of, batch, window_size_func=lambda key: sizes[int(key)])

    def ignore_errors(self, log_warning=False, name=None):
        """Not implemented: placeflow's pipeline stops at an element's error."""
        raise NotImplementedError("Dataset.ignore_errors is not implemented in placeflow: an error in an element "
                                  "ends the pass. Filter bad inputs out before the failing transformation.")

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=None, name=None):
        """Not implemented: datasets of RaggedTensors."""
        raise NotImplementedError("Dataset.ragged_batch is not implemented in placeflow (dataset elements cannot "
                                  "be RaggedTensors); use padded_batch.")

    def sparse_batch(self, batch_size, row_shape, name=None):
        """Not implemented: datasets of SparseTensors."""
        raise NotImplementedError("Dataset.sparse_batch is not implemented in placeflow (dataset elements cannot "
                                  "be SparseTensors); use padded_batch.")

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None, name=None):
        """(class, element) pairs resampled so that the classes follow `target_dist` (TF's algorithm; see
        data/experimental_more.py)."""
        from .experimental_more import rejection_resample
        return self.apply(rejection_resample(class_func, target_dist, initial_dist, seed))

    def fingerprint(self):
        """Not implemented."""
        raise NotImplementedError("Dataset.fingerprint is not implemented in placeflow.")

    @staticmethod
    def counter(start=0, step=1, dtype=None, name=None):
        """start, start + step, ... forever (int64 unless `dtype`)."""
        from ..framework import dtypes
        from .dataset import Dataset, _spec_of
        kind = (dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)).numpy_dtype.type

        def make():
            value = start
            while True:
                yield kind(value)
                value += step
        return Dataset(make, -1, _spec_of((), kind))

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        """Random int64 values forever: TF's values for a seed (tf.data.experimental.RandomDataset)."""
        from .experimental_more import RandomDataset
        return RandomDataset(seed, rerandomize_each_iteration)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        """Elements drawn from `datasets` at random with probabilities `weights` (uniform by default); an
        exhausted dataset drops out (or, with stop_on_empty_dataset, ends the result)."""
        from .dataset import Dataset, _merged_specs
        datasets = list(datasets)
        if not datasets:
            raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
        chances = np.full(len(datasets), 1.0 / len(datasets)) if weights is None else \
            np.asarray(weights, dtype=np.float64).reshape(-1)
        if chances.shape[0] != len(datasets):
            raise ValueError(f"Invalid `weights`. The shape of `weights` should be compatible with `[len(datasets)]` "
                             f"but is {list(chances.shape)}.")
        spec = datasets[0].element_spec
        for other in datasets[1:]:
            spec = _merged_specs(spec, other.element_spec)
        passes = [0]

        def make():
            rng = np.random.default_rng(None if seed is None else [int(seed), passes[0]])
            if rerandomize_each_iteration:
                passes[0] += 1
            iterators = [iter(d._make_iterator()) for d in datasets]
            live = chances.copy()
            while live.sum() > 0:
                index = int(rng.choice(len(iterators), p=live / live.sum()))
                element = next(iterators[index], _NOTHING)
                if element is _NOTHING:
                    if stop_on_empty_dataset:
                        return
                    live[index] = 0.0
                    continue
                yield element
        return Dataset(make, -2, spec)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        """The next element of datasets[i] for each int64 `i` of `choice_dataset`."""
        from ..framework import errors
        from .dataset import Dataset, _host_value, _leaves, _merged_specs
        datasets = list(datasets)
        if not datasets:
            raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
        choice_spec = _leaves(choice_dataset.element_spec)
        if len(choice_spec) != 1 or choice_spec[0].dtype.name != "int64" or len(choice_spec[0].shape) != 0:
            raise TypeError(f"Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar of `tf.int64` "
                            f"dtype, but found {choice_dataset.element_spec}.")
        spec = datasets[0].element_spec
        for other in datasets[1:]:
            spec = _merged_specs(spec, other.element_spec)

        def make():
            iterators = [iter(d._make_iterator()) for d in datasets]
            for choice in choice_dataset._make_iterator():
                index = int(_host_value(choice))
                if not 0 <= index < len(iterators):
                    raise errors.InvalidArgumentError(None, None, f"Selector index out of range: {index} >= "
                                                                  f"{len(iterators)}")
                element = next(iterators[index], _NOTHING)
                if element is _NOTHING:
                    if stop_on_empty_dataset:
                        return
                    continue
                yield element
        return Dataset(make, -2, spec)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The file names matching `file_pattern` (a glob, or a list of them), sorted, then shuffled unless
        shuffle=False; InvalidArgumentError when nothing matches."""
        from ..framework import errors
        from .dataset import Dataset, _host_value
        patterns = [_text(p) for p in np.asarray(_host_value(file_pattern), dtype=object).reshape(-1)]
        names = sorted({match for pattern in patterns for match in glob.glob(pattern)})
        if not names:
            listed = ", ".join(patterns)
            raise errors.InvalidArgumentError(None, None, f"Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be "
                                                          f"true. Summarized data: b'No files matched pattern: "
                                                          f"{listed}'")
        files = Dataset.from_tensor_slices(np.asarray([os.fsencode(n) for n in names], dtype=object))
        if shuffle is None or shuffle:
            files = files.shuffle(len(names), seed=seed)
        return files


_NOTHING = object()


def _text(value) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _bucket_shapes(spec, length: int, padded_shapes):
    """Every element's unknown first dimension padded to `length` (TF's pad_to_bucket_boundary)."""
    from .dataset import _map_structure
    if padded_shapes is not None:
        return _map_structure(lambda s: [length if d is None and i == 0 else d for i, d in enumerate(s)],
                              padded_shapes)
    return _map_structure(lambda s: [length if (d is None and i == 0) else d for i, d in enumerate(s.shape)], spec)
