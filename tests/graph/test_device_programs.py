"""Per-device programs: plans parallel only across devices run one straight-line program per thread."""

import time

import numpy as np
import pytest

import placeflow as tf
from placeflow.distribute.collective import Rendezvous
from placeflow.graph.device_programs import thread_groups

from .test_executor import traced_run, two_branches


def plan_of(sess):
    return next(iter(sess._plans.values()))


def test_plans_parallel_only_across_devices_get_per_device_programs(make_context, one_blas_thread):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    with tf.compat.v1.Graph().as_default():
        across = two_branches(["/gpu:0", "/gpu:1"], size=64)
        sess = tf.compat.v1.Session()
        sess.run(across)
        assert plan_of(sess).parallel and plan_of(sess).per_device
    with tf.compat.v1.Graph().as_default():
        within = two_branches(["/cpu:0", "/cpu:0"], size=64)  # two independent MatMuls on one device
        sess = tf.compat.v1.Session()
        sess.run(within)
        assert plan_of(sess).parallel and not plan_of(sess).per_device


def test_values_cross_devices_back_and_forth(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    rng = np.random.RandomState(0)
    with tf.compat.v1.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, shape=[64, 64], name="x")
        a, b = x, x * 2.0
        for _ in range(3):  # each round runs on both devices at once, each needing the other's last result
            with tf.device("/gpu:0"):
                next_a = tf.nn.relu(tf.matmul(a + b, x)) / 64.0
            with tf.device("/gpu:1"):
                next_b = tf.nn.relu(tf.matmul(b - a, x)) / 64.0
            a, b = next_a, next_b
        total = tf.reduce_sum(a) + tf.reduce_sum(b)
        feed = {x: rng.rand(64, 64).astype(np.float32)}
        sess = tf.compat.v1.Session()
        got = sess.run(total, feed)
        serial = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(inter_op_parallelism_threads=-1))
        expected = serial.run(total, feed)
    assert plan_of(sess).per_device
    np.testing.assert_allclose(got, expected, rtol=1e-5)
    source = "\n".join(p.source for p in next(iter(plan_of(sess).device_programs.values())).functions)
    assert "W(" in source and ".release()" in source  # waits on, and signals to, the other device


def test_host_devices_beyond_the_thread_budget_share_threads(make_context):
    make_context()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    with tf.compat.v1.Graph().as_default():
        total = two_branches(["/cpu:0", "/cpu:1", "/cpu:2", "/cpu:3"], size=64)
        config = tf.compat.v1.ConfigProto(inter_op_parallelism_threads=2)
        sess = tf.compat.v1.Session(config=config)
        expected = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(inter_op_parallelism_threads=-1)).run(total)
        value, stats = traced_run(sess, total)
    groups = thread_groups(plan_of(sess), 2)
    assert [[d.short_name for d in group] for group in groups] == [["CPU:0", "CPU:1"], ["CPU:2", "CPU:3"]]
    threads = {n.node_name[-1]: n.thread_id for n in stats.all_nodes() if n.node_name.startswith("first_")}
    assert threads["0"] == threads["1"] != threads["2"] == threads["3"]
    np.testing.assert_allclose(value, expected, rtol=1e-5)
    assert [len(g) for g in thread_groups(plan_of(sess), 4)] == [1, 1, 1, 1]


def test_a_failing_replica_cancels_the_collective_at_once(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"], cross_device_ops=tf.distribute.NcclAllReduce())

    @tf.function
    def step(logits, labels):
        def replica(logits, labels):
            loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
            return tf.distribute.get_replica_context().all_reduce("SUM", loss)
        return strategy.run(replica, args=(logits, labels))

    logits = strategy.experimental_distribute_values_from_function(lambda ctx: tf.zeros([2, 3]))
    good = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant([0, 1]))
    bad = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([0, 99 if ctx.replica_id_in_sync_group == 1 else 1]))
    expected = [np.log(3.0) * 2] * 2
    np.testing.assert_allclose([v.numpy() for v in strategy.experimental_local_results(step(logits, good))][0],
                               expected, rtol=1e-6)
    start = time.perf_counter()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Received a label value of 99"):
        step(logits, bad)
    assert time.perf_counter() - start < 10  # not the collective's 120 s timeout
    results = strategy.experimental_local_results(step(logits, good))  # the rendezvous was reset
    np.testing.assert_allclose(results[1].numpy(), expected, rtol=1e-6)


def test_rendezvous_abort_wakes_waiters_and_reset_reopens_it(make_context):
    import threading
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    from placeflow.distribute.collective import _runtime_device
    devices = [_runtime_device(f"/job:localhost/replica:0/task:0/device:GPU:{i}") for i in range(2)]
    group = Rendezvous(devices, "SUM")
    errors = []

    def first():
        try:
            group.arrive(0, np.ones(3, np.float32))
        except tf.errors.CancelledError as exc:
            errors.append(exc)
    waiter = threading.Thread(target=first)
    waiter.start()
    time.sleep(0.05)
    group.abort()
    waiter.join(5)
    assert not waiter.is_alive() and "cancelled" in errors[0].message
    with pytest.raises(tf.errors.CancelledError):
        group.arrive(1, np.ones(3, np.float32))
    group.reset()
    other = threading.Thread(target=lambda: errors.append(group.arrive(0, np.ones(3, np.float32))))
    other.start()
    np.testing.assert_array_equal(group.arrive(1, np.full(3, 2, np.float32)), [3, 3, 3])
    other.join(5)
    np.testing.assert_array_equal(errors[-1], [3, 3, 3])


def test_concurrent_callers_each_get_their_own_results(make_context):
    import threading
    make_context(PLACEFLOW_SIMULATED_GPUS="3")
    x = tf.constant(np.eye(64, dtype=np.float32))

    @tf.function
    def exchange(x):  # GPU:1 and GPU:2 each wait for the other: their lanes must not be held by two steps
        with tf.device("/gpu:0"):
            x = x * 1.0  # GPU:0's program runs in the calling thread, the other two on their lanes
        with tf.device("/gpu:1"):
            a = tf.matmul(x, x)
        with tf.device("/gpu:2"):
            b = tf.matmul(x * 2.0, x)
        with tf.device("/gpu:1"):
            c = a + b
        with tf.device("/gpu:2"):
            d = b - a
        with tf.device("/gpu:0"):
            return tf.reduce_sum(c + d)

    assert exchange(x).numpy() == 64 * 4
    results = []

    def caller():
        results.extend(exchange(x).numpy() for _ in range(50))
    threads = [threading.Thread(target=caller, daemon=True) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(t.is_alive() for t in threads)
    assert results == [64 * 4] * 150
    assert exchange.get_concrete_function(x)._plan.per_device
