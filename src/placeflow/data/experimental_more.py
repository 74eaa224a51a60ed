"""More of tf.data.experimental: RandomDataset (TF's Philox values), parse_example_dataset and
make_batched_features_dataset (dense features), rejection_resample (TF's output distribution), TFRecordWriter,
DatasetInitializer, enable_debug_mode, AutotuneAlgorithm, SHARD_HINT, and the names refused by name (sparse batches,
variants, the autotuning model, TF1 saveables). save/load/snapshot live in saved_datasets.py."""

from __future__ import annotations

import enum

import numpy as np

from ..api.lookup import _Initializer
from ..framework import errors
from ..framework.refusals import not_implemented
from . import pipeline
from .dataset import AUTOTUNE, Dataset, _call_eagerly, _leaves, _spec_of

SHARD_HINT = -1  # tf.data.experimental.SHARD_HINT: a shard count the runtime fills in (placeflow: -1, as TF)


class AutotuneAlgorithm(enum.Enum):
    """Which algorithm tf.data's autotuner uses (Options.autotune.autotune_algorithm; placeflow has no autotuner
    that reads it: AUTOTUNE means one element ahead)."""

    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


# -- RandomDataset ----------------------------------------------------------------------------------------------

class RandomDataset(Dataset):
    """Random uint32 values as int64 scalars, forever: TF's Philox stream for the seed pair (the same values TF's
    RandomDataset gives for a seed); with rerandomize_each_iteration, each pass draws a new seed pair from it."""

    def __init__(self, seed=None, rerandomize_each_iteration=None, name=None):
        from ..api.random import get_seed
        seeds = get_seed(seed)
        if seeds == (None, None):
            seeds = tuple(int(v) for v in np.random.SeedSequence().generate_state(2, np.uint32))
        parent = _philox_values(*seeds)  # with rerandomize_each_iteration: each pass's seed pair, in turn

        def make():
            if not rerandomize_each_iteration:
                return _philox_values(*seeds)
            return _philox_values(int(next(parent)), int(next(parent)))
        super().__init__(make, -1, _spec_of((), np.int64))


def _philox_values(seed: int, seed2: int):
    """The uint32 words of TF's PhiloxRandom(seed, seed2), as int64 scalars, 256 at a time."""
    from ..ops import philox
    key = (seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF)
    counter = (0, 0, seed2 & 0xFFFFFFFF, (seed2 >> 32) & 0xFFFFFFFF)
    start = 0
    while True:
        for word in philox.words(key, counter, 64, start).reshape(-1).astype(np.int64):
            yield word
        start += 64


# -- parsing Examples --------------------------------------------------------------------------------------------

def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    """A transformation: each element (a vector of serialized tf.train.Examples) parsed into a dict of dense
    tensors, one per FixedLenFeature ([batch, *shape])."""
    if features is None:
        raise ValueError("Argument `features` is required, but not specified.")
    _check_dense_features(features)

    def transform(dataset):
        spec = dataset.element_spec
        if _leaves(spec) != [spec] or spec.dtype.name != "string" or len(spec.shape) != 1:
            raise TypeError(f"Input dataset should be a dataset of vectors of strings. Instead it is `{spec}`.")
        rows = spec.shape[0]
        out_spec = {key: _spec_of((rows,) + tuple(int(d) for d in f.shape), f.dtype) for key, f in features.items()}
        parse = _parser(features)
        parsed = dataset.map(parse, num_parallel_calls=None if num_parallel_calls == 1 else num_parallel_calls,
                             deterministic=deterministic)
        parsed._spec = out_spec
        return parsed
    return transform


def _parser(features):
    def parse(serialized):
        from ..api.example_proto import parse_example
        try:
            return parse_example(serialized, features)
        except errors.DataLossError:  # bytes that are not an Example: TF's InvalidArgumentError
            raise errors.InvalidArgumentError(None, None, f"Could not parse example input, value: "
                                                          f"{_first_bad(serialized)!r}") from None
    return parse


