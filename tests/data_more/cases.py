"""Cases for the tf.data.experimental additions, run by TensorFlow 2.21 (record_tf_data_more.py) and placeflow
(test_data_more.py): each `case_<name>(tf)` returns JSON-able results: values rounded, specs, or [error class,
first line]. Files go to a fresh temporary directory per case."""

import math
import os
import tempfile

import numpy as np

from tests.helpers import error  # the recorded [class, first line] of a raised error

_SCRATCH = tempfile.TemporaryDirectory(prefix="data_more_cases_")  # removed when the process ends


def _directory():
    """A fresh directory for one case's files, under the process's scratch directory."""
    return tempfile.mkdtemp(dir=_SCRATCH.name)


def values(x, tol=None):
    """A tensor's values (floats rounded to 6 decimals, strings decoded), with dtype and shape."""
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if a.dtype == object or a.dtype.kind == "S":
        flat = [v.decode("latin-1") for v in a.reshape(-1).tolist()]
    else:
        flat = [("inf" if v > 0 else "-inf") if isinstance(v, float) and math.isinf(v) else v
                for v in np.round(a.astype(np.float64), 6).reshape(-1).tolist()]
    dtype = getattr(x, "dtype", a.dtype)
    out = {"dtype": str(getattr(dtype, "name", dtype)), "shape": list(a.shape), "values": flat}
    return out if tol is None else dict(out, tol=tol)


def structure(element):
    """An element (dicts, tuples, tensors) as JSON: dicts by key, tuples as lists, tensors by values()."""
    if isinstance(element, dict):
        return {str(k): structure(v) for k, v in sorted(element.items())}
    if isinstance(element, (tuple, list)):
        return [structure(v) for v in element]
    return values(element)


def spec(element_spec):
    """An element_spec as JSON: TensorSpecs as [dtype, shape]."""
    if isinstance(element_spec, dict):
        return {str(k): spec(v) for k, v in sorted(element_spec.items())}
    if isinstance(element_spec, (tuple, list)):
        return [spec(v) for v in element_spec]
    return [element_spec.dtype.name, [None if d is None else int(d) for d in element_spec.shape]]


def elements(dataset, limit=50):
    """The first `limit` elements of a dataset, by structure()."""
    return [structure(e) for e in dataset.take(limit)]


def _example(tf, i):
    """A serialized tf.train.Example with features a (2 floats), b (an int64), s (a string); `b` absent for i=3."""
    feature = {"a": tf.train.Feature(float_list=tf.train.FloatList(value=[i * 0.5, -i])),
               "s": tf.train.Feature(bytes_list=tf.train.BytesList(value=[f"row{i}".encode()]))}
    if i != 3:
        feature["b"] = tf.train.Feature(int64_list=tf.train.Int64List(value=[10 * i]))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


def _write_examples(tf, directory, files=2, per_file=3):
    """TFRecord files of Examples (per_file each, numbered across the files); their paths."""
    paths = []
    for f in range(files):
        path = os.path.join(directory, f"part-{f}.tfrecord")
        with tf.io.TFRecordWriter(path) as writer:
            for i in range(per_file):
                writer.write(_example(tf, f * per_file + i))
        paths.append(path)
    return paths


def _features(tf):
    return {"a": tf.io.FixedLenFeature([2], tf.float32), "b": tf.io.FixedLenFeature([], tf.int64, default_value=-1),
            "s": tf.io.FixedLenFeature([], tf.string)}


# -- RandomDataset -------------------------------------------------------------------------------------------------

def case_random_dataset(tf):
    dataset = tf.data.experimental.RandomDataset(seed=42)
    again = tf.data.experimental.RandomDataset(seed=42, rerandomize_each_iteration=True)
    first, second = elements(again, 3), elements(again, 3)
    return [spec(dataset.element_spec), int(dataset.cardinality()), isinstance(dataset, tf.data.Dataset),
            elements(dataset, 6), elements(dataset, 6), elements(tf.data.experimental.RandomDataset(seed=1), 4),
            elements(tf.data.experimental.RandomDataset(seed=7, rerandomize_each_iteration=False), 3),
            first, second, elements(tf.data.experimental.RandomDataset(seed=2 ** 40 + 5), 3)]


def case_random_dataset_global_seed(tf):
    tf.random.set_seed(5)
    try:
        return [elements(tf.data.experimental.RandomDataset(), 4),
                elements(tf.data.experimental.RandomDataset(seed=1), 4)]
    finally:
        tf.random.set_seed(None)


# -- parse_example_dataset, make_batched_features_dataset ----------------------------------------------------------

