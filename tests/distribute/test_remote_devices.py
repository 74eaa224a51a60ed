"""tf.distribute.Server tasks in other processes, reached with experimental_connect_to_cluster (loopback)."""

import time

import numpy as np
import pytest

import placeflow as tf
from placeflow.distribute import remote
from placeflow.placement import cluster_devices

from . import loopback


@pytest.fixture
def cluster():
    """Two worker task servers on loopback; the client connection is closed afterwards."""
    spec, processes = loopback.start_servers("worker", 2, PLACEFLOW_SIMULATED_GPUS=2)
    yield spec, processes
    remote.disconnect()
    for process in processes:
        process.kill()
        process.wait()


def test_a_client_lists_remote_devices_and_runs_matmul_on_task_1(cluster):
    spec, _ = cluster
    tf.config.experimental_connect_to_cluster(tf.train.ClusterSpec(spec))
    names = [d.name for d in tf.config.list_logical_devices("CPU")]
    assert names == ["/device:CPU:0", "/job:worker/replica:0/task:0/device:CPU:0",
                     "/job:worker/replica:0/task:1/device:CPU:0"]
    with tf.device("/job:worker/task:1"):
        a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        product = tf.matmul(a, a)
    assert product.device == "/job:worker/replica:0/task:1/device:CPU:0"
    np.testing.assert_allclose(product.numpy(), [[7.0, 10.0], [15.0, 22.0]])
    local = product + 1.0  # a remote tensor read by a local op: copied here
    assert local.device == "/job:localhost/replica:0/task:0/device:CPU:0" and float(local[0, 0]) == 8.0
    assert tf.constant(1.0).device.startswith("/job:localhost")  # unqualified names stay local
    before = tf.config.experimental.get_memory_info("CPU:0")["current"]
    with tf.device("/job:worker/task:1/device:CPU:0"):
        big = tf.matmul(tf.ones([256, 256]), tf.ones([256, 256]))
    held = tf.config.experimental.get_memory_info("CPU:0")["current"] - before
    assert held >= 256 * 256 * 4  # the remote result's value kept here counts to this host
    del big
    assert tf.config.experimental.get_memory_info("CPU:0")["current"] - before < held


def test_a_function_spanning_two_tasks_ships_each_part_once(cluster):
    spec, _ = cluster
    tf.config.experimental_connect_to_cluster(spec)

    @tf.function
    def step(x):
        with tf.device("/job:worker/task:0"):
            y = tf.matmul(x, x) + 1.0
        with tf.device("/job:worker/task:1/device:CPU:0"):
            z = tf.reduce_sum(y * 2.0)
        return z, y - 1.0

    shipped = []
    channels = {d.channel for d in cluster_devices.remote_devices()}
    for channel in channels:
        original = channel.ship_segment
        channel.ship_segment = lambda key, payload, original=original: (shipped.append(key), original(key, payload))
    for scale in (1.0, 2.0, 3.0):
        z, y = step(tf.constant(np.eye(2, dtype=np.float32) * scale))
        x = np.eye(2) * scale
        assert float(z) == pytest.approx(2 * (x @ x + 1).sum())
        np.testing.assert_allclose(y.numpy(), x @ x)
    assert len(shipped) == 2  # one segment per task, sent on the first call only
    rows = {(row["op"], row["device"]) for row in tf.experimental.placement_report().ops}
    # an unqualified task device prefers its GPUs, as any placement does
    assert {("MatMul", "/job:worker/task:0/GPU:0"), ("Sum", "/job:worker/task:1/CPU:0")} <= rows


def test_remote_errors_keep_their_class_and_a_killed_task_is_unavailable(cluster):
    spec, processes = cluster
    tf.config.experimental_connect_to_cluster(spec)
    with tf.device("/job:worker/task:0"):
        with pytest.raises(tf.errors.InvalidArgumentError, match="MatMul"):
            tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))
    processes[1].kill()
    processes[1].wait()
    start = time.monotonic()
    with pytest.raises(tf.errors.UnavailableError, match="task:1 .* is unreachable"):
        with tf.device("/job:worker/task:1"):
            tf.matmul(tf.ones([2, 2]), tf.ones([2, 2]))
    assert time.monotonic() - start < 10.0
    with tf.device("/job:worker/task:0"):  # the other task still serves
        assert float(tf.reduce_sum(tf.ones([2, 2]))) == 4.0


def test_a_cluster_key_is_required_when_the_servers_have_one(monkeypatch):
    spec, processes = loopback.start_servers("worker", 1, PLACEFLOW_CLUSTER_KEY="s3cret")
    try:
        monkeypatch.setenv("PLACEFLOW_CLUSTER_KEY", "wrong")
        with pytest.raises(tf.errors.UnauthenticatedError, match="refused this client's key"):
            tf.config.experimental_connect_to_cluster(spec)
        monkeypatch.setenv("PLACEFLOW_CLUSTER_KEY", "s3cret")
        tf.config.experimental_connect_to_cluster(spec)
        with tf.device("/job:worker/task:0"):
            assert float(tf.reduce_sum(tf.ones([3]))) == 3.0
    finally:
        remote.disconnect()
        for process in processes:
            process.kill()


