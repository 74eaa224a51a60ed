"""Start the workers of a cluster as processes on 127.0.0.1, each with its TF_CONFIG, and read their results."""

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parents[1] / "src"


def free_ports(count: int) -> list:
    """`count` TCP ports free on 127.0.0.1 right now."""
    sockets = [socket.create_server(("127.0.0.1", 0)) for _ in range(count)]
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def tf_config(ports, index: int, job: str = "worker") -> str:
    """TF_CONFIG of task `index` of a one-job cluster on `ports`."""
    return tf_config_for({job: [f"127.0.0.1:{p}" for p in ports]}, job, index)


def tf_config_for(cluster: dict, job: str, index: int) -> str:
    """TF_CONFIG of task `index` of `job` in `cluster`."""
    return json.dumps({"cluster": cluster, "task": {"type": job, "index": index}})


def worker_env(config=None, **extra) -> dict:
    """The environment of a worker process: placeflow from this checkout, no CUDA, TF_CONFIG when given."""
    env = {k: v for k, v in os.environ.items() if k != "TF_CONFIG"}
    env.update(PYTHONPATH=os.pathsep.join([str(SRC), str(HERE)]), PLACEFLOW_DISABLE_CUDA="1",
               PLACEFLOW_SIMULATED_GPUS="0", PYTHONUNBUFFERED="1")
    if config is not None:
        env["TF_CONFIG"] = config
    env.update({k: str(v) for k, v in extra.items()})
    if env.get("PLACEFLOW_DISABLE_CUDA") == "":
        del env["PLACEFLOW_DISABLE_CUDA"]  # PLACEFLOW_DISABLE_CUDA="" given: the worker may use CUDA
    return env


def start(script, args, env) -> subprocess.Popen:
    """A worker process running `script` with `args`."""
    return subprocess.Popen([sys.executable, str(script), *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def result(process, timeout: float = 90.0) -> dict:
    """The RESULT line a worker printed (the first one), failing with its output when there is none."""
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        raise AssertionError(f"worker did not finish within {timeout} s:\n{out}\n{err[-3000:]}") from None
    for line in out.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise AssertionError(f"worker exited {process.returncode} without a result:\n{out}\n{err[-3000:]}")


def run_cluster(script, program: str, workers: int = 2, timeout: float = 90.0, **extra) -> list:
    """Every worker's result of `program`, in task order."""
    ports = free_ports(workers)
    processes = [start(script, [program], worker_env(tf_config(ports, i), **extra)) for i in range(workers)]
    try:
        return [result(p, timeout) for p in processes]
    finally:
        for p in processes:
            if p.poll() is None:
                p.kill()


def run_alone(script, program: str, timeout: float = 90.0, **extra) -> dict:
    """`program`'s result in one process without TF_CONFIG (the single-worker reference)."""
    return result(start(script, [program], worker_env(**extra)), timeout)


def start_servers(job: str = "worker", tasks: int = 2, **extra) -> tuple:
    """(cluster dict, processes): `tasks` task servers of `job` on free ports, each ready to serve."""
    cluster = {job: [f"127.0.0.1:{p}" for p in free_ports(tasks)]}
    processes = [start(HERE / "task_server.py", [json.dumps(cluster), job, str(i)], worker_env(**extra))
                 for i in range(tasks)]
    for process in processes:
        line = process.stdout.readline()
        if not line.startswith("READY"):
            for p in processes:
                p.kill()
            raise AssertionError(f"task server did not start: {line}{process.stderr.read()[-3000:]}")
    return cluster, processes
