"""placeflow's tf.experimental extension types, dispatch, execution switches and ragged shapes equal TensorFlow
2.21's recorded results (cases.py, record_tf_extension_types.py): floats within 1e-5, everything else exactly;
errors by class (and by first line where recorded). Below them, what the recording cannot show: refusals by
name, where placeflow chose not to copy TensorFlow, and that plain tensors skip dispatch."""

import json
import math
import pathlib
import typing

import pytest

import placeflow as tf
from tests.extension_types.cases import CASES, TRACED_DIVERGENT, TRACED_EXCLUDED, masked, params
from tests.traced_api import traced_tests

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["cases"]


def _same(ours, theirs, where="result"):
    if isinstance(theirs, float) and not isinstance(ours, str):
        assert isinstance(ours, (int, float)) and math.isclose(ours, theirs, rel_tol=1e-5, abs_tol=1e-5), \
            f"{where}: {ours} != {theirs}"
    elif isinstance(theirs, list) and len(theirs) == 2 and isinstance(theirs[0], str) and theirs[0].endswith(
            ("Error", "Exception")):
        assert isinstance(ours, list) and ours[0] == theirs[0], f"{where}: raised {ours}, TensorFlow {theirs}"
        if theirs[1]:
            assert ours[1].startswith(theirs[1]), f"{where}: message {ours[1]!r}, TensorFlow {theirs[1]!r}"
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{where}: {ours} != {theirs}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _same(a, b, f"{where}[{i}]")
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(ours) == sorted(theirs), f"{where}: {ours} != {theirs}"
        for key in theirs:
            _same(ours[key], theirs[key], f"{where}.{key}")
    else:
        assert ours == theirs, f"{where}: {ours!r} != {theirs!r}"


def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(name):
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)


test_every_case_was_recorded_in_a_function, test_case_in_a_function_equals_tensorflow = traced_tests(
    __file__, CASES, TRACED_EXCLUDED, TRACED_DIVERGENT, _same)


# -- beyond the recording ------------------------------------------------------------------------------------------

def test_equality_of_values_without_tensors_is_a_true_tensor():
    """TF 2.21 raises InvalidArgumentError (reduce_all over an empty float stack) for P(3) == P(3): not copied."""
    params_class = params(tf)
    same = params_class(3) == params_class(3)
    assert same.dtype == tf.bool and bool(same.numpy()) and not bool((params_class(3) != params_class(3)).numpy())


def test_assert_handlers_unregister():
    """TF 2.21's unregister_dispatch_for raises KeyError for a binary assert handler: placeflow unregisters it."""
    mt_class = masked(tf)
    m = mt_class([1.0], [True])

    @tf.experimental.dispatch_for_binary_elementwise_assert_apis(mt_class, mt_class)
    def asserts(assert_func, x, y):
        return "handled"
    assert tf.debugging.assert_equal(m, m) == "handled"
    tf.experimental.unregister_dispatch_for(asserts)
    with pytest.raises(ValueError, match="unsupported type"):
        tf.debugging.assert_equal(m, m)


def test_dispatch_puts_the_original_function_back():
    mt_class = masked(tf)
    original_add, original_math_add = tf.add, tf.math.add

    @tf.experimental.dispatch_for_api(tf.math.add, {"x": mt_class})
    def add(x, y, name=None):
        return "dispatched"
    try:
        assert tf.math.add is not original_math_add and tf.add is tf.math.add
        assert tf.add(mt_class([1.0], [True]), 2.0) == "dispatched"
        assert float(tf.add(tf.constant(1.0), 2.0)) == 3.0  # plain tensors go straight to the function
    finally:
        tf.experimental.unregister_dispatch_for(add)
    assert tf.add is original_add and tf.math.add is original_math_add


def test_dispatch_inside_a_traced_function():
    mt_class = masked(tf)

    @tf.experimental.dispatch_for_unary_elementwise_apis(mt_class)
    def unary(api_func, x):
        return mt_class(api_func(x.values), x.mask)

    try:
        out = tf.function(lambda v: tf.math.abs(v))(mt_class([-1.0, 2.0], [True, False]))
    finally:
        tf.experimental.unregister_dispatch_for(unary)
    assert out.values.numpy().tolist() == [1.0, 2.0] and out.mask.numpy().tolist() == [True, False]


def test_extension_types_in_a_tf1_session():
    mt_class = masked(tf)
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2])
        total = tf.math.reduce_sum(mt_class(x, [True, False]).values * 2)
        with tf.compat.v1.Session() as session:
            assert session.run(total, {x: [1.0, 2.0]}) == 6.0


