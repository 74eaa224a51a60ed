"""placeflow.data.experimental: prefetch_to_device, AUTOTUNE, AutoShardPolicy, cardinality constants, and the
transformations for Dataset.apply (scan, unique, group_by_window, bucket_by_sequence_length, ...)."""


import numpy as np

from ..api.optional import Optional  # noqa: F401 - tf.data.experimental.Optional is tf.experimental.Optional
from .csv_datasets import CsvDataset, SqlDataset, make_csv_dataset  # noqa: F401
from .dataset import AUTOTUNE, prefetch_to_device  # noqa: F401
from . import experimental_service as service  # noqa: F401 - tf.data.experimental.service, refused as a whole
from .experimental_more import (  # noqa: F401
    SHARD_HINT, AutotuneAlgorithm, DatasetInitializer, RandomDataset, TFRecordWriter, dense_to_sparse_batch,
    distributed_save, enable_debug_mode, from_variant, get_model_proto, make_batched_features_dataset,
    make_saveable_from_iterator, parse_example_dataset, rejection_resample, to_variant,
)
from .saved_datasets import load, save, snapshot  # noqa: F401
from .options import (  # noqa: F401
    AutoShardPolicy, AutotuneOptions, DistributeOptions, ExternalStatePolicy, OptimizationOptions, ThreadingOptions,
)

INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


def cardinality(dataset):
    """The dataset's number of elements (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY)."""
    return dataset.cardinality()


# -- transformations for Dataset.apply, and the sources kept under experimental ----------------------------------

def scan(initial_state, scan_func):
    """A transformation: Dataset.scan(initial_state, scan_func)."""
    return lambda dataset: dataset.scan(initial_state, scan_func)


def unique():
    """A transformation: Dataset.unique()."""
    return lambda dataset: dataset.unique()


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """A transformation: Dataset.group_by_window(...)."""
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size, window_size_func)


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=None,
                              padding_values=None, pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """A transformation: Dataset.bucket_by_sequence_length(...)."""
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes, padding_values,
        pad_to_bucket_boundary, no_padding, drop_remainder)


def take_while(predicate):
    """A transformation: Dataset.take_while(predicate)."""
    return lambda dataset: dataset.take_while(predicate)


def unbatch():
    """A transformation: Dataset.unbatch()."""
    return lambda dataset: dataset.unbatch()


def enumerate_dataset(start=0):
    """A transformation: Dataset.enumerate(start)."""
    return lambda dataset: dataset.enumerate(start)


def ignore_errors(log_warning=False):
    """A transformation: Dataset.ignore_errors() (refused by name in placeflow)."""
    return lambda dataset: dataset.ignore_errors(log_warning)


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """A transformation: shuffle(buffer_size, seed) then repeat(count) (a new order each pass)."""
    return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False, num_parallel_calls=None):
    """A transformation: map(map_func) then batch(batch_size, drop_remainder)."""
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("`map_and_batch` allows only one of `num_parallel_batches` and `num_parallel_calls` to be "
                         "set.")
    return lambda dataset: dataset.map(map_func, num_parallel_calls).batch(batch_size, drop_remainder)


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False, buffer_output_elements=None,
                        prefetch_input_elements=None):
    """A transformation: interleave(map_func, cycle_length, block_length) (the deterministic order, also when
    sloppy: a permitted order)."""
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length)


def assert_cardinality(expected_cardinality):
    """A transformation whose dataset has `expected_cardinality` elements, checked while it is read
    (FailedPreconditionError with TF's texts when it has fewer or more)."""
    expected = int(expected_cardinality)

    def transform(dataset):
        from ..framework import errors
        from .dataset import Dataset

        def make():
            count = 0
            for element in dataset._make_iterator():
                count += 1
                if expected >= 0 and count > expected:
                    raise errors.FailedPreconditionError(None, None, (
                        f"Input dataset was expected to contain {_elements(expected)} but contained at least "
                        f"{_elements(count)}."))
                yield element
            if expected >= 0 and count < expected:
                raise errors.FailedPreconditionError(None, None, (
                    f"Input dataset was expected to contain {_elements(expected)} but contained only "
                    f"{_elements(count)}."))
        return Dataset(make, expected, dataset._spec)
    return transform


def _elements(count: int) -> str:
    return f"{count} element" if count == 1 else f"{count} elements"


def get_single_element(dataset):
    """dataset.get_single_element()."""
    return dataset.get_single_element()


def get_structure(dataset_or_iterator):
    """The element_spec of a dataset or iterator."""
    return dataset_or_iterator.element_spec


def from_list(elements, name=None):
    """A dataset of the given elements (each a structure of values), in order."""
    from .dataset import Dataset
    items = list(elements)
    if not items:
        raise ValueError("Invalid `elements`. `elements` should not be empty.")
    from ..framework import nest
    columns = [list(column) for column in zip(*[nest.flatten(item) for item in items])]
    return Dataset.from_tensor_slices(nest.pack_sequence_as(items[0], columns))


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    """Dataset.sample_from_datasets."""
    from .dataset import Dataset
    return Dataset.sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    """Dataset.choose_from_datasets."""
    from .dataset import Dataset
    return Dataset.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)


def Counter(start=0, step=1, dtype=None, name=None):  # noqa: N802 - TensorFlow's name
    """Dataset.counter(start, step, dtype)."""
    from .dataset import Dataset
    return Dataset.counter(start, step, dtype)


