"""Two test hosts in network namespaces (root and iproute2; skipped elsewhere): a MultiWorkerMirroredStrategy
across real addresses, and partitions (the link taken down, so no connection reset reaches anyone)."""

import importlib.util

import pytest

from . import loopback, netns_hosts
from .test_multi_worker import PROGRAMS

WHY_NOT = netns_hosts.available() or ("" if importlib.util.find_spec("torch") else
                                      "needs torch (the `distributed` extra)")
pytestmark = pytest.mark.skipif(bool(WHY_NOT), reason=WHY_NOT or "available")


@pytest.fixture
def hosts():
    made = netns_hosts.TwoHosts()
    yield made
    made.close()


def test_two_workers_on_two_hosts_reproduce_single_process_training(hosts):
    workers = [hosts.run_in(i, [loopback.sys.executable, str(PROGRAMS), "linear"],
                            loopback.worker_env(netns_hosts.tf_config(hosts, i))) for i in range(2)]
    results = [loopback.result(w) for w in workers]
    alone = loopback.run_alone(PROGRAMS, "linear")
    assert all(r["w"] == pytest.approx(alone["w"], abs=1e-6) and r["replicas"] == 2 for r in results)


def test_a_partitioned_worker_fails_the_step_at_the_collective_deadline(hosts):
    env = {"STEP_TIMEOUT": "3"}
    survivor = hosts.run_in(0, [loopback.sys.executable, str(PROGRAMS), "fault", "survivor"],
                            loopback.worker_env(netns_hosts.tf_config(hosts, 0), **env))
    partitioned = hosts.run_in(1, [loopback.sys.executable, str(PROGRAMS), "fault", "silent"],
                               loopback.worker_env(netns_hosts.tf_config(hosts, 1), **env))
    assert partitioned.stdout.readline().startswith("RESULT")  # its first step is done: now cut it off
    hosts.link(False)
    out = loopback.result(survivor)
    assert out["error"] == "UnavailableError" and out["seconds"] < 8.0, out


def test_a_client_sees_a_partitioned_task_server_as_unavailable_within_seconds(hosts, tmp_path):
    cluster = {"worker": [f"{hosts.addresses[1]}:23457"]}
    server = hosts.run_in(1, [loopback.sys.executable, str(loopback.HERE / "task_server.py"),
                              loopback.json.dumps(cluster), "worker", "0"], loopback.worker_env())
    assert server.stdout.readline().startswith("READY")
    flag = tmp_path / "partitioned"
    client_code = (
        "import json, os, time\n"
        "import placeflow as tf\n"
        f"tf.config.experimental_connect_to_cluster({cluster!r})\n"
        "with tf.device('/job:worker/task:0'):\n"
        "    print('first', float(tf.reduce_sum(tf.ones([2]))), flush=True)\n"
        f"    while not os.path.exists({str(flag)!r}):\n"
        "        time.sleep(0.05)\n"
        "    start = time.monotonic()\n"
        "    try:\n"
        "        tf.reduce_sum(tf.ones([2]))\n"
        "        print('RESULT', json.dumps({'error': None}), flush=True)\n"
        "    except tf.errors.UnavailableError:\n"
        "        print('RESULT', json.dumps({'error': 'UnavailableError', 'seconds': time.monotonic() - start}))\n")
    client = hosts.run_in(0, [loopback.sys.executable, "-c", client_code], loopback.worker_env())
    assert client.stdout.readline().startswith("first")
    hosts.link(False)
    flag.touch()
    out = loopback.result(client, timeout=60)
    assert out["error"] == "UnavailableError" and out["seconds"] < 15.0, out
