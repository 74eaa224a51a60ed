"""`placeflow launch --ray`: the workers of a multi-worker program on Ray actors (a local Ray instance)."""

import importlib.util
import json
import re
import subprocess
import sys

import pytest

from . import loopback
from .test_multi_worker import PROGRAMS

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ray") is None or importlib.util.find_spec("torch") is None,
                                reason="needs Ray (the `ray` extra) and torch (the `distributed` extra)")


def launch_on_ray(tmp_path, *args):
    """`placeflow launch --ray ARGS` with a private Ray home on loopback: (exit status, output)."""
    env = loopback.worker_env(HOME=tmp_path, RAY_USAGE_STATS_ENABLED=0, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0)
    done = subprocess.run([sys.executable, "-m", "placeflow.tools.cli", "launch", "--ray", *args], env=env,
                          capture_output=True, text=True, timeout=240, cwd=tmp_path)
    return done.returncode, done.stdout + done.stderr


def test_each_worker_runs_on_a_ray_actor_with_its_tf_config(tmp_path):
    status, output = launch_on_ray(tmp_path, "-n", "2", str(PROGRAMS), "linear")
    assert status == 0, output[-3000:]
    results = {match.group(1): json.loads(match.group(2))
               for match in re.finditer(r"\[(worker \d)\] RESULT (.*)", output)}
    assert sorted(results) == ["worker 0", "worker 1"], output[-3000:]
    alone = loopback.run_alone(PROGRAMS, "linear")
    for result in results.values():
        assert result["replicas"] == 2 and result["w"] == pytest.approx(alone["w"], abs=1e-6)


def test_a_failing_worker_on_ray_stops_the_run_with_its_status(tmp_path):
    script = tmp_path / "worker.py"
    script.write_text("import json, os, sys, time\n"
                      "if json.loads(os.environ['TF_CONFIG'])['task']['index'] == 1:\n    sys.exit(4)\n"
                      "time.sleep(120)\n")
    status, output = launch_on_ray(tmp_path, "-n", "2", str(script))
    assert status == 4 and "worker 1 exited with 4; stopping the other workers" in output, output[-3000:]
