"""A task killed while the collective group forms, and restarted: the cluster forms again with the restart.

Each test starts real task processes on loopback (restart_program.py); one of them dies (SIGKILL) after it
joined the rendezvous and before its gloo group connected, and its restart (a new process, imports done
beforehand) then forms the cluster with the survivor. Every wait has a timeout; every process is killed in
`finally`. benchmarks/cluster_startup.py runs these faults and others many times, at random moments.
"""

import importlib.util
import os
import select
import subprocess
import sys
import time

import pytest

from . import loopback

PROGRAM = loopback.HERE / "restart_program.py"
needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                 reason="needs torch.distributed (gloo): the `distributed` extra")
# The survivor stops waiting for the dead task's gloo connection once the restart joins, or at the latest at
# the collective deadline (1 s here); the rendezvous deadline (20 s) bounds a group that cannot form at all.
ENV = {"PLACEFLOW_COLLECTIVE_TIMEOUT_S": "1", "PLACEFLOW_RENDEZVOUS_TIMEOUT_S": "20"}


def _kill_and_restart(victim_task: int, **victim_env) -> list:
    """Results of [task 0, task 1] after task `victim_task` died while forming and was restarted."""
    ports = loopback.free_ports(2)
    config = [loopback.tf_config(ports, index) for index in (0, 1)]
    replacement = subprocess.Popen([sys.executable, str(PROGRAM)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True,
                                   env=loopback.worker_env(config[victim_task], WAIT_FOR_GO="1", **ENV))
    survivor = loopback.start(PROGRAM, [], loopback.worker_env(config[1 - victim_task], **ENV))
    victim = loopback.start(PROGRAM, [], loopback.worker_env(config[victim_task], DIE_IN="gloo", **victim_env, **ENV))
    processes = [replacement, survivor, victim]
    try:
        assert select.select([replacement.stdout], [], [], 60)[0], "the restart did not get ready within 60 s"
        assert replacement.stdout.readline().strip() == "READY"
        victim.wait(timeout=60)
        assert victim.returncode == -9, victim.communicate(timeout=10)
        replacement.stdin.write("go\n")
        replacement.stdin.flush()
        results = {1 - victim_task: loopback.result(survivor, 30), victim_task: loopback.result(replacement, 30)}
        return [results[0], results[1]]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=10)


@needs_torch
def test_a_worker_killed_while_the_group_forms_is_replaced_by_its_restart():
    """Before rounds, the chief waited in the dead worker's generation and the restart in the next one:
    neither formed, and both raised at the rendezvous deadline."""
    chief, worker = _kill_and_restart(victim_task=1)
    assert chief["sum"] == worker["sum"] == 2.0 and chief["workers"] == worker["workers"] == 2


@needs_torch
def test_a_worker_waiting_for_the_group_rides_out_a_chief_killed_and_restarted_meanwhile():
    """The chief's store dies with it (1 s after it began connecting: the worker has joined and waits): the
    worker meets its successor's store. Before, the worker raised UnavailableError."""
    chief, worker = _kill_and_restart(victim_task=0, DIE_AFTER_S=1)
    assert chief["sum"] == worker["sum"] == 2.0 and chief["workers"] == worker["workers"] == 2


def _running(pid: int) -> bool:
    """Whether process `pid` exists and has not exited (a zombie waiting for its reaper has)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the launcher's parent-death signal is Linux's")
def test_the_workers_of_a_killed_launcher_stop_instead_of_keeping_the_cluster_ports(tmp_path):
    """`placeflow launch` killed with SIGKILL: its worker gets SIGTERM (it went on before, as an orphan holding
    the chief's port, so that a restarted chief could not serve the rendezvous)."""
    pid_file = tmp_path / "pid"
    script = tmp_path / "worker.py"
    script.write_text(f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\ntime.sleep(60)\n")
    launcher = subprocess.Popen([sys.executable, "-m", "placeflow.tools.cli", "launch", "-n", "1", str(script)],
                                env=loopback.worker_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid = None
    try:
        deadline = time.monotonic() + 60
        while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        pid = int(pid_file.read_text())
        launcher.kill()
        launcher.wait(timeout=10)
        deadline = time.monotonic() + 10
        while _running(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _running(pid), "the worker outlived its launcher"
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait(timeout=10)
        if pid is not None and _running(pid):
            os.kill(pid, 9)
