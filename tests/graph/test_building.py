"""Graphs are built by the same public ops: names, scopes, requested devices, shapes, variables."""

import pytest

import placeflow as tf


@pytest.fixture
def graph():
    g = tf.compat.v1.Graph()
    with g.as_default():
        yield g


def test_ops_record_instead_of_running(graph):
    a = tf.constant([[1.0, 2.0]], name="a")
    c = tf.matmul(a, tf.transpose(a))
    assert isinstance(c, tf.compat.v1.Tensor)
    assert c.name == "MatMul:0" and c.op.type == "MatMul"
    assert c.shape == [1, 1] and c.dtype == tf.float32
    assert [t.name for t in c.op.inputs] == ["a:0", "transpose:0"]
    assert not tf.executing_eagerly()
    assert [op.name for op in graph.get_operations()] == ["a", "transpose", "MatMul"]


def test_names_are_made_unique_and_scoped(graph):
    first, second = tf.constant(1.0), tf.constant(2.0)
    with tf.name_scope("tower") as scope:
        inner = tf.add(first, second)
        product = first * second
    with tf.name_scope("tower"):
        again = tf.add(first, second)
    assert (first.op.name, second.op.name) == ("Const", "Const_1")
    assert scope == "tower/"
    assert (inner.op.name, product.op.name, again.op.name) == ("tower/AddV2", "tower/mul", "tower_1/AddV2")
    assert graph.get_tensor_by_name("tower/mul:0") is product


def test_requested_devices_scope_spec_and_device_function(graph):
    with tf.device("/cpu:0"):
        a = tf.constant(1.0)
        with tf.device("/device:GPU:1"):
            b = tf.constant(2.0)
    with tf.device("/job:localhost/task:0"):
        with tf.device("GPU:0"):
            c = tf.constant(3.0)
    with tf.device(lambda op: "/gpu:1" if op.type == "Mul" else None):
        d = a * b
        e = a + b
    assert (a.device, b.device, c.device) == ("/device:CPU:0", "/device:GPU:1", "/job:localhost/task:0/device:GPU:0")
    assert (d.device, e.device) == ("/device:GPU:1", "")


def test_device_function_sees_the_operation_being_created(graph):
    seen = []

    def record(op):
        seen.append((op.name, op.type))
        return "/cpu:0"

    with tf.device(record):
        tf.Variable(3.0, name="v")
    assert ("v", "VariableV2") in seen and ("v/initial_value", "Const") in seen


def test_control_dependencies_and_colocation(graph):
    a = tf.constant(1.0, name="a")
    with tf.device("/gpu:0"):
        b = tf.constant(2.0, name="b")
    with tf.control_dependencies([a]):
        c = tf.identity(b, name="c")
    with tf.compat.v1.colocate_with(b):
        with tf.device("/cpu:0"):
            d = tf.identity(a, name="d")
    assert c.op.control_inputs == [a.op]
    assert d.op.colocation_groups() == [b"loc:@b"] and d.device == "/device:GPU:0"  # TF 2.21's form
    assert c.op.node_def["input"] == ["b:0", "^a"]


def test_ref_variable_nodes(graph):
    with tf.device("/cpu:0"):
        a = tf.Variable(3.0, name="a")
    names = {op.name: op.type for op in graph.get_operations()}
    assert names == {"a/initial_value": "Const", "a": "VariableV2", "a/Assign": "Assign", "a/read": "Identity"}
    assert a.name == "a:0" and a.initializer.name == "a/Assign" and a.value().name == "a/read:0"
    assert all(graph.get_operation_by_name(n).device == "/device:CPU:0" for n in names)
    assert tf.compat.v1.global_variables() == [a]


def test_placeholder_shapes_and_inference(graph):
    x = tf.compat.v1.placeholder(tf.float32, shape=[None, 3], name="x")
    w = tf.ones([3, 4])
    y = tf.matmul(x, w)
    assert str(x.shape) == "(None, 3)" and y.shape == [None, 4]
    assert tf.reduce_sum(y, axis=1).shape == [None]
    assert tf.reshape(w, [-1]).shape == [12]
    parts = tf.split(w, 2, axis=1)
    assert [p.shape for p in parts] == [[3, 2], [3, 2]] and parts[1].name == "split:1"
    assert (x > 1.0).dtype == tf.bool


def test_symbolic_tensors_refuse_python_control_flow(graph):
    x = tf.compat.v1.placeholder(tf.float32, shape=[2])
    with pytest.raises(TypeError, match="Python `bool` is not allowed"):
        bool(x)
    assert (x == x) is True  # identity, as on TensorFlow 1 graph tensors


def test_mixing_graphs_is_refused():
    g1, g2 = tf.compat.v1.Graph(), tf.compat.v1.Graph()
    with g1.as_default():
        a = tf.constant(1.0)
    with g2.as_default():
        with pytest.raises(ValueError, match="must be from the same graph"):
            tf.add(a, 1.0)


def test_finalized_graph_refuses_new_ops(graph):
    graph.finalize()
    with pytest.raises(RuntimeError, match="Graph is finalized"):
        tf.constant(1.0)


def test_placeholder_needs_a_graph():
    with pytest.raises(RuntimeError, match="not compatible with eager execution"):
        tf.compat.v1.placeholder(tf.float32)
    assert tf.executing_eagerly()
