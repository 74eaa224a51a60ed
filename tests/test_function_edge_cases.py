"""`function` edge cases TensorFlow 2.21 handles (values and error classes checked against it): variables created
on a call other than the first, initial values computed from the inputs, TensorSpec(shape=None), tensors used
outside the loop body that made them, methods held weakly, tapes reading TF1 graph variables, and AutoGraph's
conversion of the functions a traced function calls."""

import functools
import gc
import weakref

import numpy as np
import pytest

import placeflow as tf
from placeflow.graph.function import InaccessibleTensorError


# -- variables ---------------------------------------------------------------------------------------------------

def test_a_variable_created_on_every_call_is_refused():
    @tf.function
    def fn(x):
        return tf.Variable(1.0) + x

    with pytest.raises(ValueError, match="only supports singleton Variables created on the first call"):
        fn(1.0)


def test_a_variable_created_on_every_call_is_refused_when_kept_in_a_list():
    state = []

    @tf.function
    def fn(x):
        state.append(tf.Variable(1.0))
        return state[-1] + x

    with pytest.raises(ValueError, match="singleton"):
        fn(1.0)


def test_an_initial_value_computed_from_the_input_initializes_on_the_first_call_only():
    state = []

    @tf.function
    def fn(x):
        if not state:
            state.append(tf.Variable(2.0 * x))
        return state[0] * x

    assert fn(tf.constant(1.0)).numpy() == 2.0
    assert fn.experimental_get_tracing_count() == 2   # TF: the creating trace, then the one calls run
    assert fn(tf.constant(3.0)).numpy() == 6.0        # initialized once, with the first call's input
    assert state[0].numpy() == 2.0
    assert fn(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]


def test_an_in_graph_initializer_runs_once_before_the_updates_of_the_first_call():
    state = []

    @tf.function
    def fn(x):
        if not state:
            state.append(tf.Variable(x * 2))
        state[0].assign_add(x)
        return state[0].read_value()

    assert fn(tf.constant([1.0, 2.0])).numpy().tolist() == [3.0, 6.0]
    assert fn(tf.constant([1.0, 2.0])).numpy().tolist() == [4.0, 8.0]


def test_a_constant_initial_value_is_created_with_its_value():
    state = []

    @tf.function
    def fn(x):
        if not state:
            state.append(tf.Variable(tf.zeros([2]) + 1.0))
        return state[0] * x

    assert fn(tf.constant(2.0)).numpy().tolist() == [2.0, 2.0]
    assert state[0].numpy().tolist() == [1.0, 1.0]


def test_an_initial_value_of_unknown_shape_is_refused_by_name():
    state = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def fn(x):
        if not state:
            state.append(tf.Variable(x * 2))
        return state[0]

    with pytest.raises(NotImplementedError, match="fully known shape"):
        fn(tf.constant([1.0]))


# -- TensorSpec(shape=None) --------------------------------------------------------------------------------------

def test_tensor_spec_of_unknown_rank():
    spec = tf.TensorSpec(None, tf.float32)
    assert repr(spec) == "TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)"
    assert spec.shape.rank is None and spec == tf.TensorSpec(tf.TensorShape(None))
    assert hash(spec) == hash(tf.TensorSpec(None))
    assert spec != tf.TensorSpec([], tf.float32)
    assert spec.is_compatible_with(tf.constant([[1.0]])) and spec.is_compatible_with(tf.constant(1.0))
    assert not spec.is_compatible_with(tf.constant(1))
    assert spec.is_compatible_with(tf.TensorSpec([None, 2])) and tf.TensorSpec([None, 2]).is_compatible_with(spec)


def test_an_input_signature_of_unknown_rank_takes_any_rank():
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def compute(x):
        return 2.0 * x

    assert compute(tf.constant([[1.0, 2.0]])).numpy().tolist() == [[2.0, 4.0]]
    assert compute(tf.constant(3.0)).numpy() == 6.0
    concrete = compute.get_concrete_function()
    assert concrete.structured_input_signature == ((tf.TensorSpec(None, tf.float32, name="x"),), {})
    assert compute.get_concrete_function(tf.TensorSpec(None, tf.float32))(tf.constant(2.0)).numpy() == 4.0
    with pytest.raises(TypeError, match="Can not cast TensorSpec"):
        compute.get_concrete_function(tf.TensorSpec([2], tf.int32))
    assert compute.experimental_get_tracing_count() == 1