def case_parse_example_dataset(tf):
    directory = _directory()
    paths = _write_examples(tf, directory)
    parse = tf.data.experimental.parse_example_dataset(_features(tf))
    batched = tf.data.TFRecordDataset(paths).batch(4).apply(parse)
    dropped = tf.data.TFRecordDataset(paths).batch(4, drop_remainder=True).apply(parse)
    return [spec(batched.element_spec), elements(batched), spec(dropped.element_spec), elements(dropped),
            int(batched.cardinality())]


def case_parse_example_dataset_errors(tf):
    directory = _directory()
    paths = _write_examples(tf, directory)
    parse = tf.data.experimental.parse_example_dataset
    required = {"b": tf.io.FixedLenFeature([], tf.int64)}
    wrong_size = {"a": tf.io.FixedLenFeature([3], tf.float32)}
    return [error(lambda: elements(tf.data.TFRecordDataset(paths).batch(6).apply(parse(required)))),
            error(lambda: elements(tf.data.TFRecordDataset(paths).batch(2).apply(parse(wrong_size)))),
            error(lambda: tf.data.Dataset.range(3).batch(2).apply(parse(_features(tf)))),
            error(lambda: tf.data.TFRecordDataset(paths).batch(2).apply(parse(None))),
            error(lambda: elements(tf.data.Dataset.from_tensor_slices([b"not a proto", b"x"]).batch(2).apply(
                parse({"a": tf.io.FixedLenFeature([2], tf.float32)}))))]


def case_make_batched_features_dataset(tf):
    directory = _directory()
    _write_examples(tf, directory)
    pattern = os.path.join(directory, "part-*.tfrecord")
    make = tf.data.experimental.make_batched_features_dataset
    plain = make(pattern, 4, _features(tf), shuffle=False, num_epochs=1)
    labelled = make(pattern, 2, _features(tf), label_key="b", shuffle=False, num_epochs=2)
    forever = make(pattern, 4, _features(tf), shuffle=False)
    dropped = make(pattern, 4, _features(tf), shuffle=False, num_epochs=1, drop_final_batch=True)
    shuffled = make(pattern, 6, _features(tf), shuffle=True, shuffle_seed=3, num_epochs=1)
    rows = sorted(shuffled.take(1).get_single_element()["b"].numpy().tolist())
    return [spec(plain.element_spec), elements(plain), spec(labelled.element_spec), elements(labelled),
            spec(forever.element_spec), elements(forever, 3), elements(dropped), rows]


def case_make_batched_features_dataset_readers(tf):
    directory = _directory()
    for f in range(2):
        with tf.io.TFRecordWriter(os.path.join(directory, f"z-{f}.gz"), "GZIP") as writer:
            for i in range(3):
                writer.write(_example(tf, f * 3 + i))
    make = tf.data.experimental.make_batched_features_dataset
    features = {"a": tf.io.FixedLenFeature([2], tf.float32), "s": tf.io.FixedLenFeature([], tf.string)}
    gz = make(os.path.join(directory, "z-*.gz"), 3, features, reader=tf.data.TFRecordDataset, reader_args=["GZIP"],
              shuffle=False, num_epochs=1, reader_num_threads=2, parser_num_threads=2, prefetch_buffer_size=1)
    parallel = tf.data.TFRecordDataset(sorted(os.path.join(directory, n) for n in os.listdir(directory)),
                                       "GZIP").batch(2).apply(
        tf.data.experimental.parse_example_dataset(features, num_parallel_calls=2, deterministic=True))
    return [spec(gz.element_spec), elements(gz), elements(parallel)]


def case_make_batched_features_dataset_errors(tf):
    directory = _directory()
    _write_examples(tf, directory)
    pattern = os.path.join(directory, "part-*.tfrecord")
    make = tf.data.experimental.make_batched_features_dataset
    return [error(lambda: make(pattern, 2, _features(tf), label_key="missing", num_epochs=1)),
            error(lambda: make(os.path.join(directory, "none-*.tfrecord"), 2, _features(tf), num_epochs=1)),
            error(lambda: elements(make(pattern, 0, _features(tf), num_epochs=1)))]


# -- rejection_resample ---------------------------------------------------------------------------------------------

def _skewed(tf, count=6000):
    """Elements 0..count-1 whose class (i % 10 mapped) is 0 six times in ten, 1 three times, 2 once."""
    labels = np.array([0, 0, 0, 0, 0, 0, 1, 1, 1, 2], np.int32)[np.arange(count) % 10]
    return tf.data.Dataset.from_tensor_slices((labels, np.arange(count, dtype=np.int64)))


def _frequencies(tf, dataset, take=3000):
    classes = np.array([int(c) for c, _ in dataset.take(take)])
    return values(np.bincount(classes, minlength=3) / len(classes), tol=0.035)