def _first_bad(serialized):
    from ..api.example_proto import Example
    for record in np.asarray(serialized.numpy(), dtype=object).reshape(-1):
        try:
            Example.FromString(record)
        except Exception:  # noqa: BLE001 - the record that fails is the one to show
            return record.decode("latin-1")
    return serialized


def _check_dense_features(features):
    from ..api.example_proto import FixedLenFeature
    for key, feature in features.items():
        if type(feature) is not FixedLenFeature:
            raise NotImplementedError(
                f"parse_example_dataset with a {type(feature).__name__} (feature {key!r}) is not implemented in "
                f"placeflow: its datasets hold dense tensors, not SparseTensors or RaggedTensors. Use "
                f"tf.io.FixedLenFeature, or map tf.io.parse_example over the batches yourself.")


def make_batched_features_dataset(file_pattern, batch_size, features, reader=None, label_key=None, reader_args=None,
                                  num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                                  prefetch_buffer_size=None, reader_num_threads=None, parser_num_threads=None,
                                  sloppy_ordering=False, drop_final_batch=False):
    """Batches of parsed Examples read from the files matching `file_pattern` (TFRecords by default): files
    listed (shuffled with `shuffle`), read `reader_num_threads` at a time, examples shuffled, repeated
    `num_epochs` times (forever when None: then every batch is full), batched, parsed, and split into
    (features, label) when `label_key` is given."""
    if label_key is not None and label_key not in features:
        raise ValueError(f"The `label_key` provided ({label_key}) must be one of the `features` keys: "
                         f"{features.keys()}.")
    _check_dense_features(features)
    from .tfrecord import tfrecord_dataset
    read = reader or tfrecord_dataset
    open_file = (lambda name: read(name, *reader_args)) if reader_args else read
    files = Dataset.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
    records = files.interleave(open_file, cycle_length=reader_num_threads or 1, deterministic=not sloppy_ordering)
    if isinstance(records.element_spec, tuple):  # a reader of (key, value) pairs: the values
        records = Dataset(lambda: (pair[1] for pair in records._make_iterator()), -2, records.element_spec[1])
    if shuffle:
        records = records.shuffle(shuffle_buffer_size, seed=shuffle_seed)
    if num_epochs != 1:
        records = records.repeat(num_epochs)
    batches = records.batch(batch_size, drop_remainder=drop_final_batch or num_epochs is None)
    parsed = batches.apply(parse_example_dataset(features, parser_num_threads or 1, not sloppy_ordering))
    if label_key is not None:
        parsed = _split_label(parsed, label_key)
    return parsed.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)


def _split_label(dataset, label_key):
    spec = dict(dataset.element_spec)
    label_spec = spec.pop(label_key)

    def make():
        for element in dataset._make_iterator():
            rest = dict(element)
            label = rest.pop(label_key)
            yield rest, label
    return Dataset(make, dataset._cardinality, (spec, label_spec))


# -- rejection_resample ------------------------------------------------------------------------------------------

_TINY = float(np.finfo(np.float32).tiny)


def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    """A transformation: (class, element) pairs resampled so that the classes follow `target_dist`, TF's way:
    original elements with probability min(target / initial), else elements accepted with probability
    (target/initial - min) / (max - min); `initial_dist` is estimated from the classes seen when not given.
    The draws are placeflow's (seeded by `seed`), not TF's: the output distribution is TF's."""
    return lambda dataset: _resampled(dataset, class_func, target_dist, initial_dist, seed)