def test_a_concrete_function_of_unknown_rank():
    concrete = tf.function(lambda x: x + 1).get_concrete_function(tf.TensorSpec(None, tf.int32))
    assert concrete(tf.constant([[1]])).numpy().tolist() == [[2]]
    assert concrete(tf.constant(1)).numpy() == 2
    assert concrete.structured_input_signature[0][0].shape.rank is None


# -- tensors of an ended loop body --------------------------------------------------------------------------------

def test_returning_a_tensor_made_inside_a_loop_body_is_tfs_error():
    def make_outputs(inputs):
        outputs = []
        for t in tf.range(inputs.shape[0]):
            outputs.append(inputs[t])
        return outputs

    with pytest.raises(InaccessibleTensorError, match=r"(?s)out of scope.*make_outputs.*while_body") as caught:
        tf.function(make_outputs)(tf.zeros([8, 42, 3]))
    assert isinstance(caught.value, ValueError)


def test_using_a_tensor_made_inside_a_loop_body_is_tfs_error():
    @tf.function
    def fn(x):
        kept = []
        for _ in tf.range(3):
            kept.append(x * 2)
        return kept[0] + 1

    with pytest.raises(ValueError, match="is out of scope and cannot be used here"):
        fn(tf.constant(1.0))


# -- methods -----------------------------------------------------------------------------------------------------

class _HasDecoratedMethod:
    def __init__(self, scale=3.0):
        self.scale = scale

    @tf.function
    def f(self, x):
        return x * self.scale


def test_a_decorated_method_does_not_keep_its_instance_alive():
    instance = _HasDecoratedMethod()
    assert instance.f(tf.constant(5.0)).numpy() == 15.0
    weak_method, weak_instance = weakref.ref(instance.f), weakref.ref(instance)
    del instance
    assert weak_method() is None and weak_instance() is None   # no cycle: gone without a collection


def test_each_instance_keeps_its_own_traces_while_it_lives():
    first, second = _HasDecoratedMethod(2.0), _HasDecoratedMethod(10.0)
    assert first.f(tf.constant(1.0)).numpy() == 2.0 and second.f(tf.constant(1.0)).numpy() == 10.0
    assert first.f is first.f and first.f is not second.f
    first.f(tf.constant(3.0))
    assert first.f.experimental_get_tracing_count() == 1
    gc.collect()
    assert len(_HasDecoratedMethod.f._bound) >= 2


# -- a GradientTape reading a TF1 graph's variables -----------------------------------------------------------------

def test_a_tape_inside_a_while_body_of_a_tf1_graph_sees_the_variable():
    with tf.Graph().as_default():
        v = tf.Variable(3.0)
        grads = []

        def body(_):
            _ = v + 1.0   # reads the variable inside the loop first
            with tf.GradientTape() as tape:
                result = v * v
            grads.append(tape.gradient(result, v))
            return 1.0

        tf.while_loop(lambda i: False, body, [1.0])
        assert grads[0] is not None
        with tf.GradientTape() as tape:
            outside = v * v
        gradient = tape.gradient(outside, v)
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            assert session.run(gradient) == 6.0   # each read counted once


# -- AutoGraph converts the functions a traced function calls ------------------------------------------------------

def _branch(x):
    if x > 0:
        y = x
    else:
        y = -x
    return y


def _caller(x):
    return _branch(x) + 1


def _factorial_like(x, n):
    if n == 0:
        return x
    if x > 100:
        return x
    return _factorial_like(x * 2, n - 1)


def _loops(x):
    total = 0
    for i in tf.range(x):
        total += i
    while total > 3:
        total -= 1
    return total if total > 1 else -total


def _returns_inside_if(x):
    if x > 0:
        return x
    return x * 100


def _bool_ops(x):
    return (x > 0 and x < 5) or not x > -10


