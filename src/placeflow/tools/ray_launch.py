"""`placeflow launch --ray`: run a multi-worker program on a Ray cluster, one Ray actor per worker.

As Ray Train's TensorFlow trainer does, each worker is an actor holding its share of the cluster's
resources (`--gpus-per-worker`: Ray sets CUDA_VISIBLE_DEVICES for it); the actors report their node's
address and a free port, the launcher builds the TF_CONFIG cluster from them, and each actor runs the
program with its TF_CONFIG in a child process. Ray forwards the workers' output to this terminal. When
a worker fails, the others are stopped and the launcher exits with its status.

Ray is an optional extra (`pip install 'placeflow[ray]'`); `--ray-address` joins an existing cluster
('auto' finds the local one), and without it a local Ray instance is started for the run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import deque

from ..distribute.cluster import worker_tasks
from .launch import cluster_for, free_ports


class _Worker:
    """A Ray actor running one worker of the program in a child process."""

    def __init__(self):
        self._child = None

    def address(self) -> str:
        """'ip:port' of this actor's node, with a port free there now."""
        import ray
        host = ray.util.get_node_ip_address()
        return f"{host}:{free_ports(host, 1)[0]}"

    def run(self, script, script_args, tf_config, label, cwd):
        """(exit status, last lines printed) of the program run with `tf_config`."""
        env = dict(os.environ, TF_CONFIG=tf_config, PYTHONUNBUFFERED="1")
        self._child = subprocess.Popen([sys.executable, script, *script_args], env=env, cwd=cwd, text=True,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        tail = deque(maxlen=50)
        for line in self._child.stdout:
            print(f"[{label}] {line}", end="", flush=True)
            tail.append(line)
        return self._child.wait(), "".join(tail)

    def stop(self) -> None:
        """Terminate the program (another worker failed)."""
        if self._child is not None and self._child.poll() is None:
            self._child.terminate()


def launch_on_ray(script, script_args, num_workers: int, address=None, gpus_per_worker: float = 0,
                  cpus_per_worker: float = 1, chief: bool = False) -> int:
    """Run `script` as `num_workers` workers on Ray actors; the first failing worker's status, else 0."""
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")  # the workers print alike lines: Ray would fold them into one
    ray = _import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, include_dashboard=False)
    try:
        actor = ray.remote(num_cpus=cpus_per_worker, num_gpus=gpus_per_worker, max_concurrency=2)(_Worker)
        workers = [actor.remote() for _ in range(num_workers)]
        cluster = cluster_for(ray.get([w.address.remote() for w in workers]), chief)
        labels = [f"{job} {index}" for job, index in worker_tasks(cluster)]
        runs = {w.run.remote(os.path.abspath(script), list(script_args),
                             json.dumps({"cluster": cluster, "task": {"type": job, "index": index}}), label,
                             os.getcwd()): label
                for w, (job, index), label in zip(workers, worker_tasks(cluster), labels)}
        return _wait(ray, runs, workers)
    finally:
        if started_here:
            ray.shutdown()


def _wait(ray, runs: dict, workers) -> int:
    pending = list(runs)
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        status, tail = ray.get(done[0])
        if status:
            print(f"placeflow launch: {runs[done[0]]} exited with {status}; stopping the other workers.\n{tail}",
                  file=sys.stderr)
            ray.get([w.stop.remote() for w in workers])
            ray.get(pending)
            return status
    return 0


def _import_ray():
    try:
        import ray
    except ImportError:
        raise ImportError("placeflow launch --ray runs the workers on Ray actors, and Ray is not installed: "
                          "pip install 'placeflow[ray]' (or pip install ray).") from None
    return ray