def _resampled(dataset, class_func, target_dist, initial_dist, seed):
    target = _distribution(target_dist, "target_dist")
    initial = None if initial_dist is None else _distribution(initial_dist, "initial_dist")
    if initial is not None and initial.shape != target.shape:
        raise errors.InvalidArgumentError(None, None, f"Incompatible shapes: {list(target.shape)} vs. "
                                                      f"{list(initial.shape)}: target_dist and initial_dist must have "
                                                      f"one probability per class.")
    class_spec = _class_spec(dataset, class_func)
    spec = (class_spec, dataset.element_spec)
    if initial is not None:
        with np.errstate(divide="ignore", invalid="ignore"):
            static = float(np.min(target / initial))
        if static == 1.0:  # the target is the initial distribution: the elements as they are
            return Dataset(_labelled(dataset, class_func), dataset._cardinality, spec)
    labelled = _labelled(dataset, class_func, len(target))

    def make():  # a seed repeats its draws on every pass, as TF's seeded random ops in a dataset do
        rng = np.random.default_rng(None if seed is None else int(seed))
        original, weights = labelled(), _mixing(labelled(), target, initial)
        accepted = _accepted(labelled(), target, initial, rng)
        for prob_original in weights:
            source = original if prob_original > 0 and rng.random() < prob_original else accepted
            element = next(source, None)
            if element is None:
                return
            yield element
    return Dataset(make, -2, spec)


