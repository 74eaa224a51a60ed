"""Cases for the misc-names additions, run by TensorFlow 2.21 (record_tf_misc_names.py) and placeflow
(test_misc_names.py): each `case_<name>(tf)` returns JSON-able results: values rounded, dtypes, shapes, attributes,
or [error class, first line]."""

import inspect
import math
import os
import tempfile
import unittest

import numpy as np

from tests.helpers import error  # the recorded [class, first line] of a raised error

RNG = np.random.RandomState(5)
IMG = RNG.randn(2, 5, 6, 3).astype(np.float32)
W2 = RNG.randn(2, 3, 3, 4).astype(np.float32)
VOL = RNG.randn(1, 4, 5, 4, 2).astype(np.float32)
W3 = RNG.randn(2, 2, 2, 2, 3).astype(np.float32)
GRAD_OUT = RNG.randn(2, 4, 4, 4).astype(np.float32)
QUANTIZED = ("qint8", "quint8", "qint16", "quint16", "qint32")
NARROW = ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2fnuz", "float4_e2m1fn",
          "int4", "uint4", "int2", "uint2")


def values(x, tol=None):
    """A tensor's values rounded to 6 decimals, with dtype and shape (and a looser tolerance where stated)."""
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    flat = [("inf" if v > 0 else "-inf") if isinstance(v, float) and math.isinf(v) else
            ("nan" if isinstance(v, float) and math.isnan(v) else v)
            for v in np.round(a.astype(np.float64), 6).reshape(-1).tolist()]
    dtype = getattr(x, "dtype", a.dtype)
    out = {"dtype": str(getattr(dtype, "name", dtype)), "shape": list(a.shape), "values": flat}
    return out if tol is None else dict(out, tol=tol)


def _dtype_facts(tf, d):
    return [str(d), d.name, d.as_datatype_enum, d.size, d.is_quantized, d.is_numpy_compatible, d.is_integer,
            d.is_floating, d.is_unsigned, d.is_bool, d.is_complex, tf.as_dtype(d.name) is d, d == d.name,
            error(lambda: d.min), error(lambda: d.max)]


# -- dtypes ----------------------------------------------------------------------------------------------------------


def case_quantized_dtypes(tf):
    out = []
    for name in QUANTIZED:
        d = getattr(tf, name)
        out.append(_dtype_facts(tf, d) + [getattr(tf.dtypes, name) is d, d in tf.dtypes.QUANTIZED_DTYPES,
                                          str(d.as_numpy_dtype), tf.as_dtype(d.as_numpy_dtype) is d])
    return out + [sorted(d.name for d in tf.dtypes.QUANTIZED_DTYPES if not d.name.endswith("_ref"))]


def case_handle_dtypes(tf):
    out = []
    for name in ("resource", "variant"):
        d = getattr(tf, name)
        out.append(_dtype_facts(tf, d) + [getattr(tf.dtypes, name) is d, error(lambda: tf.constant(1, d))])
    return out


def case_non_quantized_dtypes_say_so(tf):
    return [d.is_quantized for d in (tf.float32, tf.int8, tf.uint8, tf.bfloat16, tf.string, tf.bool)]


def case_experimental_dtypes(tf):
    return [_dtype_facts(tf, getattr(tf.experimental, name)) + [
        getattr(tf.experimental, name) is getattr(tf.dtypes.experimental, name)] for name in NARROW]


def case_dtypes_complex(tf):
    z = tf.dtypes.complex(tf.constant([1.0, 2.0]), tf.constant([3.0, -4.0]))
    return [tf.dtypes.complex is tf.complex, str(z.dtype.name), values(tf.math.real(z)), values(tf.math.imag(z))]


# -- tf.conv and the V2 backprops ------------------------------------------------------------------------------------


def case_conv(tf):
    return [values(tf.conv(IMG, W2, [1, 1, 1, 1], "VALID")),
            values(tf.conv(IMG, W2, [1, 2, 2, 1], "SAME")),
            values(tf.conv(IMG, W2, [1, 1, 1, 1], "VALID", dilations=[1, 2, 2, 1])),
            values(tf.conv(IMG, W2, [1, 1, 1, 1], "EXPLICIT", explicit_paddings=[0, 0, 1, 2, 0, 1, 0, 0])),
            values(tf.conv(VOL, W3, [1, 1, 2, 1, 1], "SAME"))]


def case_conv_errors(tf):
    return [error(lambda: tf.conv(IMG[0], W2[0], [1, 1, 1], "VALID")),
            error(lambda: tf.conv(IMG, W2[..., :2, :], [1, 1, 1, 1], "VALID")),
            error(lambda: tf.conv(IMG, W2, [1, 1, 1, 1], "FULL"))]


