"""tf.train.ExponentialMovingAverage (shadow variables updated as TF updates them) and tf.train.Coordinator
(stopping a group of threads together, re-raising the first error)."""

from __future__ import annotations

import threading
import time

from ..eager.convert import convert_to_tensor
from ..framework import dtypes, graph_mode
from . import math_ops


class ExponentialMovingAverage:
    """Keeps a shadow copy of each variable: shadow -= (shadow - variable) * (1 - decay) at every apply()."""

    def __init__(self, decay, num_updates=None, zero_debias=False, name="ExponentialMovingAverage"):
        if zero_debias:
            raise NotImplementedError("ExponentialMovingAverage(zero_debias=True) is not implemented in placeflow "
                                      "(it only changes averages of tensors, not of variables).")
        self._decay, self._num_updates, self._name = decay, num_updates, name
        self._averages: dict = {}

    @property
    def name(self) -> str:
        """The name given to the averages' scope."""
        return self._name

    def _decay_tensor(self, dtype):
        decay = convert_to_tensor(self._decay, dtype=dtypes.float32)
        if self._num_updates is not None:
            updates = math_ops.cast(convert_to_tensor(self._num_updates), dtypes.float32)
            decay = math_ops.minimum(decay, (1.0 + updates) / (10.0 + updates))
        return math_ops.cast(1.0 - decay, dtype)

    def apply(self, var_list=None):
        """Create the shadow of each variable on first sight (its current value), then move every shadow
        toward its variable. Returns None eagerly (the update op while a TF1 graph is built)."""
        from ..eager.variables import Variable
        from ..graph.v1_api import group
        if var_list is None:
            raise ValueError("ExponentialMovingAverage.apply needs var_list (TF 2 keeps no global collection).")
        updates = []
        for var in var_list:
            dtype = dtypes.as_dtype(var.dtype)
            if not (dtype.is_floating or dtype == dtypes.float64):
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            if id(var) not in self._averages:
                name = self._unique(self._shadow_name(var))
                with graph_mode.suspended():
                    shadow = Variable(var.read_value() if hasattr(var, "read_value") else var, trainable=False,
                                      name=name)
                self._averages[id(var)] = (var, shadow, name)
            shadow = self._averages[id(var)][1]
            rate = self._decay_tensor(dtype)
            updates.append(shadow.assign_sub((shadow.read_value() - var) * rate))
        if graph_mode.active() is None:
            return None
        return group(*updates)

    def _shadow_name(self, var) -> str:
        return f"{var.name.split(':')[0]}/{self._name}"

    def _unique(self, name: str) -> str:
        taken = {entry[2] for entry in self._averages.values()}
        candidate, count = name, 0
        while candidate in taken:
            count += 1
            candidate = f"{name}_{count}"
        return candidate

    def average(self, var):
        """The shadow variable of `var` (None if apply() never saw it)."""
        found = self._averages.get(id(var))
        return None if found is None else found[1]  # (variable, shadow, shadow's name)

    def average_name(self, var) -> str:
        """The name the shadow of `var` is saved under."""
        return self._shadow_name(var)

    def variables_to_restore(self, moving_avg_variables=None):
        """{name to restore from: variable}: each averaged variable restored from its shadow's name."""
        return {name: var for var, _, name in self._averages.values()}


class Coordinator:
    """Coordinates threads: any of them may request a stop (with an exception), all check should_stop(), and
    join() waits for them and re-raises the first exception reported."""

    def __init__(self, clean_stop_exception_types=None):
        from ..framework import errors
        self._clean = tuple(clean_stop_exception_types or (errors.OutOfRangeError,))
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._exc_info = None
        self._joined = False
        self._registered: set = set()

    def request_stop(self, ex=None) -> None:
        """Ask every thread to stop; an exception given (or being handled) is kept to re-raise in join()."""
        with self._lock:
            if ex is not None and not isinstance(ex, self._clean) and self._exc_info is None:
                if isinstance(ex, tuple):
                    self._exc_info = ex
                elif isinstance(ex, BaseException):
                    self._exc_info = (type(ex), ex, ex.__traceback__)
                else:
                    raise TypeError(f"ex must be an exception or an exc_info tuple, got {ex!r}")
            self._stop.set()

    def clear_stop(self) -> None:
        """Forget a requested stop and its exception."""
        with self._lock:
            self._joined = False
            self._exc_info = None
            self._stop.clear()

    def should_stop(self) -> bool:
        """Whether a stop was requested."""
        return self._stop.is_set()

    def stop_on_exception(self):
        """A context that requests a stop with any exception raised inside it (and swallows it)."""
        coordinator = self

        class _StopOnException:
            def __enter__(self):
                return coordinator

            def __exit__(self, kind, value, traceback):
                if value is not None:
                    coordinator.request_stop(value)
                    return True
                return False
        return _StopOnException()

    def wait_for_stop(self, timeout=None) -> bool:
        """Block until a stop is requested (or `timeout` seconds); returns whether it was."""
        return self._stop.wait(timeout)

    def register_thread(self, thread) -> None:
        """Join `thread` too in join()."""
        with self._lock:
            self._registered.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False) -> None:
        """Wait for the threads (given and registered) after a stop; re-raise the first reported exception.
        Threads still alive `stop_grace_period_secs` after the stop raise RuntimeError unless ignored."""
        threads = set(threads or []) | self._registered
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(0.1):
            pass
        deadline = time.monotonic() + stop_grace_period_secs
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        alive = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            exc_info = self._exc_info
        if exc_info is not None:
            raise exc_info[1].with_traceback(exc_info[2])
        if alive and not ignore_live_threads:
            raise RuntimeError(f"Coordinator stopped with threads still running: {' '.join(alive)}")

    @property
    def joined(self) -> bool:
        """Whether join() has run."""
        return self._joined

    def raise_requested_exception(self) -> None:
        """Raise the exception a thread reported, if any."""
        with self._lock:
            if self._exc_info is not None:
                raise self._exc_info[1].with_traceback(self._exc_info[2])

