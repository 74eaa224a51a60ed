"""placeflow's type specs, gradient registry, conversion functions and debugging switches equal TensorFlow 2.21's
recorded results (cases.py, record_tf_specs_misc.py): floats within 1e-5, everything else exactly, errors by class.
The tests below the recorded cases check what the recording cannot: refusals by name and placeflow's own limits."""

import json
import math
import pathlib

import pytest

import placeflow as tf
from tests.specs_misc.cases import CASES, TRACED_DIVERGENT, TRACED_EXCLUDED
from tests.traced_api import traced_tests

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["cases"]


def _same(ours, theirs, where="result"):
    if isinstance(theirs, float) and not isinstance(ours, str):
        assert isinstance(ours, (int, float)) and math.isclose(ours, theirs, rel_tol=1e-5, abs_tol=1e-5), \
            f"{where}: {ours} != {theirs}"
    elif isinstance(theirs, list) and len(theirs) == 2 and isinstance(theirs[0], str) and theirs[0].endswith(
            ("Error", "Exception")):
        assert isinstance(ours, list) and ours[0] == theirs[0], f"{where}: raised {ours}, TensorFlow {theirs}"
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{where}: {ours} != {theirs}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _same(a, b, f"{where}[{i}]")
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(ours) == sorted(theirs), f"{where}: {ours} != {theirs}"
        for key in theirs:
            _same(ours[key], theirs[key], f"{where}.{key}")
    else:
        assert ours == theirs, f"{where}: {ours} != {theirs}"


def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(name):
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)


test_every_case_was_recorded_in_a_function, test_case_in_a_function_equals_tensorflow = traced_tests(
    __file__, CASES, TRACED_EXCLUDED, TRACED_DIVERGENT, _same)


def test_value_types_are_placeflows_classes():
    assert tf.data.DatasetSpec(tf.TensorSpec([])).value_type is tf.data.Dataset
    assert tf.OptionalSpec(tf.TensorSpec([])).value_type is tf.experimental.Optional
    assert tf.NoneTensorSpec().value_type is type(None)
    assert tf.RaggedTensorSpec([None, 2], ragged_rank=0).value_type is tf.Tensor
    assert isinstance(iter(tf.data.Dataset.range(1)), tf.data.IteratorSpec(tf.TensorSpec([])).value_type)


def test_values_match_the_specs_of_their_kind_in_functions_and_signatures():
    ragged = tf.ragged.constant([[1.], [2., 3.]])
    assert tf.type_spec_from_value(ragged).is_compatible_with(ragged)
    seen = []

    @tf.function
    def inside(x):
        seen.append(tf.type_spec_from_value(x))
        return x * 2.
    inside(tf.constant([1., 2.]))
    assert seen == [tf.TensorSpec([2], tf.float32)]
    with pytest.raises(NotImplementedError, match="RaggedTensorSpec"):  # signatures of TensorSpecs only
        tf.function(lambda x: x, input_signature=[tf.RaggedTensorSpec([None, None])])


def test_placeflow_refuses_what_it_does_not_implement_by_name():
    with pytest.raises(NotImplementedError, match="VariableSpec"):
        tf.type_spec_from_value(tf.Variable(1.))
    with pytest.raises(NotImplementedError, match="stack_height_limit"):
        tf.debugging.enable_check_numerics(stack_height_limit=5)

    @tf.function
    def loop(x):
        tf.autograph.experimental.set_loop_options(maximum_iterations=2)
        return x
    with pytest.raises(NotImplementedError, match="maximum_iterations"):
        loop(tf.constant(1.))


def test_specs_reject_values_tensorflow_lets_through():
    with pytest.raises(ValueError, match="ragged_rank"):
        tf.RaggedTensorSpec([None, None], ragged_rank=-1)
    with pytest.raises(ValueError, match="row_splits_dtype"):
        tf.RaggedTensorSpec([None, None], row_splits_dtype=tf.float32)
    with pytest.raises(TypeError, match="element_spec"):
        tf.OptionalSpec(5)
    with pytest.raises(TypeError, match="element_spec"):
        tf.data.DatasetSpec([tf.TensorSpec([]), 3])
    with pytest.raises(TypeError, match="callable"):
        tf.recompute_grad(5)
    assert tf.TensorArraySpec([2]).most_specific_common_supertype([tf.TensorArraySpec([3])]) == \
        tf.TensorArraySpec([None])


