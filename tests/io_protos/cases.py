"""Cases for tf.io's protocol buffers (io-protos), run by TensorFlow 2.21 (record_tf_io_protos.py) and placeflow
(test_io_protos.py): each `case_<name>(tf)` returns JSON-able results: bytes as hex, tensors as values, dtypes
and shapes, SparseTensors as their parts, or [error class, first line]. Hex constants below were written by
TensorFlow (TF_*) or by placeflow (OURS_*): each side parses the other's bytes."""

import os
import tempfile

import numpy as np

from tests.helpers import error  # the recorded [class, first line] of a raised error


def values(x):
    """A tensor's (or array's) values (floats rounded to 6 decimals, bytes as text), with dtype and shape."""
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if a.dtype == object or a.dtype.kind in "SU":
        flat = [v.decode("latin-1") if isinstance(v, bytes) else str(v) for v in a.reshape(-1).tolist()]
    elif a.dtype.kind == "c":
        flat = [[round(v.real, 6), round(v.imag, 6)] for v in a.reshape(-1).tolist()]
    else:
        flat = np.round(a.astype(np.float64), 6).reshape(-1).tolist()
    dtype = getattr(x, "dtype", a.dtype)
    return {"dtype": str(getattr(dtype, "name", dtype)), "shape": list(a.shape), "values": flat}


def describe(x):
    """JSON-able form of a parsed output: tensors, SparseTensors, RaggedTensors, dicts and tuples of them."""
    if isinstance(x, dict):
        return {k: describe(v) for k, v in sorted(x.items())}
    if isinstance(x, (tuple, list)):
        return [describe(v) for v in x]
    if hasattr(x, "dense_shape"):
        return {"indices": values(x.indices), "values": values(x.values), "dense_shape": values(x.dense_shape)}
    if hasattr(x, "row_splits"):
        return {"flat_values": values(x.values), "row_splits": values(x.row_splits)}
    return values(x)


def _feature(tf, kind, *items):
    lists = {"i": ("int64_list", tf.train.Int64List), "f": ("float_list", tf.train.FloatList),
             "b": ("bytes_list", tf.train.BytesList)}
    field, cls = lists[kind]
    return tf.train.Feature(**{field: cls(value=list(items))})


def _example(tf, **features):
    return tf.train.Example(features=tf.train.Features(feature={
        k: _feature(tf, kind, *items) for k, (kind, items) in features.items()})).SerializeToString()


def _sequence(tf, context, lists):
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={k: _feature(tf, kind, *v) for k, (kind, v) in context.items()}),
        feature_lists=tf.train.FeatureLists(feature_list={
            k: tf.train.FeatureList(feature=[_feature(tf, kind, *step) for step in steps])
            for k, (kind, steps) in lists.items()})).SerializeToString()


def _records(tf):
    a = _sequence(tf, {"c": ("i", [1]), "name": ("b", [b"x"])},
                  {"f": ("f", [[1.0, 2.0], [3.0, 4.0]]), "v": ("i", [[1, 2], [3]])})
    b = _sequence(tf, {"c": ("i", [2])}, {"f": ("f", [[5.0, 6.0]]), "v": ("i", [[], [], [4]])})
    return a, b, _sequence(tf, {}, {})


# -- make_tensor_proto / make_ndarray ------------------------------------------------------------------------------

def case_make_tensor_proto_bytes(tf):
    inputs = [1.0, [1.0, 2.0], np.arange(6, dtype=np.int32).reshape(2, 3), [b"a", b"bc"], b"x", "\u00e9", True,
              [True, False], np.zeros((0, 3), np.float32), 7, -3, [-1, 2], np.int64(5), 3000000000,
              np.array([1, 2], np.uint8), np.array([1.5], np.float16), np.array([1.5, -2], np.float16),
              np.array([1 + 2j, 3j], np.complex64), np.array([1j], np.complex128), np.array([7, 9], np.uint16),
              np.array([2 ** 40, 3], np.uint64), np.array([1], np.uint32), np.array([1.25, 2.5]), np.array([4.5]),
              np.array([-1, 5], np.int8), np.array([[]], np.int64)]
    return [tf.make_tensor_proto(x).SerializeToString().hex() for x in inputs]