class _Callable:
    def method(self, x):
        if x > 0:
            return x * 10
        return x

    def __call__(self, x):
        return self.method(x)


def _decorate(f):
    @functools.wraps(f)
    def wrapper(*args):
        return f(*args)
    return wrapper


def _nested_def_passed_to_cond(x):
    def inner():
        if x > 0:
            r = x
        else:
            r = -x
        return r
    return tf.cond(x > 100, inner, inner)


def _recursion(x):
    return _factorial_like(x, 3)


def _two_returns(x):
    return _returns_inside_if(x) + _returns_inside_if(-x)


def _bool_ops_as_int(x):
    return tf.cast(_bool_ops(x), tf.int32)


def _method(x):
    return _Callable().method(x)


def _callable_object(x):
    return _Callable()(x)


def _partial(x):
    return functools.partial(_branch)(x)


def _decorated(x):
    return _decorate(_branch)(x)


def _lambda_branches(x):
    return tf.cond(x > 5, lambda: _branch(x), lambda: _branch(x))   # the lambdas' calls convert


@pytest.mark.parametrize("fn, argument, expected", [
    (_branch, -2, 2), (_caller, -2, 3), (_recursion, 3, 24), (_loops, 4, 3), (_two_returns, 3, -297),
    (_bool_ops_as_int, 3, 1), (_method, 2, 20), (_callable_object, 2, 20), (_partial, -2, 2), (_decorated, -2, 2),
    (_nested_def_passed_to_cond, -3, 3), (_lambda_branches, -2, 2),
], ids=lambda value: getattr(value, "__name__", None))
def test_functions_called_from_a_traced_function_are_converted(fn, argument, expected):
    def traced(x):
        return fn(x)
    assert tf.function(traced)(tf.constant(argument)).numpy() == expected   # values from TF 2.21


def test_map_fn_converts_its_function_as_tf_does():
    def test_function(x):
        cond = tf.constant(-1)
        if cond == 0:
            result = x
        else:
            result = x
        return result

    @tf.function
    def map_call(x):
        return tf.map_fn(test_function, x)

    @tf.function
    def map_call_by_keyword(x):
        return tf.map_fn(fn=_branch, elems=x)

    assert map_call(tf.constant([1])).numpy().tolist() == [1]
    assert map_call_by_keyword(tf.constant([1, -2])).numpy().tolist() == [1, 2]


def test_scan_does_not_convert_its_function_as_tf_does_not():
    def step(total, element):
        if element > 0:
            total = total + element
        return total

    @tf.function
    def scanned(x):
        return tf.scan(step, x)

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        scanned(tf.constant([1, -2]))


def test_autograph_false_converts_nothing_but_a_nested_function_converts_itself():
    @tf.function(autograph=False)
    def unconverted(x):
        return _branch(x)

    @tf.function
    def converting(x):
        if x > 0:
            return x
        return -x

    @tf.function(autograph=False)
    def outer(x):
        return converting(x)

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        unconverted(tf.constant(-2))
    assert outer(tf.constant(-2)).numpy() == 2


def test_do_not_convert_is_respected_when_called():
    @tf.autograph.experimental.do_not_convert
    def kept(x):
        if x > 0:
            return x
        return -x

    def traced(x):
        return kept(x)

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(traced)(tf.constant(-2))


def test_called_functions_run_as_written_eagerly():
    assert np.asarray(_caller(tf.constant(-4))).tolist() == 5


def test_a_concrete_function_binds_keyword_arguments_by_name_whatever_their_order():
    """TF 2.21: cf(b=2, a=5) of `a - b` is 3.0 (placeflow bound them in the order given: -3.0), and an unknown
    keyword is a TypeError."""
    cf = tf.function(lambda a, b: a - b).get_concrete_function(tf.constant(1.0), tf.constant(2.0))
    assert float(cf(b=tf.constant(2.0), a=tf.constant(5.0))) == 3.0
    assert float(cf(tf.constant(5.0), b=tf.constant(2.0))) == 3.0
    with pytest.raises(TypeError, match="unexpected keyword argument 'c'"):
        cf(tf.constant(5.0), c=tf.constant(2.0))
