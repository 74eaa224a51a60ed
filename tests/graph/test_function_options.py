"""function's options: input_signature and reduce_retracing work as in TensorFlow 2.21; the rest is refused."""

import numpy as np
import pytest

import placeflow as tf


def test_input_signature_traces_once_for_every_matching_shape(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def f(x):
        return tf.reduce_sum(x, axis=1) * 2.0

    assert f(tf.ones([3, 2])).numpy().tolist() == [4.0] * 3
    assert f(np.ones([5, 2], np.float32)).numpy().tolist() == [4.0] * 5
    assert f([[1.0, 2.0]]).numpy().tolist() == [6.0]  # Python values take the spec's dtype, as in TF
    assert f.experimental_get_tracing_count() == 1
    output = f.get_concrete_function().structured_outputs
    assert tuple(output.shape) == (None,) and f.get_concrete_function().graph.get_operations()[0].name == "x"


@pytest.mark.parametrize("call, text", [
    (lambda f: f(tf.ones([3, 3])), r"Can not cast TensorSpec\(shape=\(3, 3\), dtype=tf.float32, name=None\) to "
                                   r"TensorSpec\(shape=\(None, 2\), dtype=tf.float32, name=None\)"),
    (lambda f: f(tf.ones([3, 2], tf.float64)), r"Can not cast TensorSpec\(shape=\(3, 2\), dtype=tf.float64"),
    (lambda f: f(tf.ones([3, 2]), tf.ones([1])), "too many positional arguments"),
])
def test_input_signature_mismatches_raise_tensorflows_type_error(call, text):
    f = tf.function(lambda x: x, input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    with pytest.raises(TypeError, match=f"Binding inputs to tf.function failed due to `{text}"):
        call(f)


def test_reduce_retracing_generalizes_shapes_after_the_second_trace():
    @tf.function(reduce_retracing=True)
    def double(x):
        return x * 2.0

    for n in range(1, 6):
        assert double(tf.ones([n])).numpy().tolist() == [2.0] * n
    assert double.experimental_get_tracing_count() == 2  # TF 2.21: the exact shape, then shape (None,)

    @tf.function
    def plain(x):
        return x * 2.0

    for n in range(1, 6):
        plain(tf.ones([n]))
    assert plain.experimental_get_tracing_count() == 5


@pytest.mark.parametrize("option", [{"experimental_implements": "name"}, {"experimental_follow_type_hints": True}])
def test_unimplemented_options_are_refused(option):
    with pytest.raises(NotImplementedError, match="placeflow.function does not implement"):
        tf.function(lambda x: x, **option)


def test_jit_compile_runs_as_a_plain_function_and_says_so_once(caplog, monkeypatch):
    from placeflow.graph import function as function_module
    monkeypatch.setattr(function_module, "_no_xla_logged", [])
    with caplog.at_level("WARNING", logger="placeflow"):
        compiled = tf.function(lambda x: x * 2.0 + 1.0, jit_compile=True)
        also = tf.function(lambda x: x - 1.0, experimental_compile=True)
        assert compiled(tf.constant([1.0, 2.0])).numpy().tolist() == [3.0, 5.0]
        assert also(tf.constant(1.0)).numpy() == 0.0
    messages = [r.getMessage() for r in caplog.records if "jit_compile=True" in r.getMessage()]
    assert len(messages) == 1 and "placeflow has no XLA" in messages[0]


def test_tensor_spec_prints_and_checks_like_tensorflow():
    assert repr(tf.TensorSpec([None, 2])) == "TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)"
    assert repr(tf.TensorSpec([], tf.int32, name="n")) == "TensorSpec(shape=(), dtype=tf.int32, name='n')"
    assert tf.TensorSpec([None, 2]).is_compatible_with(tf.ones([7, 2]))
    assert not tf.TensorSpec([None, 2]).is_compatible_with(tf.ones([7]))
    with pytest.raises(TypeError, match="TensorSpec dimensions must be non-negative ints or None"):
        tf.TensorSpec([1.5])
    with pytest.raises(TypeError, match="input_signature must be a list of placeflow.TensorSpec"):
        tf.function(lambda x: x, input_signature=[[2, 2]])


def test_get_concrete_function_takes_tensor_specs_and_checks_its_calls(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")

    @tf.function
    def f(x, scale=2.0):
        return x * scale

    concrete = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    assert concrete.structured_input_signature == ((tf.TensorSpec([None], tf.float32, "x"),), {})
    assert concrete(tf.constant([1.0, 2.0, 3.0])).numpy().tolist() == [2.0, 4.0, 6.0]
    assert concrete([1.5]).numpy().tolist() == [3.0]  # Python values take the traced dtype
    with pytest.raises(TypeError, match=r"can not cast TensorSpec\(shape=\(1, 1\)"):
        concrete(tf.constant([[1.0]]))
    assert f.get_concrete_function(tf.TensorSpec([None], tf.float32)) is concrete  # same spec: same trace
    assert f.experimental_get_tracing_count() == 1


def test_synchronous_execution_is_stored_and_ops_finish_before_returning(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    assert tf.config.experimental.get_synchronous_execution() is True
    tf.config.experimental.set_synchronous_execution(False)
    assert tf.config.experimental.get_synchronous_execution() is False
    with pytest.raises(tf.errors.InvalidArgumentError):  # raised at the op, a valid asynchronous schedule
        tf.reshape(tf.ones([3]), [2])
    with pytest.raises(TypeError, match="expects a bool"):
        tf.config.experimental.set_synchronous_execution("yes")
