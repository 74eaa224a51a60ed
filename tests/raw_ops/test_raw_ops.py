"""placeflow's tf.raw_ops equal TensorFlow 2.21's recorded results (cases.py, record_tf_raw_ops.py): floats within
1e-5, dtypes, shapes and output structure (TF's namedtuple type names and fields) exactly, errors by class. Also:
every op placeflow registers that TF 2.21 lists under tf.raw_ops exists with exactly TF's parameters and defaults
(tests/api/tf_2_21_api.json), and a sample of each family runs inside placeflow.function."""

import ast
import inspect
import json
import math
import pathlib

import numpy as np
import pytest

import placeflow as tf
from placeflow.ops.registry import registered_ops
from tests.raw_ops.cases import C23, EXAMPLES, X23, cases, describe, run, run_case

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["cases"]
API = json.loads((pathlib.Path(__file__).parents[1] / "api" / "tf_2_21_api.json").read_text())["names"]
TF_RAW_OPS = {name[len("tf.raw_ops."):]: entry["signature"] for name, entry in API.items()
              if name.startswith("tf.raw_ops.")}
LISTED = sorted(op for op in registered_ops() if op in TF_RAW_OPS)


def _same(ours, theirs, where, tol=1e-5):
    if isinstance(theirs, float) and not isinstance(ours, str):
        assert isinstance(ours, (int, float)) and math.isclose(ours, theirs, rel_tol=tol, abs_tol=tol), \
            f"{where}: {ours} != {theirs}"
    elif isinstance(theirs, list) and len(theirs) == 2 and isinstance(theirs[0], str) and theirs[0].endswith(
            ("Error", "Exception")):
        assert isinstance(ours, list) and ours[0] == theirs[0], f"{where}: raised {ours}, TensorFlow {theirs}"
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{where}: {ours} != {theirs}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _same(a, b, f"{where}[{i}]", tol)
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(ours) == sorted(theirs), f"{where}: {ours} != {theirs}"
        for key in theirs:
            _same(ours[key], theirs[key], f"{where}.{key}", tol)
    else:
        assert ours == theirs, f"{where}: {ours} != {theirs}"


def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(cases())


@pytest.mark.parametrize("key", sorted(cases()))
def test_case_equals_tensorflow(key):
    _same(json.loads(json.dumps(run_case(tf, key))), RECORDED[key], key)


def _tf_parameters(signature: str) -> list:
    """[(name, default source or None)] of a recorded TF signature string."""
    args = ast.parse(f"def f{signature}: pass").body[0].args
    offset = len(args.args) - len(args.defaults)
    return [(arg.arg, ast.unparse(args.defaults[i - offset]) if i >= offset else None)
            for i, arg in enumerate(args.args)]


def _default_source(value) -> str:
    if value is inspect.Parameter.empty:
        return None
    if isinstance(value, tf.DType):
        return f"tf.{value.name}"
    return repr(list(value) if isinstance(value, tuple) else value)


def _normalized(source):
    return source if source is None or source.startswith("tf.") else repr(ast.literal_eval(source))


def test_the_registered_ops_tf_lists_are_many():
    assert len(LISTED) >= 330


@pytest.mark.parametrize("op", LISTED)
def test_every_registered_op_tf_lists_has_tfs_parameters(op):
    fn = getattr(tf.raw_ops, op)
    parameters = inspect.signature(fn).parameters.values()
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters), f"{op} takes positional arguments"
    ours = [(p.name, _default_source(p.default)) for p in parameters]
    theirs = [(name, _normalized(default)) for name, default in _tf_parameters(TF_RAW_OPS[op])]
    assert ours == theirs
    assert fn.__doc__ and fn.__name__ == op


# Ops checked by the tests below rather than by recorded examples (they need a variable, a table or callables).
CHECKED_BELOW = {"AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp", "ReadVariableOp",
                 "ResourceApplyGradientDescent", "VarHandleOp", "LookupTableFindV2", "LookupTableInsertV2",
                 "LookupTableRemoveV2", "LookupTableSizeV2", "LookupTableExportV2", "If", "While", "EagerPyFunc",
                 "PyFunc", "PyFuncStateless", "CollectiveReduceV2", "StatelessShuffle", "FFTND", "IFFTND", "RFFTND",
                 "IRFFTND"}


def test_every_registered_op_tf_lists_is_exercised():
    assert [op for op in LISTED if op not in EXAMPLES and op not in CHECKED_BELOW] == []


def test_raw_ops_take_keywords_only():
    with pytest.raises(TypeError):
        tf.raw_ops.BitwiseAnd(np.int32(1), np.int32(2))
    with pytest.raises(TypeError, match="missing|unexpected"):
        tf.raw_ops.Zeta(x=1.0, y=2.0)
    with pytest.raises(TypeError, match="unexpected"):
        tf.raw_ops.Erf(x=1.0, y=2.0)


def test_an_unknown_raw_op_names_the_ones_placeflow_has():
    with pytest.raises(AttributeError, match="no raw op of that name"):
        tf.raw_ops.NoSuchOp  # noqa: B018


