"""compat.v1.Session: the simple placer, fetch structures, feeds, variables, logging, lifecycle."""

import collections

import numpy as np
import pytest

import placeflow as tf

FULL = "/job:localhost/replica:0/task:0/device:"


@pytest.fixture
def gpus(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")


@pytest.fixture
def graph():
    g = tf.compat.v1.Graph()
    with g.as_default():
        yield g


def log_lines(capsys):
    return capsys.readouterr().err.splitlines()


def placements(capsys):
    return [line for line in log_lines(capsys) if ": (" in line]


def test_default_placement_prefers_gpu0_and_constants_follow_consumers(gpus, graph, capsys):
    with tf.device("/cpu:0"):
        a = tf.constant([[1.0, 2.0], [3.0, 4.0]], name="a")
    b = tf.constant([[1.0], [1.0]], name="b")
    c = tf.matmul(a, b)
    sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(log_device_placement=True))
    np.testing.assert_array_equal(sess.run(c), [[3.0], [7.0]])
    lines = log_lines(capsys)
    assert lines[:2] == ["Device mapping:", f"{FULL}GPU:0 -> device: 0, name: placeflow simulated GPU, pci bus id: "
                         "0000:01:00.0, simulated (NumPy kernels, no CUDA)"]
    assert [line for line in lines if ": (" in line] == [f"MatMul: (MatMul): {FULL}GPU:0", f"a: (Const): {FULL}CPU:0",
                                                         f"b: (Const): {FULL}GPU:0"]


def test_placed_nodes_stay_placed_and_are_logged_once(gpus, graph, capsys):
    a = tf.constant(2.0, name="a")
    b = a * 3.0
    sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(log_device_placement=True))
    sess.run(b)
    assert placements(capsys) == [f"mul: (Mul): {FULL}GPU:0", f"a: (Const): {FULL}GPU:0",
                                  f"Const: (Const): {FULL}GPU:0"]
    assert sess.run(b) == 6.0
    with tf.device("/cpu:0"):
        c = b + 1.0
    assert sess.run(c) == 7.0
    assert placements(capsys) == [f"add: (AddV2): {FULL}CPU:0",
                                                                  f"Const_1: (Const): {FULL}CPU:0"]


def test_device_mapping_on_a_cpu_only_machine(graph, capsys):
    tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(log_device_placement=True))
    assert log_lines(capsys) == ["Device mapping: no known devices."]


def test_unsatisfiable_request_error_and_soft_placement(gpus, graph):
    with tf.device("/device:GPU:2"):
        a = tf.constant([1.0, 2.0], name="a")
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.compat.v1.Session().run(a)
    assert info.value.message.startswith(
        "Cannot assign a device for operation a: Could not satisfy explicit device specification '/device:GPU:2' "
        "because no devices matching that specification are registered in this process; available devices: "
        f"{FULL}CPU:0, {FULL}GPU:0, {FULL}GPU:1")
    assert "allow_soft_placement=True" in info.value.message
    soft = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(allow_soft_placement=True))
    np.testing.assert_array_equal(soft.run(a), [1.0, 2.0])
    assert soft._placed[a.op].name == f"{FULL}GPU:0"


def test_no_gpu_kernel_error_names_the_kernels(gpus, graph):
    with tf.device("/gpu:0"):
        i = tf.Variable(3)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.compat.v1.Session().run(i.initializer)
    message = info.value.message
    assert message.startswith("Cannot assign a device for operation Variable: Could not satisfy explicit device "
                              "specification '/device:GPU:0' because no supported kernel for GPU devices is available.")
    assert "Variable/Assign (Assign) /device:GPU:0" in message and "device='GPU'; T in [" in message
    sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(allow_soft_placement=True))
    sess.run(i.initializer)
    assert sess.run(i) == 3 and sess._placed[i.op].name == f"{FULL}CPU:0"