def case_rejection_resample(tf):
    data = _skewed(tf)
    class_func = lambda label, index: label  # noqa: E731
    uniform = [1 / 3, 1 / 3, 1 / 3]
    resample = tf.data.experimental.rejection_resample
    known = data.apply(resample(class_func, uniform, initial_dist=[0.6, 0.3, 0.1], seed=1))
    estimated = data.apply(tf.data.experimental.rejection_resample(class_func, [0.5, 0.5, 0.0], seed=2))
    skewed = data.apply(resample(class_func, [0.2, 0.3, 0.5], initial_dist=[0.6, 0.3, 0.1], seed=3))
    same = data.apply(resample(class_func, [0.6, 0.3, 0.1], initial_dist=[0.6, 0.3, 0.1], seed=4))
    pairs = [(int(c), int(e[0])) for c, e in known.take(20)]
    return [spec(known.element_spec), all(c == label for c, label in pairs), _frequencies(tf, known),
            _frequencies(tf, estimated), _frequencies(tf, skewed), elements(same, 12),
            spec(data.map(class_func).apply(resample(lambda c: c, uniform, [0.6, 0.3, 0.1])).element_spec)]


def case_rejection_resample_errors(tf):
    data = _skewed(tf, 20)
    class_func = lambda label, index: label  # noqa: E731
    resample = tf.data.experimental.rejection_resample
    return [error(lambda: data.apply(resample(class_func, [0.5, 0.5], initial_dist=[0.6, 0.3, 0.1]))),
            error(lambda: data.apply(resample(lambda label, index: tf.cast(label, tf.float32), [0.5, 0.5, 0.0]))),
            error(lambda: data.apply(resample(lambda label, index: tf.stack([label, label]), [0.5, 0.5, 0.0])))]


# -- TFRecordWriter -------------------------------------------------------------------------------------------------

def case_tfrecord_writer(tf):
    directory = _directory()
    out = []
    for compression in (None, "GZIP", "ZLIB"):
        path = os.path.join(directory, f"written-{compression}.tfrecord")
        records = tf.data.Dataset.from_tensor_slices([b"first", b"", b"\x00\xff third"])
        result = tf.data.experimental.TFRecordWriter(path, compression).write(records)
        out.append([result is None, elements(tf.data.TFRecordDataset(path, compression_type=compression))])
    return out


def case_tfrecord_writer_errors(tf):
    path = os.path.join(_directory(), "bad.tfrecord")
    writer = tf.data.experimental.TFRecordWriter(path)
    return [error(lambda: writer.write(tf.data.Dataset.range(3))),
            error(lambda: writer.write(tf.data.Dataset.from_tensor_slices([[b"a", b"b"]]))),
            error(lambda: writer.write([b"a"]))]


# -- save, load, snapshot -------------------------------------------------------------------------------------------

def _records(tf):
    return tf.data.Dataset.from_tensor_slices({"x": np.arange(12, dtype=np.float32).reshape(6, 2) / 4,
                                              "name": [b"a", b"bb", b"", b"d", b"e", b"f"],
                                              "pair": (np.arange(6, dtype=np.int64), np.arange(6) % 2 == 0)})


def case_save_load(tf):
    directory = _directory()
    data = _records(tf)
    first, second, third = (os.path.join(directory, n) for n in ("plain", "gzip", "sharded"))
    results = [data.save(first), tf.data.experimental.save(data.batch(4), second, compression="GZIP")]
    data.save(third, shard_func=lambda row: row["pair"][0] % 3)
    loaded = tf.data.Dataset.load(first)
    gz = tf.data.experimental.load(second, compression="GZIP")
    sharded = tf.data.Dataset.load(third)
    shard_rows = sorted(int(e["pair"][0]) for e in sharded)
    given = tf.data.Dataset.load(first, element_spec=data.element_spec)
    one_shard = tf.data.Dataset.load(third, reader_func=lambda shards: shards.take(1).flat_map(lambda d: d))
    return [results, spec(loaded.element_spec), elements(loaded), int(loaded.cardinality()),
            spec(gz.element_spec), elements(gz), shard_rows, elements(given, 2),
            sorted(int(e["pair"][0]) for e in one_shard)]


def case_save_load_errors(tf):
    directory = _directory()
    tf.data.Dataset.range(3).save(os.path.join(directory, "saved"))
    tf.data.Dataset.range(3).save(os.path.join(directory, "gzip"), compression="GZIP")
    return [error(lambda: elements(tf.data.Dataset.load(os.path.join(directory, "saved"), compression="GZIP"))),
            error(lambda: elements(tf.data.Dataset.load(os.path.join(directory, "gzip")))),
            error(lambda: tf.data.Dataset.load(os.path.join(directory, "nothing-here"))),
            error(lambda: elements(tf.data.Dataset.load(os.path.join(directory, "saved"),
                                                        element_spec=tf.TensorSpec([], tf.float32))))]