def case_make_tensor_proto_dtype_and_shape(tf):
    return [tf.make_tensor_proto(3.0, shape=[2, 2]).SerializeToString().hex(),
            tf.make_tensor_proto([1, 2], dtype=tf.float32).SerializeToString().hex(),
            tf.make_tensor_proto([1, 2], dtype=tf.int64, shape=[3]).SerializeToString().hex(),
            tf.make_tensor_proto([], dtype=tf.int64, shape=[3]).SerializeToString().hex(),
            tf.make_tensor_proto(np.array([[1, 2], [3, 4]], np.float32), shape=[4]).SerializeToString().hex(),
            tf.make_tensor_proto(np.array([1, 2], np.int64), dtype=tf.int32).SerializeToString().hex(),
            tf.make_tensor_proto([[1, 2], [3, 4]], shape=[2, 2], verify_shape=True).SerializeToString().hex(),
            tf.make_tensor_proto(tf.constant([1.5, 2.5])).SerializeToString().hex(),
            tf.make_tensor_proto(np.ones(2), dtype=tf.bfloat16).SerializeToString().hex(),
            tf.make_tensor_proto(np.ones(1), dtype=tf.bfloat16).SerializeToString().hex()]


def case_make_tensor_proto_errors(tf):
    return [error(lambda: tf.make_tensor_proto([1, 2, 3], shape=[2])),
            error(lambda: tf.make_tensor_proto([1.5], dtype=tf.int32)),
            error(lambda: tf.make_tensor_proto([1, 2, 3, 4], shape=[4, 1], verify_shape=True)),
            error(lambda: tf.make_tensor_proto(None)),
            error(lambda: tf.make_tensor_proto({"a": 1})),
            error(lambda: tf.make_tensor_proto([1, 2], dtype=tf.string)),
            error(lambda: tf.make_tensor_proto(["a"], dtype=tf.int32)),
            error(lambda: tf.make_ndarray(5))]


TF_PROTOS = ["080112002a040000803f", "0803120812020802120208032218000000000100000002000000030000000400000005000000",
             "080712041202080242016142026263", "080a1204120208025a020100", "08011206120012020803",
             "08131204120208016a02807c", "08081204120208024a100000803f000000400000000000004040",
             "0801120812020802120208022a0400004040", "080912041202080352020102",
             "08031204120208013a0affffffffffffffffff01",
             "080e1204120208022204803f803f"]


def case_make_ndarray_of_tensorflow_bytes(tf):
    proto_class = type(tf.make_tensor_proto(0))
    out = []
    for data in TF_PROTOS:
        proto = proto_class.FromString(bytes.fromhex(data))
        out.append([values(tf.make_ndarray(proto)), proto.SerializeToString().hex(), proto.dtype,
                    [d.size for d in proto.tensor_shape.dim]])
    return out


def case_make_ndarray_round_trip(tf):
    arrays = [np.arange(6.0, dtype=np.float32).reshape(3, 2), np.array([b"a", b"\xff"], object), np.array(True),
              np.array([[1, -2]], np.int16), np.array([2.5, 3.5], np.float64)]
    return [values(tf.make_ndarray(tf.make_tensor_proto(a))) for a in arrays]


# -- SparseTensor serialization ------------------------------------------------------------------------------------

def case_serialize_sparse(tf):
    st = tf.sparse.SparseTensor([[0, 1], [2, 0]], [1.5, 2.5], [3, 4])
    many = tf.sparse.SparseTensor([[0, 1], [0, 3], [2, 0]], [1, 2, 3], [3, 4])
    strings = tf.sparse.SparseTensor([[1], [0], [3]], ["hi", "", "abc"], [4])
    return [[v.hex() for v in tf.io.serialize_sparse(st).numpy()],
            [[v.hex() for v in row] for row in tf.io.serialize_many_sparse(many).numpy()],
            [v.hex() for v in tf.io.serialize_sparse(strings).numpy()],
            describe(tf.io.deserialize_many_sparse(tf.io.serialize_sparse(strings), tf.string)),
            values(tf.io.serialize_sparse(st).shape)]