def test_colocation_group_moves_together_under_soft_placement(gpus, graph):
    with tf.device("/gpu:0"):
        i = tf.Variable(3, name="i")
        j = i.assign_add(2)
    sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(allow_soft_placement=True))
    sess.run(i.initializer)
    assert sess.run(j) == 5
    assert {sess._placed[op].short_name for op in (i.op, i.initializer, i.value().op, j.op)} == {"CPU:0"}


def test_nested_fetches_feeds_and_ops(graph):
    x = tf.compat.v1.placeholder(tf.float32, shape=[None, 2], name="x")
    y = tf.reduce_sum(x, axis=1)
    z = y * 2.0
    Pair = collections.namedtuple("Pair", "y z")
    sess = tf.compat.v1.Session()
    out = sess.run({"pair": Pair(y, z), "list": [z, "x:0"], "op": z.op}, feed_dict={x: [[1, 2], [3, 4]]})
    np.testing.assert_array_equal(out["pair"].y, [3.0, 7.0])
    np.testing.assert_array_equal(out["list"][0], [6.0, 14.0])
    assert out["list"][1].dtype == np.float32 and out["op"] is None
    assert isinstance(out["pair"], Pair)
    assert sess.run(z, feed_dict={"x:0": np.ones((1, 2))}).tolist() == [4.0]
    assert sess.run(z, feed_dict={y: [5.0]}).tolist() == [10.0]  # any tensor can be fed


def test_feed_errors(graph):
    x = tf.compat.v1.placeholder(tf.float32, shape=[None, 3], name="x")
    y = x * 2.0
    sess = tf.compat.v1.Session()
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"You must feed a value for placeholder tensor 'x' "
                                                            r"with dtype float32 and shape \[\?,3\]"):
        sess.run(y)
    with pytest.raises(ValueError, match=r"Cannot feed value of shape \(2,\) for Tensor 'x:0', which has shape "
                                         r"'\(\?, 3\)'"):
        sess.run(y, feed_dict={x: [1.0, 2.0]})


def test_variables_need_initialization_and_keep_state_per_session(graph):
    v = tf.Variable([1.0, 2.0], name="v")
    step = v.assign_add([1.0, 1.0])
    first, second = tf.compat.v1.Session(), tf.compat.v1.Session()
    with pytest.raises(tf.errors.FailedPreconditionError, match="Attempting to use uninitialized value v"):
        first.run(v)
    first.run(tf.compat.v1.global_variables_initializer())
    first.run(step)
    first.run(step)
    second.run(v.initializer)
    assert first.run(v).tolist() == [3.0, 4.0] and second.run(v).tolist() == [1.0, 2.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Assign requires shapes of both tensors to match"):
        first.run(v.assign([1.0, 2.0, 3.0]))
    assert first.run(v).tolist() == [3.0, 4.0]  # a failed assign leaves the value alone


def test_control_dependencies_order_side_effects(graph):
    v = tf.Variable(1.0, name="v")
    update = v.assign(10.0)
    with tf.control_dependencies([update]):
        read_after = v.read_value()
    sess = tf.compat.v1.Session()
    sess.run(v.initializer)
    assert sess.run(read_after) == 10.0


def test_errors_name_the_failing_node(graph):
    a = tf.compat.v1.placeholder(tf.float32, shape=None, name="a")
    bad = tf.matmul(a, a, name="bad_matmul")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[\[\{\{node bad_matmul\}\}\]\]"):
        tf.compat.v1.Session().run(bad, feed_dict={a: np.ones((2, 3))})


def test_default_session_eval_and_lifecycle(graph):
    c = tf.constant(3.0) * 2.0
    with pytest.raises(ValueError, match="No default session is registered"):
        c.eval()
    with tf.compat.v1.Session() as sess:
        assert c.eval() == 6.0 and tf.compat.v1.get_default_session() is sess
    assert tf.compat.v1.get_default_session() is None
    with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
        sess.run(c)
    interactive = tf.compat.v1.InteractiveSession()
    assert c.eval() == 6.0
    interactive.close()
    assert tf.compat.v1.get_default_session() is None


def test_disable_eager_execution_uses_a_global_graph():
    tf.compat.v1.disable_eager_execution()
    try:
        c = tf.constant(2.0) + 1.0
        assert isinstance(c, tf.compat.v1.Tensor) and c.graph is tf.compat.v1.get_default_graph()
        assert tf.compat.v1.Session().run(c) == 3.0
    finally:
        tf.compat.v1.enable_eager_execution()
        tf.compat.v1.reset_default_graph()
    assert tf.executing_eagerly() and float(tf.constant(2.0) + 1.0) == 3.0


def test_session_config_memory_options(gpus, graph):
    config = tf.compat.v1.ConfigProto()
    config.gpu_options.per_process_gpu_memory_fraction = 0.25
    tf.compat.v1.Session(config=config)
    total = tf.config.experimental.memory_stats("GPU:0")["bytes_limit"]
    assert 0 < total < 1.1 * 0.25 * 4096 * 2**20


def test_intra_op_threads_set_blas_threads(graph):
    from placeflow.graph import intra_op
    pytest.importorskip("threadpoolctl")
    before = intra_op.blas_threads()
    try:
        tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(intra_op_parallelism_threads=1))
        assert intra_op.blas_threads() == 1
    finally:
        intra_op.set_blas_threads(before)


