"""The TensorFlow-unit-test harness's own pieces (fast; the full run is `python -m tests.tf_unit.run`, see
RESULTS.md): source fetching and checking, import rewriting, the shim's name resolution, TF's combinations,
the outcome records and the tables."""

import pathlib
import sys
import unittest
import urllib.request

import pytest

from tests.tf_unit import outcomes, run, sources

HERE = pathlib.Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def tfshim():
    """The shim, imported as the child process imports it (`tensorflow` meaning placeflow)."""
    from placeflow.tools import as_tensorflow
    as_tensorflow.install()
    sys.path.insert(0, str(HERE))
    try:
        import tfshim as shim
        shim.install()
        yield shim
    finally:
        sys.path.remove(str(HERE))


def test_sources_are_checked_and_read_from_the_cache_first(tmp_path, monkeypatch):
    source = sources.Source("math", "tensorflow/python/ops/x_test.py", "ab" * 20, 5)
    monkeypatch.delenv("PLACEFLOW_TF_SOURCE_DIR", raising=False)
    target = sources.cached_path(source, tmp_path)
    target.parent.mkdir(parents=True)
    target.write_text("12345")
    assert sources.fetch(source, tmp_path) == target
    target.write_text("1234")
    with pytest.raises(RuntimeError, match="has 4 characters, expected 5"):
        sources.fetch(source, tmp_path)


def test_a_source_that_cannot_be_fetched_says_why(tmp_path, monkeypatch):
    def offline(url, timeout):
        raise OSError("network unreachable")
    monkeypatch.setattr(urllib.request, "urlopen", offline)
    monkeypatch.delenv("PLACEFLOW_TF_SOURCE_DIR", raising=False)
    source = sources.Source("math", "tensorflow/python/ops/y_test.py", "cd" * 20, 5)
    with pytest.raises(RuntimeError, match="cannot read tensorflow/python/ops/y_test.py@cdcdcdcdcdcd.*network "
                                           "unreachable"):
        sources.fetch(source, tmp_path)


def test_a_checkout_is_an_origin(tmp_path, monkeypatch):
    checkout = tmp_path / "tf"
    (checkout / "tensorflow").mkdir(parents=True)
    (checkout / "tensorflow" / "z_test.py").write_text("abc")
    monkeypatch.setenv("PLACEFLOW_TF_SOURCE_DIR", str(checkout))
    source = sources.Source("math", "tensorflow/z_test.py", "ef" * 20, 3)
    assert sources.fetch(source, tmp_path / "cache").read_text() == "abc"


def test_every_source_names_a_known_area_once():
    names = [s.name for s in sources.SOURCES]
    assert len(names) == len(set(names)) and set(sources.AREAS) == {s.area for s in sources.SOURCES}


def test_only_tensorflow_python_and_core_imports_are_rewritten():
    text = ("from tensorflow.python.ops import math_ops\nimport tensorflow.python.ops.nn_grad  # x\n"
            "  from tensorflow.python import pywrap_tfe\nx = 'tensorflow.python.ops'\nimport tensorflow as tf\n"
            "from tensorflow.core.protobuf import config_pb2\nfrom tensorflow.compiler import y\n")
    assert run.rewrite(text) == ("from tfshim.ops import math_ops\nimport tfshim.ops.nn_grad  # x\n"
                                 "  from tfshim import pywrap_tfe\nx = 'tensorflow.python.ops'\n"
                                 "import tensorflow as tf\nfrom tfshim.core.protobuf import config_pb2\nfrom tensorflow.compiler import y\n")


def test_tensorflow_core_modules_are_out_of_scope(tfshim):
    from tfshim import table
    config_pb2 = table.build("core.protobuf.config_pb2")
    with pytest.raises(tfshim.OutOfScope, match="protocol buffers"):
        config_pb2.ConfigProto()


def test_the_shim_resolves_internal_names_to_public_ones(tfshim):
    import placeflow as tf
    from tfshim import table
    math_ops = table.build("ops.math_ops")
    assert math_ops.cumsum is tf.math.cumsum and math_ops.floor_div is tf.math.floordiv
    missing = table.build("ops.math_ops").no_such_public_function
    with pytest.raises(tfshim.MissingPublicName, match="missing public name tf.math.no_such_public_function"):
        missing(1)
    private = math_ops._as_indexed_slices
    with pytest.raises(tfshim.OutOfScope, match="a private TensorFlow name"):
        private(1)
    with pytest.raises(tfshim.OutOfScope, match="C-API bindings"):
        int(table.build("pywrap_tfe").TF_ATTR_TYPE)
    with pytest.raises(ModuleNotFoundError, match="tensorflow.python.ops.unheard_of is not mapped"):
        table.build("ops.unheard_of")


def test_raw_op_modules_take_positional_arguments(tfshim):
    from tfshim import table
    gen_math_ops = table.build("ops.gen_math_ops")
    assert gen_math_ops.add(2, 3).numpy() == 5


