"""What a traced function computes equals what TensorFlow 2.21 computes (values recorded from TF)."""

import time

import numpy as np
import pytest

import placeflow as tf


def test_equality_inside_a_function_is_elementwise(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")

    @tf.function
    def accuracy(logits, labels):
        return tf.reduce_mean(tf.cast(tf.argmax(logits, 1) == labels, tf.float32))

    @tf.function
    def mask(x):
        return tf.where(x == 2, 1.0, 0.0), tf.where(x != 2, 1.0, 0.0)

    logits = tf.constant([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])
    assert float(accuracy(logits, tf.constant([1, 0, 0], dtype=tf.int64))) == pytest.approx(0.6666667)  # TF 2.21
    equal, not_equal = mask(tf.constant([1, 2, 3]))
    assert equal.numpy().tolist() == [0.0, 1.0, 0.0] and not_equal.numpy().tolist() == [1.0, 0.0, 1.0]


def test_traced_tensors_are_unhashable_and_have_ref(make_context):
    seen = {}

    @tf.function
    def f(x):
        with pytest.raises(TypeError, match=r"Tensor is unhashable. Instead, use tensor.ref\(\) as the key."):
            hash(x)
        seen["ref"] = {x.ref(): 1}
        seen["none"] = (x == None, x != None)  # noqa: E711 - TensorFlow answers False / True
        return x

    f(tf.constant(1.0))
    (ref,) = seen["ref"]
    assert ref.deref().name.startswith("x") and seen["none"] == (False, True)


def test_tensorflow_1_graph_tensors_keep_identity_equality(make_context):
    with tf.compat.v1.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, shape=[2])
        assert (x == x) is True and (x != x) is False and len({x}) == 1


def test_autograph_converts_tensor_while_and_if_statements(make_context):
    @tf.function
    def collatz(n):
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    assert int(collatz(tf.constant(27))) == 111  # the TF guide's Collatz loop, as TF 2.21 computes it
    assert "__ag__.while_stmt" in tf.autograph.to_code(collatz) and "__ag__.if_stmt" in tf.autograph.to_code(collatz)

    @tf.function
    def python_condition(x, flag):
        if flag:  # a Python bool stays Python: one trace per flag value
            x = x + 1
        return x

    assert int(python_condition(tf.constant(1), True)) == 2 and int(python_condition(tf.constant(1), False)) == 1


def test_a_symbolic_tensor_as_a_python_bool_raises_at_once_where_nothing_converts_it(make_context):
    def collatz(n):
        steps = 0
        while n != 1:
            n = n // 2
            steps += 1
        return steps

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="Using a symbolic `tf.Tensor` as a Python `bool`"):
        tf.function(collatz, autograph=False)(tf.constant(6))  # at the loop's first test, not after looping
    assert issubclass(tf.errors.OperatorNotAllowedInGraphError, TypeError)

    @tf.function
    def with_break(n):
        while n > 0:
            n = n - 1
            if n == 3:
                break
        return n

    assert int(with_break(tf.constant(6))) == 3  # break in a tensor loop is converted (TF 2.21: 3)

    @tf.function
    def with_return(n):
        while n > 0:
            n = n - 1
            if n == 3:
                return n
        return n

    with pytest.raises(NotImplementedError, match="a return statement cannot be placed inside this TensorFlow loop"):
        with_return(tf.constant(6))  # TF 2.21 refuses a return inside a tensor loop with this error


def test_each_replica_of_strategy_run_traces_its_own_function(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    strategy = tf.distribute.MirroredStrategy()

    @tf.function
    def replica_number():
        return tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32) + 1.0

    results = strategy.experimental_local_results(strategy.run(replica_number))
    assert [float(r) for r in results] == [1.0, 2.0]  # TF 2.21


