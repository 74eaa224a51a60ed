"""`placeflow launch`: start the workers of a multi-worker program, each with its TF_CONFIG.

- One host: `placeflow launch -n 2 train.py ARGS` picks free ports on 127.0.0.1 (or --host), starts
  worker 0..n-1 as `python train.py ARGS` and prefixes each line they print with `[worker i]`.
- Several hosts: on each host, `placeflow launch --workers h0:p0,h1:p1 --index i train.py` starts task i
  only, with the cluster given.
If a worker fails, the launcher stops the others (they would fail their next collective anyway) and exits
with the failed worker's status; Ctrl-C stops every worker; on Linux a launcher that dies (even by SIGKILL)
takes its workers along (SIGTERM).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

from ..distribute.cluster import worker_tasks


def free_ports(host: str, count: int) -> list:
    """`count` TCP ports free on `host` right now."""
    sockets = [socket.create_server((host, 0)) for _ in range(count)]
    try:
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def cluster_for(workers: list, chief: bool) -> dict:
    """The ClusterSpec dict of `workers` addresses (the first is the chief when `chief`)."""
    if chief:
        return {"chief": workers[:1], "worker": workers[1:]} if len(workers) > 1 else {"chief": workers}
    return {"worker": list(workers)}


def launch(script: str, script_args, num_workers=None, host="127.0.0.1", workers=None, index=None,
           chief=False) -> int:
    """Run `script` as the cluster's workers (all of them, or task `index` of `workers`); their exit status."""
    addresses = workers.split(",") if workers else [f"{host}:{p}" for p in free_ports(host, num_workers)]
    cluster = cluster_for(addresses, chief)
    tasks = worker_tasks(cluster)
    chosen = [tasks[index]] if index is not None else tasks
    processes = [_start(script, script_args, cluster, job, i) for job, i in chosen]
    return _supervise(processes, [f"{job} {i}" for job, i in chosen])


def _start(script, script_args, cluster, job, index):
    env = dict(os.environ, PYTHONUNBUFFERED="1",
               TF_CONFIG=json.dumps({"cluster": cluster, "task": {"type": job, "index": index}}))
    return subprocess.Popen([sys.executable, script, *script_args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1,
                            preexec_fn=_stop_with_launcher if sys.platform.startswith("linux") else None)


def _stop_with_launcher() -> None:
    """In the worker, before it runs (Linux): SIGTERM when the launcher dies, even killed with SIGKILL, so no
    orphaned worker keeps the cluster's ports (a restarted chief could not serve its rendezvous)."""
    import ctypes
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG


def _forward(process, label: str) -> None:
    for line in process.stdout:
        sys.stdout.write(f"[{label}] {line}")
        sys.stdout.flush()


def _supervise(processes, labels) -> int:
    threads = [threading.Thread(target=_forward, args=(p, label), daemon=True) for p, label in zip(processes, labels)]
    for thread in threads:
        thread.start()
    status = 0
    try:
        while any(p.poll() is None for p in processes):
            failed = [p for p in processes if p.poll() not in (None, 0)]
            if failed:
                status = failed[0].returncode
                print(f"placeflow launch: {labels[processes.index(failed[0])]} exited with {status}; stopping the "
                      "other workers.", file=sys.stderr)
                _stop(processes)
                break
            time.sleep(0.05)
    except KeyboardInterrupt:
        _stop(processes)
        status = 130
    for thread in threads:
        thread.join(timeout=5)
    codes = [p.wait() for p in processes]
    return status or next((c for c in codes if c), 0)


def _stop(processes) -> None:
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 5
    for process in processes:
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
