"""Intra-op parallelism: how many BLAS threads one kernel may use.

OpenBLAS and MKL thread counts are process-wide (there is no per-thread setting), so placeflow
sets them with threadpoolctl (an optional, well-kept library that finds the BLAS NumPy loaded):
from `intra_op_parallelism_threads` when configured, else, while a parallel step runs k expensive
kernels at once, to cores // k so concurrent kernels do not oversubscribe the cores, and to one
while an inline step whose BLAS calls are all small runs (its BLAS workers would spin on the cores
its other kernels need).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading

log = logging.getLogger("placeflow.executor")
_lock = threading.Lock()
_controller = None
_warned = False
_CORES = os.cpu_count() or 1


def _blas():
    global _controller, _warned
    if _controller is None:
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:
            if not _warned:
                _warned = True
                log.info("threadpoolctl is not installed: intra-op (BLAS) thread counts are left to the BLAS "
                         "library. Install placeflow[threads] to control them.")
            return None
        _controller = ThreadpoolController()
    return _controller


BLAS_SPREAD_OPS = frozenset({"MatMul"})   # kernels that are one BLAS call, spread by BLAS over its threads


def blas_spreads_kernels() -> bool:
    """Whether a BLAS call uses several cores here (BLAS's own count; the machine's cores when unknown)."""
    controller = _blas()
    if controller is None:
        return _CORES > 1
    counts = [lib.num_threads for lib in controller.lib_controllers if lib.user_api == "blas"]
    return max(counts, default=_CORES) > 1


def available() -> bool:
    """Whether BLAS thread counts can be controlled here."""
    return _blas() is not None


def set_blas_threads(count: int) -> bool:
    """Set BLAS threads process-wide (intra_op_parallelism_threads); False when not controllable."""
    controller = _blas()
    if controller is None or count <= 0:
        return False
    controller.limit(limits=count, user_api="blas")
    return True


def blas_threads() -> int | None:
    """The current BLAS thread count, or None when unknown."""
    controller = _blas()
    if controller is None:
        return None
    infos = [i for i in controller.info() if i.get("user_api") == "blas"]
    return infos[0]["num_threads"] if infos else None


class _Limit:
    """BLAS threads lowered while any parallel step runs (the lowest wish wins), restored after the last."""

    def __init__(self):
        self.active = 0
        self.saved: list = []

    def enter(self, libraries, threads: int) -> None:
        with _lock:
            if self.active == 0:
                self.saved = [lib.num_threads for lib in libraries]
            self.active += 1
            for lib in libraries:
                if lib.num_threads > threads:
                    lib.set_num_threads(threads)

    def exit(self, libraries) -> None:
        with _lock:
            self.active -= 1
            if self.active == 0:
                for lib, count in zip(libraries, self.saved):
                    lib.set_num_threads(count)


_limit = _Limit()


@contextlib.contextmanager
def limited_for(concurrent_kernels: int, configured: int):
    """While a step runs `concurrent_kernels` heavy kernels at once: BLAS threads = cores // that count."""
    controller = _blas()
    if controller is None or configured > 0 or concurrent_kernels < 2:
        yield
        return
    libraries = [lib for lib in controller.lib_controllers if lib.user_api == "blas"]
    _limit.enter(libraries, max(1, _CORES // concurrent_kernels))
    try:
        yield
    finally:
        _limit.exit(libraries)


@contextlib.contextmanager
def one_blas_thread():
    """BLAS on one thread while an inline step whose BLAS calls are all small runs (partition.Plan.one_blas_thread):
    the lowest wish of the steps running at once wins, and the last to finish restores the count."""
    controller = _blas()
    if controller is None:
        yield
        return
    libraries = [lib for lib in controller.lib_controllers if lib.user_api == "blas"]
    _limit.enter(libraries, 1)
    try:
        yield
    finally:
        _limit.exit(libraries)