def case_snapshot(tf):
    directory = _directory()
    calls = []

    def count():
        calls.append(1)  # once per pass of the generator
        yield from (2 * i for i in range(5))
    path = os.path.join(directory, "snap")
    source = tf.data.Dataset.from_generator(count, output_signature=tf.TensorSpec([], tf.int64))
    data = source.snapshot(path)
    first = [int(x) for x in data]
    after_first = len(calls)
    second = [int(x) for x in data]
    direct = tf.data.Dataset.range(4).apply(tf.data.experimental.snapshot(os.path.join(directory, "other")))
    return [first, second, after_first, len(calls), [int(x) for x in direct], [int(x) for x in direct],
            int(data.cardinality()), os.path.isdir(path)]


# -- DatasetInitializer, constants, debug mode ----------------------------------------------------------------------

def case_dataset_initializer(tf):
    pairs = tf.data.Dataset.zip((tf.data.Dataset.from_tensor_slices([b"cat", b"dog", b"owl"]),
                                 tf.data.Dataset.range(10, 13)))
    initializer = tf.data.experimental.DatasetInitializer(pairs)
    table = tf.lookup.StaticHashTable(initializer, -1)
    numbers = tf.lookup.StaticHashTable(tf.data.experimental.DatasetInitializer(
        tf.data.Dataset.range(4).map(lambda x: (x, tf.cast(x, tf.float32) / 2))), -1.0)
    return [initializer.key_dtype.name, initializer.value_dtype.name,
            values(table.lookup(tf.constant([b"dog", b"emu", b"cat"]))), int(table.size()),
            values(numbers.lookup(tf.constant([3, 0, 9], tf.int64)))]


def case_dataset_initializer_errors(tf):
    init = tf.data.experimental.DatasetInitializer
    return [error(lambda: init(tf.data.Dataset.range(3))),
            error(lambda: init(tf.data.Dataset.range(3).map(lambda x: (x, x, x)))),
            error(lambda: init(tf.data.Dataset.range(3).map(lambda x: (tf.stack([x, x]), x))))]


def case_constants(tf):
    algorithm = tf.data.experimental.AutotuneAlgorithm
    return [sorted((m.name, m.value) for m in algorithm), algorithm.HILL_CLIMB.name, int(algorithm["DEFAULT"].value),
            int(tf.data.experimental.SHARD_HINT)]


def case_zz_enable_debug_mode(tf):
    """Last (cases run in name order): TF's debug mode stays on for the process (and breaks TF's Dataset.save)."""
    debug = tf.data.experimental.enable_debug_mode()
    seen = []
    mapped = tf.data.Dataset.range(3).map(lambda x: (seen.append(1), x + 1)[1])
    out = [int(x) for x in mapped]
    return [debug, out, len(seen) >= 3]


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}

# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason:
# every case here builds tf.data pipelines (whose functions tf.data traces itself), files or lookup tables, and
# calls TF ops only through Dataset and table methods, which the proxy does not reach.
_PIPELINE = "builds datasets and reads them through Dataset methods: no tf function to run inside tf.function"
TRACED_EXCLUDED = {
    "random_dataset": _PIPELINE, "random_dataset_global_seed": _PIPELINE, "parse_example_dataset": _PIPELINE,
    "parse_example_dataset_errors": _PIPELINE, "make_batched_features_dataset": _PIPELINE,
    "make_batched_features_dataset_readers": _PIPELINE, "make_batched_features_dataset_errors": _PIPELINE,
    "rejection_resample": _PIPELINE, "rejection_resample_errors": _PIPELINE,
    "tfrecord_writer": "writes files from datasets with TFRecordWriter's method",
    "tfrecord_writer_errors": "writes files from datasets with TFRecordWriter's method",
    "save_load": "saves datasets to files and loads them (Dataset methods)",
    "save_load_errors": "saves datasets to files and loads them (Dataset methods)",
    "snapshot": "snapshots a generator's dataset to files (Dataset methods)",
    "dataset_initializer": "fills lookup tables from datasets; lookups are table methods",
    "dataset_initializer_errors": "builds DatasetInitializers from datasets (Python objects)",
    "constants": "reads Python constants and enums", "zz_enable_debug_mode": "switches tf.data's debug mode",
}
# Documented divergences (docs/divergences.md) in those runs: {case: {path in its result: (placeflow's, reason)}}.
TRACED_DIVERGENT: dict = {}
