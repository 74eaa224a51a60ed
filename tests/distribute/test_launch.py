"""`placeflow launch`: workers started with their TF_CONFIG, output labelled, failures stop the rest."""

import subprocess
import sys
import time

from . import loopback
from .test_multi_worker import PROGRAMS, needs_torch


def launch(*args, timeout=120):
    """`placeflow launch ARGS` as a subprocess: (exit status, output)."""
    done = subprocess.run([sys.executable, "-m", "placeflow.tools.cli", "launch", *args], env=loopback.worker_env(),
                          capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout + done.stderr


@needs_torch
def test_launch_runs_every_worker_of_a_multi_worker_program():
    status, output = launch("-n", "2", str(PROGRAMS), "linear")
    assert status == 0, output
    lines = [line for line in output.splitlines() if "RESULT" in line]
    assert sorted(line.split("]")[0] for line in lines) == ["[worker 0", "[worker 1"]
    assert all('"replicas": 2' in line for line in lines)


def test_a_failing_worker_stops_the_others_and_sets_the_exit_status(tmp_path):
    script = tmp_path / "worker.py"
    script.write_text("import json, os, sys, time\n"
                      "task = json.loads(os.environ['TF_CONFIG'])['task']\n"
                      "print('task', task['type'], task['index'], flush=True)\n"
                      "if task['index'] == 1:\n    sys.exit(3)\n"
                      "time.sleep(60)\n")
    start = time.monotonic()
    status, output = launch("-n", "3", "--chief", str(script))
    assert status == 3 and time.monotonic() - start < 30, output
    assert "[chief 0] task chief 0" in output and "[worker 0] task worker 0" in output
    assert "worker 1 exited with 3; stopping the other workers" in output


def test_launch_refuses_incomplete_cluster_arguments(tmp_path):
    status, output = launch("--workers", "127.0.0.1:1,127.0.0.1:2", "x.py")
    assert status == 2 and "--workers needs --index" in output
    status, output = launch("x.py")
    assert status == 2 and "either -n N" in output