def test_a_function_traced_under_one_device_scope_is_traced_again_under_another(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    double = tf.function(lambda x: x * 2.0)
    x = tf.constant(np.ones(2, np.float32))
    with tf.device("/CPU:0"):
        on_cpu = double(x)
    with tf.device("/GPU:0"):
        on_gpu = double(x)
    assert on_cpu.device.endswith("CPU:0") and on_gpu.device.endswith("GPU:0")


def test_variables_created_inside_strategy_run_are_refused(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    strategy = tf.distribute.MirroredStrategy()
    with pytest.raises(ValueError, match="inside `strategy.run`.*strategy.scope"):
        strategy.run(lambda: tf.Variable(1.0))
    with strategy.scope():
        v = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN)
    strategy.run(lambda: v.assign_add(1.0))
    assert [float(x.numpy()) for x in strategy.experimental_local_results(v)] == [2.0, 2.0]


def test_an_int64_only_first_replica_counter_counts_once_per_step(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        counter = tf.Variable(0, dtype=tf.int64, aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
    strategy.run(lambda: counter.assign_add(1))
    assert [int(x.numpy()) for x in strategy.experimental_local_results(counter)] == [1, 1]  # TF 2.21: 1
    step = tf.function(lambda: strategy.run(lambda: counter.assign_add(1)))
    step()
    assert [int(x.numpy()) for x in strategy.experimental_local_results(counter)] == [2, 2]


def test_numpy_and_fetches_are_arrays_the_caller_owns(make_context):
    with tf.device("/CPU:0"):
        c = tf.constant([1.0, 2.0])
        v = tf.Variable([1.0, 2.0])
    for array in (c.numpy(), v.numpy()):
        array[0] = 99.0
    assert c.numpy().tolist() == [1.0, 2.0] and v.numpy().tolist() == [1.0, 2.0]
    view = np.asarray(c)  # zero-copy is fine where nobody can write through it
    assert not view.flags.writeable
    with tf.compat.v1.Graph().as_default():
        w = tf.compat.v1.Variable([1.0, 2.0])
        session = tf.compat.v1.Session()
        session.run(tf.compat.v1.global_variables_initializer())
        fetched = session.run(w)
        fetched[0] = 99.0
        assert session.run(w).tolist() == [1.0, 2.0]


def test_first_calls_from_several_threads_trace_once(make_context):
    import threading
    v = tf.Variable(0.0)
    traces = []

    @tf.function
    def step(x):
        traces.append(1)
        time.sleep(0.05)  # widen the window in which other threads arrive
        return v.assign_add(x)

    x = tf.constant(1.0)
    threads = [threading.Thread(target=step, args=(x,)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(traces) == 1 and step.experimental_get_tracing_count() == 1
    assert float(v.numpy()) == 6.0


def test_autograph_leaves_methods_using_super_and_functions_with_globals_working(make_context):
    class Base:
        def scale(self, x):
            return x * 2.0

    class Child(Base):
        @tf.function
        def scale(self, x):
            if x > 0:  # not converted (super() needs its class cell): a tensor condition here would raise
                pass
            return super().scale(x) + 1.0

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        Child().scale(tf.constant(1.0))

    @tf.function
    def with_global(x):
        global _SEEN
        if x > 0:
            _SEEN = True
        return x

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):  # `global` blocks the rewrite: unconverted
        with_global(tf.constant(1.0))


def test_autograph_keeps_the_original_closure_and_refuses_del(make_context):
    def make():
        scale = 1.0

        @tf.function
        def f(x):
            if x > 0:
                y = x * scale
            else:
                y = -x
            return y

        def set_scale(value):
            nonlocal scale
            scale = value
        return f, set_scale

    f, set_scale = make()
    assert float(f(tf.constant(2.0))) == 2.0
    set_scale(10.0)
    assert float(f(tf.constant(2.0, tf.float64))) == 20.0  # a new trace reads the closure as it is now

    @tf.function
    def with_del(x):
        tmp = x
        if x > 0:
            x = x + 1
        del tmp
        return x

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):  # `del` keeps the function unconverted
        with_del(tf.constant(1.0))