def case_deserialize_many_sparse(tf):
    st = tf.sparse.SparseTensor([[0, 1], [2, 0]], [1.5, 2.5], [3, 4])
    other = tf.sparse.SparseTensor([[1, 5]], [9.0], [2, 6])
    many = tf.io.serialize_many_sparse(tf.sparse.SparseTensor([[0, 1], [0, 3], [2, 0]], [1, 2, 3], [3, 4]))
    one, two = tf.io.serialize_sparse(st), tf.io.serialize_sparse(other)
    return [describe(tf.io.deserialize_many_sparse(many, tf.int32)),
            describe(tf.io.deserialize_many_sparse(tf.stack([one, two]), tf.float32)),
            describe(tf.io.deserialize_many_sparse(one, tf.float32)),
            describe(tf.io.deserialize_many_sparse(tf.stack([one, two, one]), tf.float32, rank=3))]


def case_sparse_serialization_errors(tf):
    many = tf.io.serialize_many_sparse(tf.sparse.SparseTensor([[0, 1]], [1], [3, 4]))
    rank1 = tf.sparse.SparseTensor(np.zeros((0, 1), np.int64), tf.constant([], tf.float32), [3])
    mixed = tf.stack([tf.io.serialize_sparse(rank1), tf.io.serialize_sparse(tf.sparse.SparseTensor([[0, 0]], [1.0],
                                                                                                 [1, 1]))])
    return [error(lambda: tf.io.deserialize_many_sparse(many, tf.float32)),
            error(lambda: tf.io.serialize_many_sparse(rank1)),
            error(lambda: tf.io.deserialize_many_sparse(mixed, tf.float32)),
            error(lambda: tf.io.deserialize_many_sparse(tf.constant([["a", "b"]]), tf.float32))]


# -- decode_json_example -------------------------------------------------------------------------------------------

JSON = ('{"features": {"feature": {"a": {"int64List": {"value": ["1", "2", -3]}}, '
        '"b": {"floatList": {"value": [1.5, "NaN", 2]}}, "c": {"bytesList": {"value": ["aGk=", ""]}}}}}')


def case_decode_json_example(tf):
    out = tf.io.decode_json_example([JSON, '{"features": {"feature": {"x": {"int64_list": {"value": [4]}}}}}'])
    single = tf.io.decode_json_example('{"features": {"feature": {"e": {"floatList": {}}}}}')
    empty = tf.io.decode_json_example(["{}", '{"features": {}}'])
    parsed = tf.io.parse_example(out, {"a": tf.io.VarLenFeature(tf.int64), "x": tf.io.VarLenFeature(tf.int64)})
    return [[v.hex() for v in out.numpy()], single.numpy().hex(), [v.hex() for v in empty.numpy()],
            values(tf.io.decode_json_example([[JSON], [JSON]]).shape), describe(parsed)]


def case_decode_json_example_edges(tf):
    texts = ['{"features": {"feature": {"z": {"int64List": {"value": [1]}}, "a": {"int64List": {"value": [2]}}, '
             '"m": {}}}}',
             '{"features": {"feature": {"a": {"int64List": {"value": [1]}}}}, "features": {"feature": {"b": {}}}}',
             '{"features": {"feature": {"a": {"int64List": {"value": [1.0, "9223372036854775807"]}}}}}',
             '{"features": {"feature": {"a": {"bytesList": {"value": ["_-8", "aGk"]}}}}}',
             '{"features": null}', '{"features": {"feature": {"a": null}}}',
             '{"features": {"feature": {"a": {"floatList": {"value": ["Infinity", "-Infinity", -0.0, "2.5"]}}}}}']
    return [tf.io.decode_json_example(text).numpy().hex() for text in texts]


def case_decode_json_example_errors(tf):
    bad = ['{"features": 3}', "nope", '{"featurez": {}}', '{"features": {"feature": {"a": {"int64List": '
           '{"value": ["x"]}}}}}', '{"features": {"feature": {"a": {"int64List": {"value": [1]}, "floatList": {}}}}}',
           '{"features": {"feature": {"a": {"floatList": {"value": [1e40]}}}}}', "[1]",
           '{"features": {"feature": {"a": {"int64List": {"value": [1.5]}}}}}']
    return [error(lambda text=text: tf.io.decode_json_example(text)) for text in bad]


# -- matching_files and match_filenames_once -----------------------------------------------------------------------