def test_spec_fields_and_nested_spec_class():
    class Point(tf.experimental.ExtensionType):
        x: tf.Tensor
        label: str = "p"

        class Spec:
            def describe(self):
                return f"{self.label}: {self.x.dtype.name}"

    spec = Point(1.0)._type_spec
    assert isinstance(spec, Point.Spec) and isinstance(spec, tf.experimental.ExtensionTypeSpec)
    assert spec.describe() == "p: float32" and Point.Spec.from_value(Point(2.0)) == spec
    with pytest.raises(AttributeError, match="Cannot mutate"):
        spec.label = "q"


def test_refused_by_name():
    with pytest.raises(NotImplementedError, match="function_executor_type\\('SINGLE_THREADED_EXECUTOR'\\)"):
        with tf.experimental.function_executor_type("SINGLE_THREADED_EXECUTOR"):
            pass
    with pytest.raises(NotImplementedError, match="ragged dimension after a uniform inner one"):
        tf.experimental.DynamicRaggedShape.from_lengths([2, 3, (1, 1, 1, 1, 1, 1)])
    with pytest.raises(NotImplementedError, match="tf.experimental.StructuredTensor"):
        tf.experimental.StructuredTensor()


def test_string_annotations_resolve_in_the_module():
    lazy = type("Lazy", (tf.experimental.ExtensionType,), {"__annotations__": {"x": "tf.Tensor", "n": "int"},
                                                         "__module__": __name__})
    assert lazy([1.0], 2).x.dtype == tf.float32
    with pytest.raises(TypeError, match="could not be resolved"):
        type("Lost", (tf.experimental.ExtensionType,), {"__annotations__": {"x": "Nowhere"}, "__module__": __name__})


def test_strict_mode_names_are_the_deprecated_ones_placeflow_has():
    from placeflow.api.experimental_more import DEPRECATED_APIS, strict_mode_names
    names = strict_mode_names()
    assert "math.accumulate_n" in names and "config.experimental.get_memory_usage" in names
    assert set(names) <= set(DEPRECATED_APIS)


def test_batchable_extension_type_is_an_extension_type():
    class Batchable(tf.experimental.BatchableExtensionType):
        values: tf.Tensor

    value = Batchable([1, 2])
    assert isinstance(value, tf.experimental.ExtensionType)
    assert [t.numpy().tolist() for t in tf.nest.flatten(value, expand_composites=True)] == [[1, 2]]


def test_an_input_signature_of_extension_type_specs_is_refused_by_name():
    mt_class = masked(tf)
    spec = mt_class.Spec(tf.TensorSpec([None]), tf.TensorSpec([None], tf.bool))
    with pytest.raises(NotImplementedError, match="MaskedTensor.Spec"):
        tf.function(lambda x: x.values * 2, input_signature=[spec])(mt_class([1.0, 2.0], [True, False]))


def test_gradients_flow_through_fields():
    mt_class = masked(tf)
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(mt_class(x * 3.0, [True, False]).values)
    assert tape.gradient(total, x).numpy().tolist() == [3.0, 3.0]


def test_subclasses_keep_defaults_and_custom_constructors():
    class Base(tf.experimental.ExtensionType):
        x: tf.Tensor
        scale: float = 2.0

    class Child(Base):
        label: str = "c"

    class Custom(tf.experimental.ExtensionType):
        x: tf.Tensor

        def __init__(self, v):
            self.x = tf.constant(v) + 1

    class CustomChild(Custom):
        pass

    child = Child([1.0])
    assert (child.scale, child.label) == (2.0, "c")
    assert repr(child).endswith("scale=2.0, label='c')")
    assert int(CustomChild(1).x) == 2


def test_ragged_and_sparse_fields():
    class Holder(tf.experimental.ExtensionType):
        rows: tf.RaggedTensor
        sparse: typing.Optional[tf.SparseTensor] = None

    rows = tf.ragged.constant([[1, 2], [3]])
    sparse = tf.SparseTensor([[0, 1]], [5.0], [2, 2])
    held = Holder(rows, sparse)
    assert isinstance(held._type_spec.rows, tf.RaggedTensorSpec) and held.sparse is sparse
    assert bool((held == Holder(rows, sparse)).numpy())
    assert not bool((held == Holder(tf.ragged.constant([[1, 2], [4]]), sparse)).numpy())
    with pytest.raises(TypeError, match="rows: expected 'RaggedTensor', got 'list'"):
        Holder([[1, 2], [3]])


def test_type_spec_from_value_and_datasets_of_extension_types():
    class Masked(tf.experimental.ExtensionType):
        values: tf.Tensor

    value = Masked(tf.constant([1.0, 2.0]))
    assert tf.type_spec_from_value(value) == value._type_spec  # as TF
    with pytest.raises(NotImplementedError, match="dataset of Masked values"):
        tf.data.Dataset.from_tensors(value)