def test_traced_inline_plan_records_every_node(graph):
    x = tf.constant([1.0, 2.0], name="x")
    y = tf.exp(x, name="y") * 2.0
    metadata = tf.compat.v1.RunMetadata()
    sess = tf.compat.v1.Session()
    options = tf.compat.v1.RunOptions(trace_level=tf.compat.v1.RunOptions.FULL_TRACE)
    np.testing.assert_allclose(sess.run(y, options=options, run_metadata=metadata), 2 * np.exp([1.0, 2.0]),
                               rtol=1e-6)
    nodes = metadata.step_stats.all_nodes()
    assert [n.node_name for n in nodes] == ["y", "mul"]
    assert nodes[0].all_end_micros <= nodes[1].all_start_micros and nodes[1].output_bytes == [8]


def test_a_failed_placement_places_nothing(gpus, graph):
    good = tf.constant(1.0, name="good") * 2.0
    with tf.device("/device:GPU:5"):
        tf.constant(2.0, name="bad")
    sess = tf.compat.v1.Session()
    with pytest.raises(tf.errors.InvalidArgumentError, match="operation bad"):
        sess.run(good)
    assert sess._placed == {}


def test_run_options_timeout_raises_deadline_exceeded_and_the_next_run_waits(make_context):
    with tf.compat.v1.Graph().as_default():
        v = tf.Variable(0.0)
        x = tf.ones([256, 256])
        for _ in range(200):
            x = tf.matmul(x, tf.ones([256, 256])) * (1.0 / 256.0)
        step = v.assign_add(tf.reduce_sum(x))
        sess = tf.compat.v1.Session()
        sess.run(v.initializer)
        with pytest.raises(tf.errors.DeadlineExceededError, match="Timed out waiting for notification"):
            sess.run(step, options=tf.compat.v1.RunOptions(timeout_in_ms=1))
        assert sess.run(v) == 65536.0  # the late step finished before this run (one add of 256 * 256)
        assert sess.run(step, options=tf.compat.v1.RunOptions(timeout_in_ms=60_000)) == 2 * 65536.0
        with pytest.raises(NotImplementedError, match="output_partition_graphs"):
            sess.run(step, options=tf.compat.v1.RunOptions(output_partition_graphs=True))
        with pytest.raises(ValueError, match="timeout_in_ms must be a non-negative int"):
            sess.run(step, options=tf.compat.v1.RunOptions(timeout_in_ms=-1))