def case_matching_files(tf):
    folder = tempfile.mkdtemp()
    for name in ["b.txt", "a.txt", "c.csv", "d.txt.gz"]:
        with open(os.path.join(folder, name), "w"):
            pass
    strip = lambda t: [os.path.basename(p.decode()) for p in t.numpy()]  # noqa: E731
    found = tf.io.matching_files(os.path.join(folder, "*.txt"))
    many = tf.io.matching_files([os.path.join(folder, "*.csv"), os.path.join(folder, "?.txt*")])
    none = tf.io.matching_files(os.path.join(folder, "*.zzz"))
    once = tf.io.match_filenames_once(os.path.join(folder, "*.txt"))
    return [strip(found), found.dtype.name, strip(many), values(none), strip(once), once.trainable,
            type(once).__name__.endswith("Variable"),
            error(lambda: tf.io.matching_files([[os.path.join(folder, "*")]]))]


# -- ClusterDef, JobDef, ServerDef ---------------------------------------------------------------------------------

TF_CLUSTER = ("0a160a027073120708031203643a34120708001203633a330a1a0a06776f726b6572120708011203623a3212070800120361"
              "3a31")
OURS_SERVER = ("0a340a160a027073120708001203633a33120708031203643a340a1a0a06776f726b6572120708001203613a311207080112"
               "03623a321206776f726b657218012a0467727063300540ffffffffffffffffff01")


def _jobs(cluster_def):
    return [[job.name, sorted([k, v] for k, v in job.tasks.items())] for job in cluster_def.job]


def case_cluster_def(tf):
    spec = tf.train.ClusterSpec({"worker": ["a:1"], "chief": {0: "c:3"}})
    job = tf.train.JobDef(name="w", tasks={0: "x:1"})
    server = tf.train.ServerDef(cluster=spec.as_cluster_def(), job_name="worker", task_index=1, protocol="grpc",
                                port=5, replica=-1)
    from_tf = tf.train.ClusterDef.FromString(bytes.fromhex(TF_CLUSTER))
    ours = tf.train.ServerDef.FromString(bytes.fromhex(OURS_SERVER))
    return [spec.as_cluster_def().SerializeToString().hex(), job.SerializeToString().hex(),
            server.SerializeToString().hex(), _jobs(from_tf), tf.train.ClusterSpec(from_tf).as_dict()["worker"],
            _jobs(ours.cluster), [ours.job_name, ours.task_index, ours.protocol, ours.port, ours.replica],
            tf.train.ServerDef().SerializeToString().hex(),
            tf.train.ClusterSpec({}).as_cluster_def().SerializeToString().hex(),
            tf.train.JobDef.FromString(job.SerializeToString()) == job]


def case_cluster_def_errors(tf):
    return [error(lambda: tf.train.JobDef(nome="x")), error(lambda: tf.train.JobDef(name=3)),
            error(lambda: tf.train.ServerDef(task_index="1"))]


# -- SequenceExample messages --------------------------------------------------------------------------------------

TF_SEQUENCE = ("0a1d0a0c0a036c656e12051a030a01030a0d0a046e616d6512050a030a017812410a230a0166121e0a08"
               "12060a040000c03f0a08"
               "12060a04000020400a0812060a04000060400a1a0a03746f6b12130a061a040a0201020a051a030a01030a021a00")


def _content(feature):
    kind = feature.WhichOneof("kind")
    items = getattr(feature, kind).value if kind else []
    return [kind, [v.decode("latin-1") if isinstance(v, bytes) else v for v in items]]


def _canonical(tf, data):
    """A SequenceExample's content, maps by key (TensorFlow writes map entries in no fixed order)."""
    example = tf.train.SequenceExample.FromString(data)
    return [sorted([k, _content(f)] for k, f in example.context.feature.items()),
            sorted([k, [_content(f) for f in fl.feature]] for k, fl in example.feature_lists.feature_list.items())]


def case_sequence_example_bytes(tf):
    a, b, empty = _records(tf)
    only_lists = tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(feature_list={
        "a": tf.train.FeatureList(feature=[tf.train.Feature(), _feature(tf, "b", b"q")])}))
    one_each = _sequence(tf, {"c": ("f", [0.5])}, {"s": ("b", [[b"x"], [], [b"y", b"z"]])})
    return [_canonical(tf, a), _canonical(tf, b), empty.hex(), only_lists.SerializeToString().hex(), one_each.hex(),
            _canonical(tf, one_each), tf.train.FeatureList().SerializeToString().hex()]