def _distribution(value, what):
    array = np.asarray(value.numpy() if hasattr(value, "numpy") else value, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{what} must be a vector of class probabilities, got shape {list(array.shape)}.")
    return array


def _class_spec(dataset, class_func):
    spec = dataset.map(class_func).element_spec
    if _leaves(spec) != [spec] or not spec.dtype.is_integer:
        raise TypeError(f"class_func must return an integer scalar class (int32 or int64) per element, got "
                        f"{spec!r}.")
    if len(spec.shape) != 0:
        raise ValueError(f"class_func must return a scalar class per element, got shape {spec.shape}; reduce the "
                         f"class to a scalar.")
    return spec


def _labelled(dataset, class_func, classes=None):
    """() -> an iterator of (class, element) host pairs over a new pass of `dataset` (classes checked to be in
    [0, classes) when given)."""
    def make():
        for element in dataset._make_iterator():
            label = np.asarray(_call_eagerly(class_func, element))
            if classes is not None and not 0 <= int(label) < classes:
                raise errors.InvalidArgumentError(None, None, f"class_func returned class {int(label)}, outside "
                                                              f"[0, {classes}): target_dist has {classes} classes.")
            yield label, element
    return make


def _estimates(pairs, classes: int):
    """(pair, the class distribution of the pairs so far, this one included) for each pair."""
    counts = np.zeros(classes)
    for pair in pairs:
        counts[int(pair[0])] += 1
        yield pair, counts / counts.sum()


def _ratios(target, initial):
    return target / (initial + _TINY)


def _mixing(pairs, target, initial):
    """The probability of taking an original element at each step (min of target / initial)."""
    if initial is not None:
        prob = float(np.min(_ratios(target, initial)))
        while True:
            yield prob
    for _, estimate in _estimates(pairs, len(target)):
        yield float(np.min(_ratios(target, estimate)))


def _accepted(pairs, target, initial, rng):
    """The pairs kept by rejection with TF's acceptance probabilities (from `initial` or the running estimate)."""
    estimated = _estimates(pairs, len(target)) if initial is None else ((p, initial) for p in pairs)
    for pair, distribution in estimated:
        ratio = _ratios(target, distribution)
        low, high = ratio.min(), ratio.max()
        accept = (ratio - low) / (high - low) if high > low else np.zeros_like(ratio)
        if rng.random() < accept[int(pair[0])]:
            yield pair


# -- writing TFRecords, tables from datasets, debug mode -----------------------------------------------------------

class TFRecordWriter:
    """Writes a dataset of scalar strings to a TFRecord file (compression_type None, '', 'GZIP' or 'ZLIB')."""

    def __init__(self, filename, compression_type=None):
        self._filename, self._compression = filename, compression_type

    def write(self, dataset):
        """Write every element of `dataset` (scalar tf.string elements) as one record, in order."""
        from ..api.tfrecord import TFRecordOptions, TFRecordWriter as RecordWriter
        if not isinstance(dataset, Dataset):
            raise TypeError(f"Invalid `dataset.` Expected a `tf.data.Dataset` object but got {type(dataset)}.")
        spec = dataset.element_spec
        if _leaves(spec) != [spec] or spec.dtype.name != "string" or len(spec.shape) != 0:
            raise TypeError(f"Invalid `dataset`. Expected a `dataset` that produces scalar `tf.string` elements, but "
                            f"got a dataset which produces elements {spec}; map the elements to scalar strings "
                            f"first (e.g. tf.io.serialize_tensor).")
        name = self._filename.numpy().decode() if hasattr(self._filename, "numpy") else str(self._filename)
        with RecordWriter(name, TFRecordOptions(self._compression)) as writer:
            for record in dataset._make_iterator():
                writer.write(np.asarray(record, dtype=object).item())


class DatasetInitializer(_Initializer):
    """A lookup-table initializer from a dataset of (key, value) scalar pairs (for tf.lookup.StaticHashTable)."""

    def __init__(self, dataset):
        if not isinstance(dataset, Dataset):
            raise TypeError(f"DatasetInitializer takes a tf.data.Dataset of (key, value) pairs, got "
                            f"{type(dataset).__name__}.")
        spec = dataset.element_spec
        if not isinstance(spec, tuple):
            raise TypeError(f"DatasetInitializer needs a dataset of (key, value) pairs, but its elements are {spec}; "
                            f"zip a keys dataset with a values dataset.")
        if len(spec) != 2:
            raise ValueError(f"Datasets used to initialize lookup tables must produce elements in the form (key, "
                             f"value), where the keys and values are scalar tensors. However, the given dataset "
                             f"produces {len(spec)} components instead of two (key, value) components. Full dataset "
                             f"element spec: {spec}.")
        for part, what in zip(spec, ("key", "value")):
            if _leaves(part) != [part] or len(part.shape) != 0:
                raise ValueError(f"Datasets used to initialize lookup tables must produce elements in the form (key, "
                                 f"value), where the keys and values are scalar tensors. However, the given dataset "
                                 f"produces non-scalar {what} Tensors: {part}.")
        self.dataset = dataset
        self._key_dtype, self._value_dtype = spec[0].dtype, spec[1].dtype

    def _pairs(self):
        pairs = list(self.dataset._make_iterator())
        kinds = [object if s.dtype.name == "string" else s.dtype.numpy_dtype for s in self.dataset.element_spec]
        return (np.asarray([k for k, _ in pairs], dtype=kinds[0]),
                np.asarray([v for _, v in pairs], dtype=kinds[1]))


def enable_debug_mode():
    """tf.data debug mode, for this process from now on: parallel map calls run one at a time in the iterating
    thread and prefetching fetches each element when it is asked for (no worker thread), as in TF. map/filter/scan
    functions always run eagerly in placeflow (plus one trace of a map function when its element_spec is first
    needed, as TF traces it once in debug mode too)."""
    from ..framework import graph_mode
    if graph_mode.active() is not None:
        raise ValueError("`enable_debug_mode() is only supported in eager mode.")
    pipeline.enable_debug()


# -- refused by name -----------------------------------------------------------------------------------------------

dense_to_sparse_batch = not_implemented(
    "tf.data.experimental.dense_to_sparse_batch",
    "placeflow datasets hold dense tensors, not SparseTensors; use Dataset.padded_batch (and tf.sparse.from_dense "
    "on each batch if a SparseTensor is needed).")
get_model_proto = not_implemented(
    "tf.data.experimental.get_model_proto",
    "placeflow has no tf.data autotuning model (its pipelines are Python generators), so there is no ModelProto.")
from_variant = not_implemented(
    "tf.data.experimental.from_variant", "placeflow has no variant tensors; pass the Dataset object itself.")
to_variant = not_implemented(
    "tf.data.experimental.to_variant", "placeflow has no variant tensors; pass the Dataset object itself.")
distributed_save = not_implemented(
    "tf.data.experimental.distributed_save",
    "it needs the tf.data service, which placeflow does not have; use tf.data.Dataset.save.")
make_saveable_from_iterator = not_implemented(
    "tf.data.experimental.make_saveable_from_iterator",
    "it makes TF1 SaveableObjects, which placeflow does not have; checkpoint the iterator with tf.train.Checkpoint.")