def test_combinations_run_eager_tf2_and_report_the_rest_out_of_scope(tfshim):
    from absl.testing import parameterized
    from tfshim._impl import combinations

    cases = combinations.times(combinations.combine(tf_api_version=[1, 2], mode=["eager", "graph"]),
                               combinations.combine(count=[1, 2]))
    assert len(cases) == 8

    seen = []

    class Case(parameterized.TestCase):
        @combinations.generate(cases)
        def testIt(self, count):  # noqa: N802 - TF's naming
            seen.append(count)

    result = unittest.TextTestRunner(stream=open("/dev/null", "w")).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(Case))
    assert sorted(seen) == [1, 2] and result.testsRun == 8 and len(result.skipped) == 6
    assert all(reason.startswith("out of scope: ") for _, reason in result.skipped)


def test_reasons_group_failures():
    def record(outcome, kind="", message=""):
        return {"nodeid": "f.py::T::t", "outcome": outcome, "type": kind, "message": message}
    assert outcomes.reason(record("failed", "MissingPublicName", "missing public name tf.x.y (for ...)")) == \
        "missing public name tf.x.y"
    assert outcomes.reason(record("failed", "AttributeError", "'Variable' object has no attribute 'initializer'")) \
        == "missing attribute Variable.initializer"
    assert outcomes.reason(record("failed", "AssertionError", "\nNot equal to tolerance")) == "wrong value"
    assert outcomes.reason(record("failed", "AssertionError", "ValueError not raised")).startswith(
        "expected error not raised")
    assert outcomes.reason(record("out_of_scope", "", "TF1 graph mode")) == "out of scope: TF1 graph mode"


def test_one_record_per_test_keeps_the_worst_subtest():
    records = [{"nodeid": "a", "outcome": "passed"}, {"nodeid": "a", "outcome": "failed"},
               {"nodeid": "b", "outcome": "out_of_scope"}]
    assert sorted((r["nodeid"], r["outcome"]) for r in run.one_per_test(records)) == [("a", "failed"),
                                                                                      ("b", "out_of_scope")]


def test_the_table_counts_per_area_and_the_gap():
    ours = {"math": [{"nodeid": "a", "outcome": "passed"}, {"nodeid": "b", "outcome": "failed"},
                     {"nodeid": "c", "outcome": "out_of_scope"}]}
    theirs = {"math": [{"nodeid": "a", "outcome": "passed"}, {"nodeid": "b", "outcome": "passed"},
                       {"nodeid": "c", "outcome": "out_of_scope"}]}
    lines = outcomes.table(ours, theirs, ["math"]).splitlines()
    assert lines[1].split() == ["math", "1", "1", "0", "1", "0", "3", "2", "1"]
    assert lines[2].split()[0] == "all"


def test_the_plugin_counts_private_attributes_and_out_of_scope_errors_out_of_scope(tfshim):
    import tf_unit_plugin

    class Info:
        def __init__(self, value):
            self.value = value
    assert tf_unit_plugin._describe(Info(AttributeError("'Function' object has no attribute '_decorate'")))[0] \
        == "out_of_scope"
    try:
        try:
            raise tfshim.OutOfScope("graph internals")
        except tfshim.OutOfScope as inner:
            raise ValueError("wrapped") from inner
    except ValueError as error:
        assert tf_unit_plugin._describe(Info(error)) == ("out_of_scope", "OutOfScope", "graph internals")
    assert tf_unit_plugin._describe(Info(AttributeError("'X' object has no attribute 'y'")))[0] == "failed"


def test_the_plugin_counts_internal_modules_reached_by_path_out_of_scope(tfshim):
    import tf_unit_plugin

    class Info:
        def __init__(self, value):
            self.value = value
    patched = AttributeError("module 'placeflow.python' has no attribute 'platform'")
    assert tf_unit_plugin._describe(Info(patched)) == (
        "out_of_scope", "OutOfScope", "a TensorFlow internal module reached by its path (tensorflow.python.platform)")
    missing = ModuleNotFoundError("No module named 'tensorflow.python.platform'", name="tensorflow.python.platform")
    assert tf_unit_plugin._describe(Info(missing))[0] == "out_of_scope"
    assert tf_unit_plugin._describe(Info(ModuleNotFoundError("No module named 'scipy'", name="scipy")))[0] == "failed"


def test_test_session_fixture_methods_count_as_skipped_on_every_target():
    records = [{"nodeid": "f.py::T::test_session", "outcome": "passed", "type": "", "message": ""},
               {"nodeid": "f.py::T::testSession", "outcome": "failed", "type": "X", "message": "m"}]
    assert [r["outcome"] for r in outcomes.normalised(records)] == ["skipped", "failed"]
    assert records[0]["outcome"] == "passed"  # the records themselves are left as they were


def test_the_shim_maps_the_new_files_internal_names(tfshim):
    import placeflow as tf
    from tfshim import table
    array_ops, linalg_ops = table.build("ops.array_ops"), table.build("ops.linalg_ops")
    assert array_ops.where_v2 is tf.where and array_ops.matrix_band_part is tf.linalg.band_part
    assert linalg_ops.matrix_inverse is tf.linalg.inv
    checker = table.build("ops.gradient_checker_v2")
    assert checker.max_error([[1.0, 2.0]], [[1.5, 2.0]]) == 0.5
    from tfshim._impl import testutil
    product = testutil.matmul_without_tf32(tf.constant([[1.0, 2.0]]), tf.constant([[3.0], [4.0]]))
    assert product.dtype == tf.float32 and product.numpy().tolist() == [[11.0]]