@pytest.mark.parametrize("op", ["Erf", "BitwiseXor", "Igamma", "UnsortedSegmentMax", "MatrixSolve", "Svd", "FFT",
                                "Conv2D", "AvgPoolGrad", "MaxPoolWithArgmax", "BiasAddGrad", "CTCGreedyDecoder",
                                "StatelessRandomUniformV2", "RandomStandardNormal", "StringToHashBucketFast",
                                "UnicodeDecodeWithOffsets", "StridedSlice", "Unique", "UniqueV2", "Split",
                                "ReverseSequence"])
def test_raw_ops_run_inside_a_function(op):
    kwargs = EXAMPLES[op][0](tf)
    keep = op != "RandomStandardNormal"   # a seeded stateful draw: a graph's stream starts anew, eager's continues
    eager = run(tf, op, kwargs, keep_values=keep)
    inside = describe(tf.function(lambda: getattr(tf.raw_ops, op)(**kwargs))(), keep_values=keep)
    _same(json.loads(json.dumps(inside)), json.loads(json.dumps(eager)), op)


@pytest.mark.parametrize("op, kwargs, expected", [
    ("FFTND", {"input": C23, "fft_length": [2, 3], "axes": [0, 1]}, np.fft.fftn(C23)),
    ("IFFTND", {"input": C23, "fft_length": [2, 3], "axes": [0, 1]}, np.fft.ifftn(C23)),
    ("RFFTND", {"input": X23, "fft_length": [2, 4], "axes": [0, 1]}, np.fft.rfftn(X23, [2, 4], axes=[0, 1])),
    ("IRFFTND", {"input": C23, "fft_length": [2, 4], "axes": [0, 1]}, np.fft.irfftn(C23, [2, 4], axes=[0, 1])),
])
def test_nd_transforms_equal_numpys(op, kwargs, expected):
    """TF 2.21 has these ops' kernels on GPU only (on CPU: NotFoundError); placeflow computes them anywhere."""
    np.testing.assert_allclose(getattr(tf.raw_ops, op)(**kwargs).numpy(), expected, rtol=1e-5, atol=1e-5)


def test_encoded_images_decode_to_the_image():
    image = np.arange(48, dtype=np.uint8).reshape(4, 4, 3)
    assert tf.io.decode_png(tf.raw_ops.EncodePng(image=image)).numpy().tolist() == image.tolist()
    for encoded in (tf.raw_ops.EncodeJpeg(image=image, quality=100),
                    tf.raw_ops.EncodeJpegVariableQuality(images=image, quality=np.int32(100))):
        decoded = tf.io.decode_jpeg(encoded).numpy().astype(int)
        assert decoded.shape == (4, 4, 3) and np.abs(decoded - image).max() <= 8


def test_gradients_flow_through_raw_ops():
    x = tf.constant([[0.5, -1.0], [2.0, 0.25]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.raw_ops.Erf(x=x) * tf.raw_ops.MatrixBandPart(input=x, num_lower=0, num_upper=-1))
    expected = 2 / np.sqrt(np.pi) * np.exp(-x.numpy() ** 2) * np.triu(x.numpy()) + np.triu(
        np.vectorize(math.erf)(x.numpy()))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), expected, rtol=1e-5)


def test_resource_ops_take_the_variable_itself():
    v = tf.Variable([1.0, 2.0])
    assert tf.raw_ops.AssignAddVariableOp(resource=v, value=[1.0, 1.0]) is None
    tf.raw_ops.ResourceApplyGradientDescent(var=v, alpha=0.5, delta=[2.0, 2.0])
    np.testing.assert_allclose(tf.raw_ops.ReadVariableOp(resource=v, dtype=tf.float32).numpy(), [1.0, 2.0])
    tf.raw_ops.AssignVariableOp(resource=v, value=[5.0, 6.0])
    tf.raw_ops.AssignSubVariableOp(resource=v, value=[1.0, 1.0])
    np.testing.assert_allclose(v.numpy(), [4.0, 5.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="wrong dtype"):
        tf.raw_ops.ReadVariableOp(resource=v, dtype=tf.float64)
    with pytest.raises(TypeError, match="Variable"):
        tf.raw_ops.ReadVariableOp(resource=tf.constant(1.0), dtype=tf.float32)
    with pytest.raises(NotImplementedError, match="validate_shape"):
        tf.raw_ops.AssignVariableOp(resource=v, value=[1.0, 2.0, 3.0])


def test_placeholders_in_a_tf1_graph():
    with tf.Graph().as_default():
        x = tf.raw_ops.Placeholder(dtype=tf.float32, shape=[2])
        y = tf.raw_ops.PlaceholderWithDefault(input=np.array([1.0, 2.0], np.float32), shape=[2])
        with tf.compat.v1.Session() as session:
            assert session.run(x * 2, feed_dict={x: [1.0, 3.0]}).tolist() == [2.0, 6.0]
            assert session.run(y).tolist() == [1.0, 2.0]
            assert session.run(y, feed_dict={y: [5.0, 6.0]}).tolist() == [5.0, 6.0]


def test_lookup_table_ops_take_the_table():
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=-1)
    tf.raw_ops.LookupTableInsertV2(table_handle=table, keys=["a", "b"], values=np.array([1, 2], np.int64))
    found = tf.raw_ops.LookupTableFindV2(table_handle=table, keys=["b", "z"], default_value=np.int64(-1))
    assert found.numpy().tolist() == [2, -1]
    tf.raw_ops.LookupTableRemoveV2(table_handle=table, keys=["a"])
    assert int(tf.raw_ops.LookupTableSizeV2(table_handle=table)) == 1
    exported = tf.raw_ops.LookupTableExportV2(table_handle=table, Tkeys=tf.string, Tvalues=tf.int64)
    assert type(exported).__name__ == "LookupTableExportV2" and exported.keys.numpy().tolist() == [b"b"]
    with pytest.raises(NotImplementedError, match="default_value"):
        tf.raw_ops.LookupTableFindV2(table_handle=table, keys=["b"], default_value=np.int64(7))


