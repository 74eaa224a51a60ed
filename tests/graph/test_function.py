"""placeflow.function: tracing per signature, placement and its log, variables, structures, errors."""

import numpy as np
import pytest

import placeflow as tf

FULL = "/job:localhost/replica:0/task:0/device:"


def test_traces_once_per_signature():
    @tf.function
    def f(x, scale=2.0):
        return x * scale

    a = tf.constant([1.0, 2.0])
    assert f(a).numpy().tolist() == [2.0, 4.0]
    assert f(tf.constant([3.0, 4.0])).numpy().tolist() == [6.0, 8.0]
    assert f.experimental_get_tracing_count() == 1
    f(tf.constant([1.0, 2.0, 3.0]))                 # new shape
    f(tf.constant([1.0, 2.0], tf.float64))          # new dtype
    assert f(a, scale=3.0).numpy().tolist() == [3.0, 6.0]   # new Python value
    assert f.experimental_get_tracing_count() == 4
    f(a, scale=3.0)
    assert f.experimental_get_tracing_count() == 4


def test_placement_log_in_graph_format(make_context, capsys):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])

    @tf.function
    def product(a, b):
        return tf.matmul(a, b)

    tf.debugging.set_log_device_placement(True)
    try:
        capsys.readouterr()
        result = product(a, a)
        product(a, a)
    finally:
        tf.debugging.set_log_device_placement(False)
    lines = capsys.readouterr().err.splitlines()
    assert lines[:3] == [f"a: (_Arg): {FULL}GPU:0", f"b: (_Arg): {FULL}GPU:0", f"MatMul: (MatMul): {FULL}GPU:0"]
    assert lines[3].startswith("Executing op __inference_product_") and lines[3].endswith(f"in device {FULL}GPU:0")
    assert len(lines) == 5  # the second call only executes
    assert result.device == f"{FULL}GPU:0" and result.numpy().tolist() == [[7.0, 10.0], [15.0, 22.0]]


def test_scopes_inside_the_function_are_honoured(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")

    @tf.function
    def f(x):
        with tf.device("/gpu:1"):
            y = x * 2.0
        with tf.device("/cpu:0"):
            return y + 1.0, y

    out, mid = f(tf.constant([1.0]))
    assert out.device == f"{FULL}CPU:0" and mid.device == f"{FULL}GPU:1"
    assert out.numpy().tolist() == [3.0]


def test_variables_are_read_and_updated_when_the_graph_runs():
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def step(delta):
        v.assign_add(delta)
        doubled = v * 2.0
        v.assign_sub([1.0, 1.0])
        return doubled, v.read_value()

    doubled, after = step(tf.constant([1.0, 1.0]))
    assert doubled.numpy().tolist() == [4.0, 6.0] and after.numpy().tolist() == [1.0, 2.0]
    doubled, _ = step(tf.constant([5.0, 5.0]))
    assert doubled.numpy().tolist() == [12.0, 14.0] and v.numpy().tolist() == [5.0, 6.0]
    assert step.experimental_get_tracing_count() == 1


def test_side_effects_run_even_when_not_returned():
    v = tf.Variable(0.0)

    @tf.function
    def bump():
        v.assign_add(1.0)

    bump()
    bump()
    assert float(v.numpy()) == 2.0


def test_variables_created_on_first_trace_only():
    holder = []

    @tf.function
    def f(x):
        if not holder:
            holder.append(tf.Variable(10.0))
        return x + holder[0]

    assert float(f(tf.constant(1.0))) == 11.0
    assert isinstance(holder[0], tf.Variable)

    @tf.function
    def g(x):
        return x + tf.Variable(1.0)

    with pytest.raises(ValueError, match="only supports singleton Variables created on the first call"):
        g(tf.constant(1.0))   # as TF: the first call traces again, and that trace creates one more


def test_structures_numpy_arguments_and_captured_tensors():
    captured = tf.constant(10.0)

    @tf.function
    def f(inputs):
        return {"sum": inputs["a"] + inputs["b"] + captured, "list": [inputs["a"], None]}

    out = f({"a": tf.constant(1.0), "b": np.float32(2.0) * np.ones((), np.float32)})
    assert float(out["sum"]) == 13.0 and out["list"][1] is None


def test_nested_functions_inline_and_methods_bind():
    @tf.function
    def inner(x):
        return x * 3.0

    class Model:
        def __init__(self):
            self.w = tf.Variable(2.0)

        @tf.function
        def __call__(self, x):
            return inner(x) * self.w

    model = Model()
    assert float(model(tf.constant(1.0))) == 6.0
    assert inner.experimental_get_tracing_count() == 0  # inlined into the outer trace


def test_errors_name_the_failing_node():
    def matmul(a, b):
        return tf.matmul(a, b, name="bad")

    # static shapes that cannot work are refused while tracing, as TensorFlow's shape functions do
    with pytest.raises(ValueError, match=r"Dimensions must be equal, but are 3 and 2 for '\{\{node bad\}\} = MatMul"):
        tf.function(matmul)(tf.ones([2, 3]), tf.ones([2, 3]))
    unknown = tf.TensorSpec([None, None], tf.float32)
    traced = tf.function(matmul, input_signature=[unknown, unknown])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[\[\{\{node bad\}\}\]\]"):
        traced(tf.ones([2, 3]), tf.ones([2, 3]))


def test_parallel_branches_in_a_function(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    data = np.random.RandomState(0).rand(256, 256).astype(np.float32)

    @tf.function
    def towers(x):
        outs = []
        for device in ("/gpu:0", "/gpu:1"):
            with tf.device(device):
                outs.append(tf.matmul(x, x))
        return tf.add_n(outs)

    result = towers(tf.constant(data))
    np.testing.assert_allclose(result.numpy(), 2 * data @ data, rtol=1e-4)
    concrete = towers.get_concrete_function(tf.constant(data))
    assert concrete._plan.parallel and concrete._plan.width == 2


def test_concurrent_first_calls_of_a_function_method_trace_it_once(monkeypatch):
    """Threads calling a tf.function method of one object for the first time share one trace (the bound
    Function each thread made was kept by whichever stored it last: up to one trace per thread). Binding is
    slowed down here so that the threads do meet there."""
    import threading
    import time
    from placeflow.graph import function as function_module
    original_init = function_module.Function.__init__

    def slow_init(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        time.sleep(0.02)
    traces = []

    class Model:
        @tf.function
        def step(self, x):
            traces.append(1)
            return x * 2.0

    monkeypatch.setattr(function_module.Function, "__init__", slow_init)
    for _ in range(5):
        model, start = Model(), threading.Barrier(8)
        results = []

        def call():
            start.wait()
            results.append(float(model.step(tf.constant(1.0))))
        threads = [threading.Thread(target=call) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert results == [2.0] * 8
    assert len(traces) == 5  # one per object