def case_sequence_example_from_tensorflow_bytes(tf):
    example = tf.train.SequenceExample.FromString(bytes.fromhex(TF_SEQUENCE))
    lists = example.feature_lists.feature_list
    return [sorted(example.context.feature), list(example.context.feature["len"].int64_list.value),
            sorted(lists), [list(f.int64_list.value) for f in lists["tok"].feature],
            [f.WhichOneof("kind") for f in lists["tok"].feature],
            [list(f.float_list.value) for f in lists["f"].feature],
            _canonical(tf, example.SerializeToString())]


# -- parse_sequence_example / parse_single_sequence_example --------------------------------------------------------

def case_parse_sequence_example(tf):
    a, b, empty = _records(tf)
    out = tf.io.parse_sequence_example(
        [a, b], context_features={"c": tf.io.FixedLenFeature([], tf.int64), "name": tf.io.VarLenFeature(tf.string)},
        sequence_features={"f": tf.io.FixedLenSequenceFeature([2], tf.float32), "v": tf.io.VarLenFeature(tf.int64)})
    missing = tf.io.parse_sequence_example(
        [a, empty], sequence_features={"f": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True)})
    return [describe(out), describe(missing)]


def case_parse_single_sequence_example(tf):
    a, b, empty = _records(tf)
    out = tf.io.parse_single_sequence_example(
        a, context_features={"c": tf.io.FixedLenFeature([], tf.int64), "name": tf.io.VarLenFeature(tf.string)},
        sequence_features={"f": tf.io.FixedLenSequenceFeature([2], tf.float32), "v": tf.io.VarLenFeature(tf.int64)})
    ragged = tf.io.parse_single_sequence_example(b, context_features={"c": tf.io.RaggedFeature(tf.int64)},
                                                 sequence_features={"v": tf.io.RaggedFeature(tf.int64)})
    nothing = tf.io.parse_single_sequence_example(
        empty, sequence_features={"f": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
                                  "v": tf.io.VarLenFeature(tf.int64)})
    from_tf = tf.io.parse_single_sequence_example(bytes.fromhex(TF_SEQUENCE),
                                                  sequence_features={"tok": tf.io.VarLenFeature(tf.int64)})
    return [describe(out), describe(ragged), describe(nothing), describe(from_tf)]


def case_parse_sequence_example_errors(tf):
    a, b, empty = _records(tf)
    fixed = tf.io.FixedLenSequenceFeature
    return [error(lambda: tf.io.parse_sequence_example([a, empty], sequence_features={"f": fixed([2], tf.float32)})),
            error(lambda: tf.io.parse_sequence_example([a], sequence_features={"f": fixed([3], tf.float32)})),
            error(lambda: tf.io.parse_sequence_example([a], sequence_features={"f": fixed([2], tf.int64)})),
            error(lambda: tf.io.parse_sequence_example(
                [a], sequence_features={"f": fixed([2], tf.float32, allow_missing=True, default_value=-1.0)})),
            error(lambda: tf.io.parse_single_sequence_example(b, sequence_features={
                "v": tf.io.FixedLenFeature([], tf.int64)})),
            error(lambda: tf.io.parse_single_sequence_example(b, context_features={"c": fixed([], tf.int64)})),
            error(lambda: tf.io.parse_single_sequence_example(b, context_features={
                "c": tf.io.SparseFeature("c", "c", tf.int64, 3)})),
            error(lambda: tf.io.parse_single_sequence_example(b)),
            error(lambda: tf.io.parse_sequence_example([a, b])),
            error(lambda: tf.io.parse_single_sequence_example(b"\xff\xff", sequence_features={
                "v": tf.io.VarLenFeature(tf.int64)})),
            error(lambda: tf.io.parse_single_sequence_example(a, context_features={
                "c": tf.io.FixedLenFeature([], tf.float32)}))]


# -- the new feature kinds in parse_example / parse_single_example -------------------------------------------------

def _plain(tf):
    return [_example(tf, ix=("i", [3, 0]), v=("f", [2.5, 1.5]), r=("i", [1, 2, 3]), s=("f", [1, 2, 3, 4]),
                     w=("b", [b"p"])),
            _example(tf, ix=("i", [2]), v=("f", [7]), r=("i", []), s=("f", [5, 6]), w=("b", [b"q", b"rs"]))]


