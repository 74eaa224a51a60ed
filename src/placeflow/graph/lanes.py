"""Inter-op thread pools: one work lane per device, each a queue served by its own worker threads.

Lanes are shared by every Session in the process (TensorFlow's global inter-op pool) unless a
session asks for its own (`use_per_session_threads`). A GPU lane has one worker, like one CUDA
compute stream; CPU lanes share the inter-op thread budget (cores by default).
"""

from __future__ import annotations

import logging
import os
import queue
import threading

_log = logging.getLogger("placeflow.executor")
_shared: dict = {}
_lock = threading.Lock()
_thread_state = threading.local()


def in_worker() -> bool:
    """Whether the calling thread is a lane's worker (running some plan's work)."""
    return getattr(_thread_state, "lane", None) is not None


def private_pools() -> dict:
    """This thread's own pools, for plans it runs from inside another plan's run: a nested plan must not
    queue behind the outer plan's work on the shared lanes, which may be waiting for this very thread."""
    pools = getattr(_thread_state, "pools", None)
    if pools is None:
        pools = _thread_state.pools = {}
    return pools


class Lane:
    """A FIFO of closures for one device, run by `workers` daemon threads started on first use."""

    def __init__(self, name: str, workers: int):
        self.name, self.workers = name, max(1, workers)
        self._queue = queue.SimpleQueue()
        self._threads: list = []
        self._start_lock = threading.Lock()

    def submit(self, fn, *args) -> None:
        """Queue `fn(*args)` to run on one of this lane's threads."""
        if len(self._threads) < self.workers:
            self._start()
        self._queue.put((fn, args))

    def _start(self) -> None:
        with self._start_lock:
            while len(self._threads) < self.workers:
                index = len(self._threads)
                thread = threading.Thread(target=self._work, name=f"{self.name}/inter_op_{index}", daemon=True)
                thread.start()
                self._threads.append(thread)

    def _work(self) -> None:
        _thread_state.lane = self.name
        while True:
            fn, args = self._queue.get()
            if fn is None:
                return
            try:
                fn(*args)
            except BaseException:  # noqa: BLE001 - the work reports its own errors; the lane must live on
                _log.exception("placeflow: work on lane %s raised outside its step; the lane keeps running", self.name)
            del fn, args  # an idle worker holds nothing of the step it ran (its values go back to their devices)

    def close(self) -> None:
        """Stop this lane's threads once their queued work is done."""
        for _ in self._threads:
            self._queue.put((None, ()))
        self._threads = []


def worker_budget(inter_op_threads: int) -> int:
    """How many inter-op threads in all: the configured count, else TF_NUM_INTEROP_THREADS, else the cores."""
    if inter_op_threads > 0:
        return inter_op_threads
    from_env = os.environ.get("TF_NUM_INTEROP_THREADS", "")
    return int(from_env) if from_env.isdigit() and int(from_env) > 0 else (os.cpu_count() or 1)


def lanes_for(devices, inter_op_threads: int, own: dict | None = None) -> dict:
    """{device name: Lane} for `devices`; from `own` (a session's private pools) or the shared ones."""
    pools = _shared if own is None else own
    cpus = [d for d in devices if d.device_type == "CPU"]
    per_cpu = max(1, worker_budget(inter_op_threads) // max(1, len(cpus)))
    with _lock:
        for device in devices:
            workers = per_cpu if device.device_type == "CPU" else 1
            lane = pools.get(device.name)
            if lane is None:
                pools[device.name] = Lane(device.short_name, workers)
            elif lane.workers < workers:  # made earlier for more logical CPUs: let it grow (threads start lazily)
                lane.workers = workers
    return {d.name: pools[d.name] for d in devices}
