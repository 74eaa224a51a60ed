"""One kernel call in every mode: memory charged and limits enforced in eager, function and Session;
an out-of-memory or interrupted step raises promptly and leaves the runtime usable."""

import re
import threading
import time

import numpy as np
import pytest

import placeflow as tf
from placeflow.graph import lanes as lanes_module
from placeflow.ops import shape_rules
from placeflow.ops import registry

GPU0 = "/job:localhost/replica:0/task:0/device:GPU:0"
FIRST_LINE = f"OOM when allocating tensor with shape[16384,1024] and type float on {GPU0} by allocator GPU_0_bfc"


@pytest.fixture
def small_gpu(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:64MiB")
    with tf.device("/GPU:0"):
        x = tf.ones([2048, 1024])  # 8 MiB
    return x


def too_big(x):
    return tf.reduce_sum(tf.tile(x, [8, 1]) * 2.0)  # the 64 MiB tile cannot fit next to x


def assert_runtime_still_works():
    with tf.device("/GPU:0"):
        assert float(tf.reduce_sum(tf.ones([256, 1024]))) == 256 * 1024


def test_eager_oom_names_the_op_and_device(small_gpu):
    with pytest.raises(tf.errors.ResourceExhaustedError) as info:
        too_big(small_gpu)
    assert str(info.value).splitlines()[0] == FIRST_LINE + " [Op:Tile] name: "
    assert type(info.value) is tf.errors.ResourceExhaustedError
    assert_runtime_still_works()


def test_function_oom_names_the_node(small_gpu):
    with pytest.raises(tf.errors.ResourceExhaustedError) as info:
        tf.function(too_big)(small_gpu)
    lines = str(info.value).splitlines()
    assert lines[:3] == ["Graph execution error:", "", "Detected at node Tile defined at (most recent call last):"]
    at = lines.index(FIRST_LINE)  # after the frames that made the node, as TensorFlow lays it out
    assert lines[at + 1] == "\t [[{{node Tile}}]]"
    assert re.search(r" \[Op:__inference_too_big_\d+\]$", str(info.value))
    assert_runtime_still_works()


def test_session_oom_names_the_node_and_frees_the_step(small_gpu):
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        with tf.device("/GPU:0"):
            x = tf.ones([2048, 1024], name="x")
            total = too_big(x)
        sess = tf.compat.v1.Session(graph=graph)
        with pytest.raises(tf.errors.ResourceExhaustedError) as info:
            sess.run(total)
    lines = str(info.value).splitlines()
    assert lines[:3] == ["Graph execution error:", "", "Detected at node 'Tile' defined at (most recent call last):"]
    at = lines.index(FIRST_LINE)
    assert lines[at - 1] == "Node: 'Tile'" and lines[at + 1] == "\t [[{{node Tile}}]]"
    del info
    # the failed step's 8 MiB intermediate went back at once: only the eager x remains
    assert tf.config.experimental.get_memory_info("GPU:0")["current"] < 9 * 2**20
    assert_runtime_still_works()


def test_session_peak_counts_its_intermediates(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:64MiB")
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        with tf.device("/GPU:0"):
            x = tf.compat.v1.placeholder(tf.float32, [1024, 1024])
            total = tf.reduce_sum(tf.tile(x, [4, 1]) * 2.0)  # 16 MiB tile, 16 MiB product
        sess = tf.compat.v1.Session(graph=graph)
        tf.config.experimental.reset_memory_stats("GPU:0")
        assert sess.run(total, {x: np.ones([1024, 1024], np.float32)}) == 8 * 2**20
    info = tf.config.experimental.get_memory_info("GPU:0")
    assert info["peak"] >= 4 * 2**20 + 2 * 16 * 2**20  # the fed x, the tile and the product
    assert info["current"] < 2**20


def test_function_intermediates_are_charged_and_released(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:64MiB")
    with tf.device("/GPU:0"):
        x = tf.ones([1024, 1024])
    step = tf.function(lambda x: tf.reduce_sum(tf.tile(x, [4, 1]) * 2.0))
    tf.config.experimental.reset_memory_stats("GPU:0")
    assert float(step(x)) == 8 * 2**20
    info = tf.config.experimental.get_memory_info("GPU:0")
    assert info["peak"] >= 4 * 2**20 + 2 * 16 * 2**20
    assert info["current"] < 5 * 2**20


def test_a_size_known_before_the_kernel_is_refused_before_numpy_allocates(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:64MiB")
    with tf.device("/GPU:0"):
        with pytest.raises(tf.errors.ResourceExhaustedError) as info:
            tf.zeros([10**12])  # 3.6 TiB: NumPy would raise MemoryError before the pool was asked
    assert str(info.value).startswith(f"OOM when allocating tensor with shape[1000000000000] and type float on {GPU0}")
    graph = tf.compat.v1.Graph()
    with graph.as_default(), tf.device("/GPU:0"):
        big = tf.random.uniform([10**6, 10**6])
        with pytest.raises(tf.errors.ResourceExhaustedError, match=r"\[\[\{\{node RandomUniform"):
            tf.compat.v1.Session(graph=graph).run(big)


def test_variable_writes_in_a_traced_step_are_charged_to_the_variables_device(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:64MiB")
    with tf.device("/GPU:1"):
        v = tf.Variable(tf.zeros([1024, 1024]))
    before = tf.config.experimental.get_memory_info("GPU:1")["current"]

    @tf.function
    def step():
        v.assign_add(tf.ones([1024, 1024]))
    step()
    step()
    assert float(tf.reduce_sum(v)) == 2 * 2**20
    assert tf.config.experimental.get_memory_info("GPU:1")["current"] == before
    assert tf.config.experimental.get_memory_info("GPU:1")["peak"] >= before + 4 * 2**20


def test_oom_in_one_replica_of_a_traced_mirrored_step_ends_the_step_and_the_next_runs(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:64MiB")
    strategy = tf.distribute.MirroredStrategy()
    big = tf.ones([4096, 1024])   # 16 MiB per copy
    small = tf.ones([16, 1024])

    def replica_fn(x):
        return tf.distribute.get_replica_context().all_reduce("SUM", tf.reduce_sum(tf.tile(x, [4, 1])))

    step = tf.function(lambda x: strategy.run(replica_fn, args=(x,)))
    inputs = strategy.experimental_distribute_values_from_function(lambda ctx: small if ctx.replica_id_in_sync_group == 0 else big)
    with pytest.raises(tf.errors.ResourceExhaustedError, match="GPU:1"):  # not the all-reduce's DeadlineExceeded
        step(inputs)
    ok = strategy.experimental_distribute_values_from_function(lambda ctx: small)
    results = strategy.experimental_local_results(step(ok))
    assert [float(r) for r in results] == [2 * 4 * 16 * 1024] * 2


@pytest.fixture
def interrupting_kernel():
    registry.define("_TestInterrupt", registry.NUMBERS, shape=shape_rules.same, grad=registry.NOT_DIFFERENTIABLE)(
        _interrupt)
    yield
    del registry._OPS["_TestInterrupt"]


def _interrupt(xp, a):
    raise KeyboardInterrupt


def _graph_with_interrupt_on_a_lane(devices):
    """Two heavy branches, one of them interrupted: runs on the lanes (per-device programs for two
    devices, the dataflow executor for one), not inline."""
    from placeflow.eager.execute import execute
    outs = []
    for index, device in enumerate(devices):
        with tf.device(device):
            x = tf.ones([256, 256])
            y = tf.matmul(x, x)
            outs.append(execute("_TestInterrupt", (y,), tf.float32) if index == 1 else y)
    with tf.device("/GPU:0"):
        return tf.add_n([tf.identity(o) for o in outs])


@pytest.mark.parametrize("devices", [("/GPU:0", "/GPU:1"), ("/GPU:1", "/GPU:1")])
def test_keyboard_interrupt_on_a_lane_reaches_the_caller_and_the_next_step_runs(make_context, interrupting_kernel,
                                                                                 devices):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        total = _graph_with_interrupt_on_a_lane(devices)
        with tf.device("/GPU:0"):
            fine = tf.matmul(tf.ones([256, 256]), tf.ones([256, 256])) + tf.matmul(tf.ones([256, 256]), tf.ones([256, 256]))
        sess = tf.compat.v1.Session(graph=graph)
        assert sess._plan([total], []).parallel
        outcome = {}

        def run():
            try:
                sess.run(total)
            except KeyboardInterrupt:
                outcome["raised"] = "KeyboardInterrupt"
        thread = threading.Thread(target=run)
        thread.start()
        thread.join(timeout=10)
        assert not thread.is_alive(), "the step hung"
        assert outcome == {"raised": "KeyboardInterrupt"}
        assert sess.run(fine)[0, 0] == 512.0
    lanes = lanes_module._shared.values()
    assert all(t.is_alive() for lane in lanes for t in lane._threads)


def test_a_failing_replica_does_not_hang_later_multi_device_steps(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:64MiB")
    strategy = tf.distribute.MirroredStrategy()
    step = tf.function(lambda x: strategy.run(lambda v: tf.reduce_sum(tf.tile(v, [4, 1])), args=(x,)))
    big = strategy.experimental_distribute_values_from_function(lambda ctx: tf.ones([4096 * (1 + ctx.replica_id_in_sync_group), 1024]))
    for _ in range(3):
        with pytest.raises(tf.errors.ResourceExhaustedError):
            step(big)
    fine = strategy.experimental_distribute_values_from_function(lambda ctx: tf.ones([4, 4]))
    assert [float(r) for r in strategy.experimental_local_results(step(fine))] == [64.0, 64.0]