def test_registered_gradients_are_kept_by_op_type():
    from placeflow.api.gradient_registry import registered_gradient

    def grad(op, g):
        return g
    tf.RegisterGradient("SpecsMiscKept")(grad)
    tf.no_gradient("SpecsMiscNone")
    assert registered_gradient("SpecsMiscKept") is grad and registered_gradient("SpecsMiscNone") is None
    with pytest.raises(LookupError, match="SpecsMiscNever"):
        registered_gradient("SpecsMiscNever")


def test_check_numerics_reports_the_op_and_turns_off():
    tf.debugging.enable_check_numerics()
    try:
        with pytest.raises(tf.errors.InvalidArgumentError, match='op "Log".*\n(.*\n)*.*# of -Inf elements: 1'):
            tf.math.log(tf.constant([0., 1.]))
    finally:
        tf.debugging.disable_check_numerics()
    from placeflow.eager import execute
    assert execute.numerics_check is None


def test_recompute_grad_recomputes_the_forward_pass():
    calls = []

    def body(t):
        calls.append(1)
        return tf.sin(t) * t
    x = tf.constant([1., 2.])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(body)(x)
    assert len(calls) == 1
    tape.gradient(y, x)
    assert len(calls) == 2


def test_op_determinism_makes_unseeded_random_ops_raise_as_tensorflow():
    """TF 2.21's texts (recorded by hand): unseeded ops and a non-deterministic generator raise RuntimeError;
    op-seeded and stateless ops run; set_seed lifts it. The switch belongs to the Context (reset per test)."""
    tf.random.set_seed(None)  # an earlier test's global seed would seed these draws
    tf.config.experimental.enable_op_determinism()
    for draw in (lambda: tf.random.uniform([2]), lambda: tf.random.shuffle([1, 2, 3]),
                 lambda: tf.nn.dropout(tf.ones([3]), 0.5)):
        with pytest.raises(RuntimeError, match="Random ops require a seed to be set when determinism is enabled"):
            draw()
    with pytest.raises(RuntimeError, match="from_non_deterministic_state"):
        tf.random.Generator.from_non_deterministic_state()
    assert tf.random.normal([2], seed=3).shape == (2,)
    assert tf.random.stateless_uniform([2], [1, 2]).shape == (2,)
    tf.random.set_seed(1)
    assert tf.random.uniform([1]).shape == (1,)
    tf.random.set_seed(None)


def test_check_numerics_refuses_graph_steps_rather_than_skip_them():
    f = tf.function(lambda x: tf.math.log(x))
    tf.debugging.enable_check_numerics()
    try:
        with pytest.raises(NotImplementedError, match="covers eager ops only"):
            f(tf.constant([0.0]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Detected Infinity or NaN"):
            tf.math.log(tf.constant([0.0]))
    finally:
        tf.debugging.disable_check_numerics()
    assert f(tf.constant([1.0])).numpy().tolist() == [0.0]


def test_specs_placeflow_cannot_trace_or_stream_are_refused_by_name():
    spec = tf.RaggedTensorSpec([None, None], tf.int32)
    with pytest.raises(NotImplementedError, match="RaggedTensorSpec"):
        tf.function(lambda x: x, input_signature=[spec])
    with pytest.raises(NotImplementedError, match="SparseTensorSpec"):
        tf.data.Dataset.from_generator(lambda: iter([]), output_signature=tf.SparseTensorSpec([None], tf.int32))


def test_compat_v1_enable_eager_execution_applies_its_device_policy():
    """TF1's enable_eager_execution(device_policy=DEVICE_PLACEMENT_EXPLICIT (0)) was accepted and ignored."""
    tf.compat.v1.enable_eager_execution(device_policy=0)
    assert tf.config.experimental.get_device_policy() == "explicit"
    tf.compat.v1.enable_eager_execution(device_policy="silent")
    assert tf.config.experimental.get_device_policy() == "silent"
    with pytest.raises(NotImplementedError, match="execution_mode"):
        tf.compat.v1.enable_eager_execution(execution_mode=1)