def at(dataset, index):
    """The element at `index` (OutOfRangeError past the end, FailedPreconditionError for an infinite dataset, as
    TF's)."""
    from ..framework import errors
    index = int(index)
    if int(dataset._cardinality) == -1:  # INFINITE_CARDINALITY
        raise errors.FailedPreconditionError(None, None, f"Dataset of type {type(dataset).__name__} has infinite "
                                                         "cardinality, which does not support random access; "
                                                         "take() a finite part of it first.")
    if index < 0:
        raise errors.OutOfRangeError(None, None, f"Index out of range [0, {int(dataset._cardinality)}):{index}")
    found = list(dataset.skip(index).take(1))
    if not found:
        raise errors.OutOfRangeError(None, None, f"Index out of range [0, {int(dataset._cardinality)}):{index}")
    return found[0]


def copy_to_device(target_device, source_device="/cpu:0"):
    """A transformation whose elements arrive on `target_device` (prefetch_to_device without a buffer)."""
    return prefetch_to_device(target_device, 1)


# -- reducers, padding, tables from datasets, optionals ------------------------------------------------------------

class Reducer:
    """What group_by_reducer does per key: init_func(key) -> state, reduce_func(state, element) -> state,
    finalize_func(state) -> the group's element."""

    def __init__(self, init_func, reduce_func, finalize_func):
        self.init_func, self.reduce_func, self.finalize_func = init_func, reduce_func, finalize_func


def group_by_reducer(key_func, reducer):
    """A transformation: one element per key (an int64 scalar of key_func), the reducer's result over that key's
    elements, keys in the order they first appear."""
    def transform(dataset):
        from .dataset import Dataset, _call_eagerly, _map_structure, _to_host

        def make():
            states, order = {}, []
            for element in dataset._make_iterator():
                key = int(np.asarray(_call_eagerly(key_func, element)))
                if key not in states:
                    states[key] = _map_structure(_to_host, reducer.init_func(_tensor(np.int64(key))))
                    order.append(key)
                states[key] = _call_eagerly(reducer.reduce_func, (states[key],) + _parts(element))
            for key in order:
                yield _call_eagerly(reducer.finalize_func, states[key])
        return Dataset(make, -2)
    return transform


def _tensor(value):
    from ..eager.convert import convert_to_tensor
    return convert_to_tensor(value)


def _parts(element) -> tuple:
    return element if isinstance(element, tuple) else (element,)


def pad_to_cardinality(cardinality, mask_key="valid"):
    """A transformation: a dataset of dicts padded to `cardinality` elements with zero elements whose `mask_key`
    is False (True for the original elements)."""
    def transform(dataset):
        from .dataset import Dataset
        count = dataset._cardinality
        if count < 0:
            raise ValueError(f"The dataset passed into `pad_to_cardinality` must have a known cardinality, but has "
                             f"cardinality {count}")
        if count > cardinality:
            raise ValueError(f"The dataset passed into `pad_to_cardinality` must have a cardinality less than the "
                             f"target cardinality ({cardinality}), but has cardinality {count}")
        spec = dataset.element_spec
        if not isinstance(spec, dict):
            raise ValueError(f"`pad_to_cardinality` requires its input dataset to be a dictionary, got {spec!r}.")
        padding = {key: np.zeros(tuple(s.shape), s.dtype.numpy_dtype) for key, s in spec.items()}

        def make():
            for element in dataset._make_iterator():
                yield {mask_key: np.bool_(True), **element}
            for _ in range(cardinality - count):
                yield {mask_key: np.bool_(False), **padding}
        return Dataset(make, cardinality)
    return transform


def table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=None, hasher_spec=None,
                       key_dtype=None, name=None):
    """A lookup table of the dataset's (key, value) pairs (a StaticHashTable; with OOV buckets, keys missing from
    the table take vocab size + their hash bucket)."""
    from ..api import lookup
    if hasher_spec is not None or vocab_size is not None:
        raise NotImplementedError("table_from_dataset(hasher_spec=, vocab_size=) is not implemented in placeflow.")
    pairs = list(dataset.as_numpy_iterator())
    keys = [k for k, _ in pairs]
    values = np.asarray([v for _, v in pairs])
    initializer = lookup.KeyValueTensorInitializer(keys, values, key_dtype=key_dtype)
    if num_oov_buckets:
        return lookup.StaticVocabularyTable(initializer, num_oov_buckets)
    return lookup.StaticHashTable(initializer, default_value if default_value is not None else -1)


def index_table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=-1, hasher_spec=None,
                             key_dtype=None, name=None):
    """A table from each key of the dataset to its position (int64), OOV keys as table_from_dataset says."""
    from .dataset import Dataset
    keys = list(dataset.as_numpy_iterator())
    pairs = Dataset.from_tensor_slices((np.asarray(keys, dtype=object if keys and isinstance(keys[0], bytes)
                                                   else None), np.arange(len(keys), dtype=np.int64)))
    return table_from_dataset(pairs, num_oov_buckets, vocab_size, default_value, hasher_spec, key_dtype, name)


def get_next_as_optional(iterator):
    """The iterator's next element as a tf.experimental.Optional (empty at the end)."""
    return iterator.get_next_as_optional()