def test_control_flow_ops_take_callables():
    assert tf.raw_ops.If(cond=True, input=[tf.constant(2.0)], Tout=[tf.float32], then_branch=lambda x: x * 3,
                         else_branch=lambda x: x)[0].numpy() == 6.0
    out = tf.raw_ops.While(input=[tf.constant(0), tf.constant(1)], cond=lambda i, x: i < 4,
                           body=lambda i, x: (i + 1, x * 2))
    assert [int(t) for t in out] == [4, 16]


def test_seeded_stateful_draws_repeat_and_continue():
    first = tf.raw_ops.RandomShuffle(value=np.arange(10), seed=5, seed2=6).numpy()
    assert sorted(first.tolist()) == list(range(10))
    a = tf.raw_ops.RandomGamma(shape=[50], alpha=np.float32(2.0), seed=11, seed2=12).numpy()
    assert a.shape == (50,) and (a > 0).all() and 1.0 < a.mean() < 3.0


@pytest.mark.parametrize("op, kwargs, argument", [
    ("MaxPool", {"input": np.zeros((1, 2, 2, 1), np.float32), "ksize": [1, 1, 1, 1], "strides": [1, 1, 1, 1],
                 "padding": "EXPLICIT", "explicit_paddings": [0, 0, 1, 1, 1, 1, 0, 0]}, "padding"),
    ("Conv2DBackpropFilter", {"input": np.zeros((1, 2, 2, 1), np.float32), "filter_sizes": [1, 1, 1, 1],
                              "out_backprop": np.zeros((1, 2, 2, 1), np.float32), "strides": [1, 1, 1, 1],
                              "padding": "VALID", "dilations": [1, 2, 2, 1]}, "dilations"),
    ("AvgPoolGrad", {"orig_input_shape": [1, 1, 2, 2], "grad": np.zeros((1, 1, 1, 1), np.float32),
                     "ksize": [1, 1, 2, 2], "strides": [1, 1, 2, 2], "padding": "VALID", "data_format": "NCHW"},
     "data_format"),
    ("StatelessRandomUniformV2", {"shape": [2], "key": np.array([1], np.uint64), "counter": np.array([0, 0], np.uint64),
                                  "alg": 2}, "alg"),
    ("StatelessShuffle", {"value": np.arange(3), "key": np.array([1], np.uint64),
                          "counter": np.array([0, 0], np.uint64), "alg": 1}, "key"),
    ("PrintV2", {"input": "x", "output_stream": "log(info)"}, "output_stream"),
    ("EagerPyFunc", {"input": [1.0], "token": "pyfunc_0", "Tout": [tf.float32]}, "token"),
    ("PyFunc", {"input": [1.0], "token": "pyfunc_0", "Tout": [tf.float32]}, "token"),
    ("PyFuncStateless", {"input": [1.0], "token": "pyfunc_0", "Tout": [tf.float32]}, "token"),
    ("Conv2DBackpropInput", {"input_sizes": [1, 2, 2, 1], "filter": np.zeros((1, 1, 1, 1), np.float32),
                             "out_backprop": np.zeros((1, 2, 2, 1), np.float32), "strides": [1, 1, 1, 1],
                             "padding": "EXPLICIT", "explicit_paddings": [0] * 8}, "padding"),
    ("TensorScatterMax", {"tensor": np.zeros(2, np.float32), "indices": [[5]], "updates": [1.0],
                          "bad_indices_policy": "IGNORE"}, "bad_indices_policy"),
    ("VarHandleOp", {"dtype": tf.float32, "shape": [2]}, "VarHandleOp"),
    ("CollectiveReduceV2", {"input": 1.0, "group_size": 1, "group_key": 1, "instance_key": 1, "ordering_token": [],
                            "merge_op": "Add", "final_op": "Id"}, "CollectiveReduceV2"),
])
def test_unsupported_arguments_are_refused_by_name(op, kwargs, argument):
    with pytest.raises(NotImplementedError, match=argument):
        getattr(tf.raw_ops, op)(**kwargs)