def test_a_server_listens_only_at_its_address_and_names_its_own_task_locally():
    cluster = {"worker": [f"127.0.0.1:{loopback.free_ports(1)[0]}"]}
    server = tf.distribute.Server(cluster, job_name="worker", task_index=0)
    try:
        assert server.target == f"grpc://{cluster['worker'][0]}"
        with pytest.raises(tf.errors.UnavailableError, match="Another process probably serves"):
            tf.distribute.Server(cluster, job_name="worker", task_index=0)
        with tf.device("/job:worker/task:0/device:CPU:0"):
            assert tf.constant(2.0).device == "/job:localhost/replica:0/task:0/device:CPU:0"
    finally:
        server._stop()
        cluster_devices.set_identity(None, None)
    with pytest.raises(ValueError, match="`task_index` must be given"):
        tf.distribute.Server({"worker": ["127.0.0.1:1", "127.0.0.1:2"]}, job_name="worker", start=False)
    with pytest.raises(NotImplementedError, match="config"):
        tf.distribute.Server(cluster, config=object(), start=False)


def test_without_a_connection_other_jobs_are_unknown_devices():
    with pytest.raises(RuntimeError, match="connect to the cluster first"):
        with tf.device("/job:worker/task:1"):
            tf.constant(1.0) + 1.0


def test_a_session_graph_runs_its_remote_part_in_the_task(cluster):
    spec, _ = cluster
    tf.config.experimental_connect_to_cluster(spec)
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 2])
        with tf.device("/job:worker/task:1"):
            y = tf.matmul(x, x)
        z = y + 1.0
    with tf.compat.v1.Session(graph=graph) as session:
        for scale in (1.0, 3.0):
            np.testing.assert_allclose(session.run(z, {x: np.eye(2) * scale}), np.eye(2) * scale ** 2 + 1.0)
            np.testing.assert_allclose(session.run(y, {x: np.eye(2) * scale}), np.eye(2) * scale ** 2)


def test_a_segment_may_span_a_tasks_cpu_and_gpus_and_variables_stay_in_their_task(cluster):
    spec, _ = cluster
    tf.config.experimental_connect_to_cluster(spec)
    assert "/job:worker/replica:0/task:1/device:GPU:1" in [d.name for d in tf.config.list_logical_devices("GPU")]
    scale = tf.Variable(2.0)  # this process's variable: its read stays here, its value flows to the task

    @tf.function
    def step(x):
        with tf.device("/job:worker/task:1/device:GPU:1"):
            y = x * scale
        with tf.device("/job:worker/task:1/device:CPU:0"):
            return y + 1.0

    assert step(tf.constant([1.0, 2.0])).numpy().tolist() == [3.0, 5.0]
    rows = {(row["op"], row["device"]) for row in tf.experimental.placement_report().ops}
    assert {("Mul", "/job:worker/task:1/GPU:1"), ("AddV2", "/job:worker/task:1/CPU:0")} <= rows
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/job:worker/task:0"):
            remote_variable = tf.compat.v1.Variable(1.0)
            doubled = remote_variable * 2.0
    with tf.compat.v1.Session(graph=graph) as session:
        with pytest.raises(NotImplementedError, match="keeps variables and inputs in the task that made them"):
            session.run(doubled)


def test_an_idle_connection_does_not_stop_a_keyed_server_from_accepting_others(monkeypatch):
    """A connection that never answers the key challenge is dropped after the handshake deadline, and other
    clients are served meanwhile (the challenge used to run inside the only accept loop)."""
    import socket
    spec, processes = loopback.start_servers("worker", 1, PLACEFLOW_CLUSTER_KEY="s3cret")
    host, port = spec["worker"][0].rsplit(":", 1)
    idle = socket.create_connection((host, int(port)), timeout=5)
    try:
        monkeypatch.setenv("PLACEFLOW_CLUSTER_KEY", "s3cret")
        tf.config.experimental_connect_to_cluster(spec)
        with tf.device("/job:worker/task:0"):
            assert float(tf.reduce_sum(tf.ones([4]))) == 4.0
    finally:
        idle.close()
        remote.disconnect()
        for process in processes:
            process.kill()


def test_a_client_handshake_has_a_deadline(monkeypatch):
    """A 'server' that accepts and never answers the challenge fails the client with UnavailableError."""
    import socket
    import threading
    from placeflow.distribute.remote import channel
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    accepted = []
    threading.Thread(target=lambda: accepted.append(listener.accept()), daemon=True).start()
    monkeypatch.setenv("PLACEFLOW_CLUSTER_KEY", "s3cret")
    monkeypatch.setattr(channel, "HANDSHAKE_TIMEOUT_S", 0.5)
    try:
        with pytest.raises(tf.errors.UnavailableError, match="did not complete the key challenge"):
            channel.TaskChannel("worker", 0, f"127.0.0.1:{listener.getsockname()[1]}", timeout_s=2)
    finally:
        listener.close()


def test_malformed_requests_answer_with_tensorflow_error_classes(cluster):
    from placeflow.distribute.remote import channel
    spec, _ = cluster
    task = channel.TaskChannel("worker", 0, spec["worker"][0])
    for message in [("run", "no-such-segment", []), ("op",), ("nonsense",), ("ship", None, None)]:
        with pytest.raises(tf.errors.InvalidArgumentError):
            task.request(*message)
    assert task.devices()  # the connection still serves