def case_parse_example_new_kinds(tf):
    recs = _plain(tf)
    out = tf.io.parse_example(recs, {
        "sp": tf.io.SparseFeature("ix", "v", tf.float32, 5), "r": tf.io.RaggedFeature(tf.int64),
        "s": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
        "d": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True, default_value=-1.0),
        "q": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True),
        "w": tf.io.RaggedFeature(tf.string), "ws": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True),
        "fixed": tf.io.FixedLenFeature([], tf.int64, default_value=9), "var": tf.io.VarLenFeature(tf.float32)})
    sorted_as_given = tf.io.parse_example(recs, {"sp": tf.io.SparseFeature(["ix"], "v", tf.float32, [5],
                                                                           already_sorted=True)})
    wide = tf.io.parse_example(recs, {"r64": tf.io.RaggedFeature(tf.int64, value_key="r", row_splits_dtype=tf.int64)})
    return [describe(out), describe(sorted_as_given), describe(wide)]


def case_parse_single_example_new_kinds(tf):
    recs = _plain(tf)
    out = tf.io.parse_single_example(recs[0], {
        "sp": tf.io.SparseFeature("ix", "v", tf.float32, 5), "r": tf.io.RaggedFeature(tf.int64),
        "s": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
        "w": tf.io.VarLenFeature(tf.string)})
    empty = tf.io.parse_single_example(recs[1], {"r": tf.io.RaggedFeature(tf.int64),
                                                 "s": tf.io.FixedLenSequenceFeature([1], tf.float32,
                                                                                    allow_missing=True)})
    return [describe(out), describe(empty)]


def case_parse_example_new_kinds_errors(tf):
    recs = _plain(tf)
    return [error(lambda: tf.io.parse_example(recs, {"s": tf.io.FixedLenSequenceFeature([2], tf.float32)})),
            error(lambda: tf.io.parse_example(recs, {"r": tf.io.FixedLenSequenceFeature([2], tf.int64,
                                                                                        allow_missing=True)})),
            error(lambda: tf.io.parse_example(recs, {"r": tf.io.RaggedFeature(tf.float32)})),
            error(lambda: tf.io.parse_example(recs, {"sp": tf.io.SparseFeature("v", "v", tf.float32, 5)})),
            error(lambda: tf.io.parse_example(recs[:1], {"sp": tf.io.SparseFeature("ix", "r", tf.int64, 5)})),
            error(lambda: tf.io.parse_single_example(recs[0], {"sp": tf.io.SparseFeature("ix", "r", tf.int64, 5)})),
            error(lambda: tf.io.parse_example(recs, {"a": tf.io.FixedLenFeature([], tf.float32),
                                                     "b": tf.io.RaggedFeature(tf.float32, value_key="a")})),
            error(lambda: tf.io.parse_example(recs, {"v": tf.io.VarLenFeature(tf.float32),
                                                     "b": tf.io.RaggedFeature(tf.float32, value_key="v")})),
            error(lambda: tf.io.parse_example(recs, {
                "ix": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True),
                "sp": tf.io.SparseFeature("ix", "v", tf.float32, 5)}))]


def case_feature_kinds(tf):
    return [list(tf.io.FixedLenSequenceFeature([2], tf.float32)[2:]), tf.io.SparseFeature("a", "b", tf.float32, 3)[4],
            list(tf.io.RaggedFeature._fields), tf.io.RaggedFeature(tf.int64).row_splits_dtype.name,
            tf.io.RaggedFeature(tf.int64).value_key]


CASES = {name[5:]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}

# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason.
TRACED_EXCLUDED: dict = {}
# Divergences in those runs: {case: {path in its result: (placeflow's, reason)}}.
_PARSE = ("placeflow parses Examples on the host, eagerly (tf.data's map does): tf.io.parse_* inside a function is "
          "refused by name (NotImplementedError, api/example_proto.py); TF parses in the graph")
_REFUSED = (["NotImplementedError", ""], _PARSE)
TRACED_DIVERGENT = {
    **{name: {(): _REFUSED} for name in ("decode_json_example", "parse_example_new_kinds", "parse_sequence_example",
                                         "parse_single_example_new_kinds", "parse_single_sequence_example")},
    "parse_example_new_kinds_errors": {(i,): _REFUSED for i in range(9)},
    "parse_sequence_example_errors": {(i,): _REFUSED for i in range(11)},
}