def _v2_or_v1(tf, name):
    """TF 2.21's CPU build has no Conv2DBackprop*V2 kernel (NotFoundError): its V1 ops give the same values."""
    if hasattr(tf, "__placeflow_version__"):
        return getattr(tf, name + "_v2")
    v1 = getattr(tf.compat.v1.nn, name)
    if name.endswith("filter"):
        return lambda x, w, g, strides, padding: v1(x, list(w.shape), g, strides, padding)
    return lambda x, w, g, strides, padding: v1(list(x.shape), w, g, strides, padding)


def case_conv2d_backprops_v2(tf):
    x, w = tf.constant(IMG[:, :4, :4, :]), tf.constant(W2)
    filt, inp = _v2_or_v1(tf, "conv2d_backprop_filter"), _v2_or_v1(tf, "conv2d_backprop_input")
    return [values(filt(x, w, GRAD_OUT, [1, 1, 1, 1], "SAME"), tol=1e-4),
            values(inp(x, w, GRAD_OUT, [1, 1, 1, 1], "SAME"), tol=1e-4),
            values(filt(x, w, GRAD_OUT[:, :2, :1], [1, 2, 2, 1], "VALID"), tol=1e-4),
            values(inp(x, w, GRAD_OUT[:, :2, :1], [1, 2, 2, 1], "VALID"), tol=1e-4)]


# -- tf.approx_top_k -------------------------------------------------------------------------------------------------


def case_approx_top_k(tf):
    rng = np.random.RandomState(124)  # its own draws: a case's values never depend on order
    x = tf.constant(rng.randn(3, 7).astype(np.float32))
    out = [tf.approx_top_k(x, 3), tf.approx_top_k(x, 2, reduction_dimension=-1)]
    return [[values(v), values(i)] for v, i in out] + [
        len(out[0]), error(lambda: tf.approx_top_k(tf.constant([[1.0, 2.0]], tf.float64), 1)),
        error(lambda: tf.approx_top_k(x, 2, reduction_dimension=0)),
        [values(t) for t in tf.approx_top_k(tf.constant([[3.0, 1.0, 2.0]], tf.float16), 2)]]


# -- tf.ragged_fill_empty_rows ---------------------------------------------------------------------------------------


def case_ragged_fill_empty_rows(tf):
    out = tf.ragged_fill_empty_rows(np.array([0, 0, 2, 4], np.int64), np.array([1.0, 2, 3, 4]), np.int64(6), 9.0)
    unsorted = tf.ragged_fill_empty_rows(np.array([2, 0], np.int64), np.array([1, 2], np.int32), np.int64(3),
                                         np.int32(7))
    full = tf.ragged_fill_empty_rows(np.array([0, 1], np.int64), np.array([5.0, 6.0]), np.int64(2), 0.0)
    return [[values(t) for t in out], [values(t) for t in unsorted], [values(t) for t in full], list(out._fields)]


def case_ragged_fill_empty_rows_errors(tf):
    return [error(lambda: tf.ragged_fill_empty_rows(np.array([0, 5], np.int64), np.array([1.0, 2]), np.int64(3), 9.0)),
            error(lambda: tf.ragged_fill_empty_rows(np.array([0, 1], np.int64), np.array([1.0]), np.int64(3), 9.0)),
            error(lambda: tf.ragged_fill_empty_rows(np.array([0, 1], np.int64), np.ones((2, 2)), np.int64(3), 9.0)),
            error(lambda: tf.ragged_fill_empty_rows(np.array([0, 1], np.int64), np.ones(2), np.int64(3), [9.0])),
            error(lambda: tf.ragged_fill_empty_rows(np.array([[0, 1]], np.int64), np.ones(2), np.int64(3), 9.0))]


def case_ragged_fill_empty_rows_grad(tf):
    out = tf.ragged_fill_empty_rows_grad(np.array([0, 1, 3, 5], np.int64), np.array([1.0, 2, 3, 4, 5, 6, 7]))
    values_, default = tf.constant([1.0, 2.0, 3.0]), tf.constant(4.0)
    with tf.GradientTape() as tape:
        tape.watch([values_, default])
        filled = tf.ragged_fill_empty_rows(np.array([1, 1, 3], np.int64), values_, np.int64(5), default)
        total = tf.reduce_sum(filled.output_values * tf.constant([1.0, 2, 3, 4, 5, 6]))
    return [[values(t) for t in out], list(out._fields), [values(g) for g in tape.gradient(total, [values_, default])]]


# -- tf.summary (what TF does without TensorBoard installed) ---------------------------------------------------------


def case_summary_errors(tf):
    logdir = tempfile.mkdtemp()
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default(step=1):
        return [error(lambda: tf.summary.trace_export("t", step=0)), error(lambda: tf.summary.graph(3)),
                error(lambda: tf.summary.experimental.write_raw_pb(b"\xff\xff", step=2)),
                error(lambda: tf.summary.trace_off())]


def case_summary_without_writer(tf):
    tf.summary.trace_on(graph=True)
    return [error(lambda: tf.summary.trace_export("t", step=0)), error(lambda: tf.summary.trace_export("t", step=0))]


# -- tf.test helpers -------------------------------------------------------------------------------------------------


