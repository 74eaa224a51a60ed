"""The GIL-aware order of per-device programs: valid, variable-safe, and staggering replicas' threads."""

from types import SimpleNamespace

import numpy as np
import pytest

import placeflow as tf
from placeflow.graph import device_programs, schedule
from placeflow.graph.device_programs import thread_groups

VALUE_KINDS = ("const", "feed")


def four_cpus():
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)


def towers(rows=256):
    """Four replica-like towers (a long MatMul, small ops, a long MatMul), summed on CPU:0."""
    rng = np.random.RandomState(0)
    outs = []
    for k in range(4):
        with tf.device(f"/cpu:{k}"):
            x = tf.constant(rng.rand(rows, 784).astype(np.float32), name=f"x{k}")
            w = tf.constant(rng.rand(784, 256).astype(np.float32) / 784, name=f"w{k}")
            h = tf.matmul(x, w, name=f"first_{k}")
            small = tf.nn.relu(h - 0.5, name=f"relu_{k}")
            outs.append(tf.matmul(x, small, transpose_a=True, name=f"second_{k}"))
    with tf.device("/cpu:0"):
        return tf.add_n(outs, name="total")


def run_two_threads(fetch):
    sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(inter_op_parallelism_threads=2))
    value = sess.run(fetch)
    plan = next(iter(sess._plans.values()))
    owner = {d.name: k for k, group in enumerate(thread_groups(plan, 2)) for d in group}
    return value, plan, owner


def names_in_order(plan, order, owner, thread):
    return [plan.nodes[i].name for i in order if owner.get(plan.nodes[i].device.name) == thread]


@pytest.fixture
def scheduled_towers(make_context):
    """The towers run on two threads: (value, serial value, plan, owner, the schedule's order)."""
    make_context()
    four_cpus()
    with tf.compat.v1.Graph().as_default():
        value, plan, owner = run_two_threads(towers())
        serial = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(inter_op_parallelism_threads=-1))
        expected = serial.run(tf.compat.v1.get_default_graph().get_tensor_by_name("total:0"))
    return value, expected, plan, owner, schedule.gil_aware_order(plan, owner)


def test_the_order_is_topological_and_complete(scheduled_towers):
    _, _, plan, _, order = scheduled_towers
    computed = [n.index for n in plan.nodes if n.kind not in VALUE_KINDS]
    assert sorted(order) == computed
    position = {index: k for k, index in enumerate(order)}
    for index in order:
        node = plan.nodes[index]
        for source in [s for s, _ in node.inputs] + list(node.controls):
            if plan.nodes[source].kind not in VALUE_KINDS:
                assert position[source] < position[index], f"{plan.nodes[source].name} after {node.name}"


def test_a_thread_with_two_replicas_staggers_its_long_matmuls_against_the_other_thread(scheduled_towers):
    value, expected, plan, owner, order = scheduled_towers
    first = names_in_order(plan, order, owner, 0)
    second = names_in_order(plan, order, owner, 1)
    # thread 0 runs its replicas one after the other; thread 1 starts both long MatMuls first, so its
    # small ops fall while thread 0 runs a long MatMul, not its own small ops
    assert first.index("first_0") < first.index("relu_0") < first.index("first_1")
    assert second.index("first_2") < second.index("first_3") < second.index("relu_2")
    np.testing.assert_allclose(value, expected, rtol=1e-5)


def test_values_from_the_other_thread_are_taken_after_local_work(scheduled_towers):
    _, _, plan, owner, order = scheduled_towers
    mine = [plan.nodes[i] for i in order if owner[plan.nodes[i].device.name] == 0]
    first_remote = next(k for k, n in enumerate(mine) if n.kind == "recv" and n.device.name.endswith("CPU:0")
                        and owner[plan.nodes[n.inputs[0][0]].device.name] == 1)
    last_local_matmul = max(k for k, n in enumerate(mine) if n.type == "MatMul")
    assert first_remote > last_local_matmul


def test_a_write_then_read_of_one_variable_keeps_its_order(make_context):
    make_context()
    four_cpus()
    with tf.compat.v1.Graph().as_default():
        with tf.device("/cpu:0"):
            v = tf.Variable(np.zeros(4, np.float32), name="v")
        total = towers()
        with tf.device("/cpu:0"):
            write = v.assign(tf.ones(4), name="write")
            read = tf.identity(v.read_value(), name="read")  # no control edge: the plan's order says after
        sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(inter_op_parallelism_threads=2))
        sess.run(v.initializer)
        _, _, got = sess.run([total, write, read])
        plan = next(p for p in sess._plans.values() if any(n.name == "total" for n in p.nodes))
    owner = {d.name: k for k, group in enumerate(thread_groups(plan, 2)) for d in group}
    order = schedule.gil_aware_order(plan, owner)
    write_at = next(k for k, i in enumerate(order) if plan.nodes[i].name == "write")
    reads_at = [k for k, i in enumerate(order) if plan.nodes[i].kind == "deref" and plan.nodes[i].name == "v"]
    assert plan.per_device and reads_at and all(k > write_at for k in reads_at)
    np.testing.assert_array_equal(got, np.ones(4, np.float32))


def fake_plan(types, cuda=False):
    device = SimpleNamespace(name="d", host_backed=not cuda)
    return SimpleNamespace(nodes=[SimpleNamespace(index=i, type=t, kind="kernel", device=device)
                                  for i, t in enumerate(types)])


def test_collectives_gpus_and_single_threads_keep_plan_order():
    collective = fake_plan(["MatMul", "_NcclAllReduce", "Relu"])
    assert device_programs._run_order(collective, {"d": 0}, 2) == [0, 1, 2]
    assert device_programs._run_order(fake_plan(["MatMul", "Relu"], cuda=True), {"d": 0}, 2) == [0, 1]
    assert device_programs._run_order(fake_plan(["MatMul", "Relu"]), {"d": 0}, 1) == [0, 1]
