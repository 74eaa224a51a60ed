"""Cluster start-up of MultiWorkerMirroredStrategy on loopback, end to end with default settings: kill/restart
cycles and tasks started apart.

    python3 benchmarks/cluster_startup.py [--cycles 10] [--faults all] [--gaps 15,30]
        [--recovery exit|reform] [--seed 0] [--src SRC]

A 2-worker cluster (TF_CONFIG: a 'chief' and a 'worker' task on 127.0.0.1 ports) creates a variable
(broadcast from the chief) and runs an all-reduce step in a loop. Each kill/restart cycle kills one task or
both with SIGKILL, then restarts every task that died, as a cluster manager does:

- '<who>@step': 0-0.5 s into the cluster's steps;
- '<who>@formation': its peer already waits in formation, and the victim dies 0-30 ms after it starts forming
  (forming takes about 5-60 ms on loopback once both tasks are there);
- '<who>@connect': injected, so that it is hit every time: the victim SIGKILLs itself 1 s after its gloo group
  starts connecting, i.e. after it joined the rendezvous; its peer has joined too and waits in formation.

Recovery 'exit': a survivor whose step fails exits with the error and is restarted too; 'reform': it creates
a new strategy in the same process. A cycle counts as formed when both tasks of a new cluster step together
(the all-reduce sums to 2) within 90 s of the restart (the rendezvous timeout, 60 s, plus start-up) with no
error raised by forming the group (creating the strategy); an error from a collective of a cluster whose task
died (its variable's broadcast or a step) is expected and only listed.
Start gaps: one task starts 15 or 30 s after the other (the chief first, then the worker first).
--src runs another placeflow source tree in the tasks (e.g. `git archive HEAD src` of an older commit).

Prints one row per fault: runs, formed, failed, the median and max time to form (from the restart, or from
the later task's start, to the later task's FORMED), and the errors the tasks raised.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import queue
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
FORM_DEADLINE_S = 90.0
FAULTS = ("chief@step", "worker@step", "both@step", "chief@formation", "worker@formation", "both@formation",
          "chief@connect", "worker@connect")


# -- the task's program ------------------------------------------------------------------------------------
def worker(recovery: str) -> None:
    """One task: form the cluster, then step forever; on a cluster error exit 3 (or, 'reform', form again)."""
    dist = importlib.import_module("torch.distributed")  # the strategy imports it (about 3 s): FORMING marks formation
    if os.environ.get("CAMPAIGN_DIE_AT_CONNECT"):
        _die_when_gloo_connects(dist)
    import placeflow as tf
    print(f"FORMING {time.time():.3f}", flush=True)
    while True:
        phase = "formation"
        try:
            strategy = tf.distribute.MultiWorkerMirroredStrategy()
            print(f"FORMED {time.time():.3f}", flush=True)
            phase = "broadcast"
            with strategy.scope():  # its initial value is broadcast from the chief: the new group's first collective
                counter = tf.Variable(0.0)
            phase = "step"

            @tf.function
            def step():
                def replica():
                    total = tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0))
                    counter.assign_add(total)
                    return total
                return strategy.run(replica)
            while True:
                print(f"STEP {float(step()):g} {time.time():.3f}", flush=True)
                time.sleep(0.05)
        except (tf.errors.UnavailableError, tf.errors.DeadlineExceededError) as error:
            print(f"ERROR {type(error).__name__} {phase} {time.time():.3f} {str(error).splitlines()[0][:300]}",
                  flush=True)
            if recovery != "reform":
                sys.exit(3)
            print(f"FORMING {time.time():.3f}", flush=True)


def _die_when_gloo_connects(dist) -> None:
    """SIGKILL this process 1 s after it starts making its gloo group (the injected '@connect' fault: its peer
    has joined meanwhile and waits for it)."""
    real = dist.ProcessGroupGloo

    class DiesWhenConnecting:
        _Options = real._Options
        create_device = staticmethod(real.create_device)

        def __new__(cls, *args, **kwargs):
            time.sleep(1.0)
            os.kill(os.getpid(), signal.SIGKILL)
    dist.ProcessGroupGloo = DiesWhenConnecting


# -- the campaign ------------------------------------------------------------------------------------------
def free_ports(count: int) -> list:
    """`count` TCP ports free on 127.0.0.1 now."""
    sockets = [socket.create_server(("127.0.0.1", 0)) for _ in range(count)]
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


class Cluster:
    """The two tasks' processes, restarted on demand, and every line they print (with the task and time)."""

    def __init__(self, recovery: str):
        ports = free_ports(2)
        self.spec = {"chief": [f"127.0.0.1:{ports[0]}"], "worker": [f"127.0.0.1:{ports[1]}"]}
        self.recovery = recovery
        self.processes: dict = {}
        self.events: queue.Queue = queue.Queue()
        self.log: list = []

    def start(self, task: int, dies_at_connect: bool = False) -> None:
        """Start task 0 (the chief) or 1 (the worker); it kills itself as its gloo group connects if asked."""
        job = ("chief", "worker")[task]
        env = dict(os.environ, PYTHONPATH=str(SRC), PLACEFLOW_DISABLE_CUDA="1",
                   PLACEFLOW_SIMULATED_GPUS="0", PYTHONUNBUFFERED="1",
                   TF_CONFIG=json.dumps({"cluster": self.spec, "task": {"type": job, "index": 0}}))
        env.pop("CAMPAIGN_DIE_AT_CONNECT", None)
        if dies_at_connect:
            env["CAMPAIGN_DIE_AT_CONNECT"] = "1"
        process = subprocess.Popen([sys.executable, __file__, "--worker", "--recovery", self.recovery], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   start_new_session=True)
        self.processes[task] = process
        threading.Thread(target=self._read, args=(task, process), daemon=True).start()

    def _read(self, task, process) -> None:
        for line in process.stdout:
            self.events.put((task, process.pid, time.time(), line.rstrip()))
        self.events.put((task, process.pid, time.time(), "EXIT"))

    def kill(self, task: int) -> None:
        """SIGKILL task `task` and reap it."""
        process = self.processes[task]
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def next_event(self, timeout: float):
        """(task, pid, time, line) of the next line printed, or None after `timeout` seconds."""
        try:
            event = self.events.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return None
        self.log.append(event)
        return event

    def close(self) -> None:
        """Kill every task still running."""
        for task, process in self.processes.items():
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass


def _wait_for(cluster, predicate, timeout: float):
    """The first event (task, pid, time, line) satisfying `predicate` within `timeout`, else None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = cluster.next_event(deadline - time.monotonic())
        if event is not None and predicate(event):
            return event
    return None


def _stepped_together(cluster, since: float, timeout: float, restart_exited: bool) -> tuple:
    """(time of the later FORMED of a cluster formed after `since` whose tasks both stepped, the errors the tasks
    raised, whether any of them came from forming the group). Restarts every task that exits meanwhile when
    `restart_exited`; gives up after `timeout` seconds (time None)."""
    deadline = time.monotonic() + timeout
    formed, stepped, errors, formation_failed = {}, set(), [], False
    current = {task: p.pid for task, p in cluster.processes.items()}
    while time.monotonic() < deadline:
        event = cluster.next_event(deadline - time.monotonic())
        if event is None:
            break
        task, pid, when, line = event
        if pid != current.get(task):
            continue  # a line from a process killed earlier
        if line.startswith("ERROR"):
            _, kind, phase = line.split()[:3]
            errors.append(f"{('chief', 'worker')[task]}: {kind} in {phase}")
            formation_failed = formation_failed or phase == "formation"
            formed.pop(task, None)
            stepped.discard(task)
        elif line.startswith("FORMED"):
            formed[task] = float(line.split()[1])
            stepped.discard(task)
        elif line.startswith("STEP") and task in formed and line.split()[1] == "2":
            stepped.add(task)
        elif line == "EXIT":
            formed.pop(task, None)
            stepped.discard(task)
            if restart_exited:
                cluster.start(task)
                current[task] = cluster.processes[task].pid
        if stepped == {0, 1}:
            return max(formed.values()) - since, errors, formation_failed
    return None, errors, formation_failed


def kill_restart_cycle(fault: str, recovery: str, rng) -> tuple:
    """(time to form after the restart, or None when it failed; errors raised) of one cycle of `fault`."""
    who, moment = fault.split("@")
    victims = {"chief": [0], "worker": [1], "both": [0, 1]}[who]
    cluster = Cluster(recovery)
    try:
        if moment == "step":
            cluster.start(0)
            cluster.start(1)
            if _stepped_together(cluster, time.time(), FORM_DEADLINE_S, False)[0] is None:
                return None, ["the first cluster did not form"]
            time.sleep(rng.uniform(0.0, 0.5))
        else:  # the survivor (if any) waits in formation; the victims die as (or just after) they start forming
            for task in (t for t in (0, 1) if t not in victims):
                cluster.start(task)
                if _wait_for(cluster, lambda e: e[3].startswith("FORMING"), 60) is None:
                    return None, ["the survivor did not start"]
            for task in victims:
                cluster.start(task, dies_at_connect=moment == "connect")
            if moment == "connect":
                for task in victims:
                    cluster.processes[task].wait(timeout=60)
            else:
                for _ in victims:
                    if _wait_for(cluster, lambda e: e[0] in victims and e[3].startswith("FORMING"), 60) is None:
                        return None, ["the victim did not start"]
                time.sleep(rng.uniform(0.0, 0.03))
        for task in victims:
            cluster.kill(task)
        restart = time.time()
        for task in victims:
            cluster.start(task)
        seconds, errors, formation_failed = _stepped_together(cluster, restart, FORM_DEADLINE_S, recovery == "exit")
        if (seconds is None or formation_failed) and os.environ.get("CAMPAIGN_VERBOSE"):
            for task, pid, when, line in cluster.log:
                print(f"    {when - restart:+8.2f} {('chief', 'worker')[task]} {pid} {line[:200]}")
        return (None if formation_failed else seconds), errors
    finally:
        cluster.close()


def gap_run(gap: float, first: int) -> tuple:
    """(time to form after the later task started, or None; errors): task `first` starts `gap` s before the
    other (0: the chief, 1: the worker)."""
    cluster = Cluster("exit")
    try:
        cluster.start(first)
        time.sleep(gap)
        later = time.time()
        cluster.start(1 - first)
        seconds, errors, formation_failed = _stepped_together(cluster, later, FORM_DEADLINE_S, False)
        return (None if formation_failed else seconds), errors
    finally:
        cluster.close()


def _row(name: str, outcomes: list) -> str:
    times = [t for t, _ in outcomes if t is not None]
    errors: dict = {}
    for _, seen in outcomes:
        for error in seen:
            errors[error] = errors.get(error, 0) + 1
    median = f"{statistics.median(times):.1f}" if times else "-"
    worst = f"{max(times):.1f}" if times else "-"
    text = ", ".join(f"{k} x{v}" for k, v in sorted(errors.items())) or "-"
    return (f"| {name:24} | {len(outcomes):4} | {len(times):6} | {len(outcomes) - len(times):6} | {median:>9} | "
            f"{worst:>8} | {text} |")


def main() -> None:
    global SRC
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=10, help="kill/restart cycles per fault")
    parser.add_argument("--faults", default="all", help=f"comma-separated of {', '.join(FAULTS)}; 'none'; 'all'")
    parser.add_argument("--gaps", default="15,30", help="start gaps in seconds, comma-separated ('' for none)")
    parser.add_argument("--recovery", choices=("exit", "reform"), default="exit")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--src", default=str(SRC), help="the placeflow source tree the tasks run")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    SRC = Path(args.src).resolve()
    if args.worker:
        worker(args.recovery)
        return
    faults = FAULTS if args.faults == "all" else [] if args.faults == "none" else args.faults.split(",")
    for fault in faults:
        if fault not in FAULTS:
            raise SystemExit(f"unknown fault {fault!r}; expected one of {FAULTS}")
    if importlib.util.find_spec("torch") is None:
        raise SystemExit("cluster_startup needs torch.distributed (pip install 'placeflow[distributed]')")
    rng = random.Random(args.seed)
    print(f"MultiWorkerMirroredStrategy start-up on loopback, 2 tasks, default settings, recovery {args.recovery!r}, "
          f"{os.cpu_count()} cores, source {SRC}")
    print("| fault                    | runs | formed | failed | median s | max s | errors reported |")
    print("|---|---|---|---|---|---|---|")
    for fault in faults:
        outcomes = [kill_restart_cycle(fault, args.recovery, rng) for _ in range(args.cycles)]
        print(_row(f"kill {fault}", outcomes), flush=True)
    for gap in [float(g) for g in args.gaps.split(",") if g]:
        for first, later in ((0, "worker"), (1, "chief")):
            print(_row(f"{later} starts {gap:g} s late", [gap_run(gap, first)]), flush=True)


if __name__ == "__main__":
    main()