class _Skips(unittest.TestCase):
    def test_kept(self):
        pass


def case_test_decorators(tf):
    class Case(unittest.TestCase):
        @tf.test.disable_with_predicate(lambda: True, "off here")
        def test_skipped(self):
            raise AssertionError("ran")

        @tf.test.disable_with_predicate(lambda: False, "never")
        def test_runs(self):
            self.ran = True

    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(Case).run(result)
    return [result.testsRun, [m for _, m in result.skipped], len(result.failures) + len(result.errors),
            tf.test.with_eager_op_as_function(_Skips) is _Skips, tf.test.with_eager_op_as_function(
                only_as_function=True)(_Skips) is _Skips, error(lambda: tf.test.assert_equal_graph_def(3, 3)),
            type(tf.test.benchmark_config()).__name__, tf.test.experimental.sync_devices()]


def case_benchmark_report(tf):
    class MyBench(tf.test.Benchmark):
        def benchmark_thing(self):
            self.report_benchmark(iters=3, wall_time=0.25, cpu_time=0.5, throughput=2.0, extras={"x": 1.5, "s": "a"})

    prefix = os.path.join(tempfile.mkdtemp(), "bench_")
    os.environ["TEST_REPORT_FILE_PREFIX"] = prefix
    try:
        MyBench().benchmark_thing()
        MyBench().report_benchmark(iters=1, wall_time=1.0, name="named/one", metrics=[{"name": "m", "value": 2.5}])
    finally:
        del os.environ["TEST_REPORT_FILE_PREFIX"]
    files = sorted(os.listdir(os.path.dirname(prefix)))
    return [files] + [open(os.path.join(os.path.dirname(prefix), f), "rb").read().hex() for f in files] + [
        tf.test.Benchmark.is_abstract(), MyBench.is_abstract()]


# -- tf.types.experimental -------------------------------------------------------------------------------------------


def case_function_types(tf):
    te = tf.types.experimental
    f = tf.function(lambda x, y=2: x + y)
    cf = f.get_concrete_function(tf.TensorSpec([2], tf.float32), 1)
    return [isinstance(f, te.Callable), isinstance(cf, te.Callable), isinstance(cf, te.AtomicFunction),
            isinstance(cf.function_type, te.FunctionType), issubclass(te.FunctionType, inspect.Signature),
            issubclass(te.AtomicFunction, te.Callable), list(f.function_type.parameters),
            sorted(te.TraceType.__abstractmethods__), sorted(te.Callable.__abstractmethods__),
            isinstance(3, te.SupportsTracingProtocol), isinstance(tf.constant(1.0), te.Callable),
            error(lambda: te.TraceType())]


def case_tensor_like(tf):
    import typing
    members = typing.get_args(tf.types.experimental.TensorLike)
    return [[t.__name__ for t in members if t.__module__ in ("builtins", "numpy")],
            isinstance(np.float32(1), members), isinstance(object(), members)]


def case_distributed_types(tf):
    te = tf.types.experimental
    with tf.distribute.MirroredStrategy(["/cpu:0"]).scope():
        v = tf.Variable(1.0)
    return [isinstance(v, te.distributed.Mirrored), isinstance(v, te.distributed.PerReplica),
            isinstance(tf.constant(1.0), te.distributed.Mirrored), issubclass(te.distributed.Mirrored, object)]


# -- tf.saved_model --------------------------------------------------------------------------------------------------


def case_saved_model_names(tf):
    sm = tf.saved_model
    policy = sm.experimental.VariablePolicy
    fp = sm.experimental.Fingerprint(1, 2, 3, 4, 5)
    parsed = sm.experimental.Fingerprint.from_proto(b"\x08\x05\x10\x06\x32\x02\x08\x01")
    asset = sm.Asset(os.path.join("some", "file.txt"))
    return [[p.name for p in policy], [p.value for p in policy], policy.from_obj(None).name,
            policy.from_obj("SAVE_VARIABLE_DEVICES").name, policy.from_obj(policy.EXPAND_DISTRIBUTED_VARIABLES).name,
            error(lambda: policy.from_obj("bad")), fp.singleprint(), repr(fp), fp == sm.experimental.Fingerprint(
                1, 2, 3, 4, 5), fp == sm.experimental.Fingerprint(1, 2, 3, 4, 6),
            [parsed.saved_model_checksum, parsed.graph_def_program_hash, parsed.signature_def_hash],
            asset.asset_path.numpy().decode(), asset.asset_path.dtype.name, error(lambda: sm.Asset(3)),
            error(lambda: sm.experimental.read_fingerprint(tempfile.mkdtemp()))]


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}

# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason.
TRACED_EXCLUDED = {"benchmark_report": "writes report files with tf.test.Benchmark (no op); TF serializes their "
                                       "extras map in an order that varies by process"}
# Documented divergences (docs/divergences.md) in those runs: {case: {path in its result: (placeflow's, reason)}}.
TRACED_DIVERGENT: dict = {}
