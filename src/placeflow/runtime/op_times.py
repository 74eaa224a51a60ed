"""Measured op times: a real run records how long each kernel took (PLACEFLOW_RECORD_OP_TIMES=times.json), and an
estimate reads them (PLACEFLOW_OP_TIMES=times.json): an op measured with the same input shapes and dtypes on the
same type of device takes its measured time in the step clock instead of the performance model's.

A recorded time is the kernel call's wall time on its device, synchronised on a CUDA GPU, so it includes
placeflow's own cost of issuing the op (the step clock then adds no host cost for it). Times are means over the
calls seen; the file is written when the process exits. Control flow and Python functions are not timed as ops:
the ops of their bodies are. Timing wraps each call, so a recording run forwards no
buffers: record times in one run and measure memory in another.
"""

from __future__ import annotations

import json
import threading
import time

import numpy as np

RECORD_ENV_VAR = "PLACEFLOW_RECORD_OP_TIMES"
LOAD_ENV_VAR = "PLACEFLOW_OP_TIMES"

_lock = threading.Lock()
_recorded: dict = {}      # key -> [seconds total, calls]
_loaded = None            # (path, {key: mean seconds}) of the context's PLACEFLOW_OP_TIMES file
_classes: dict = {}       # device class -> its recording subclass
_inside = threading.local()
_exit_paths: set = set()
CALLERS = frozenset({"If", "While", "EagerPyFunc", "PyFunc", "PyFuncStateless"})   # ops whose bodies run ops


def key(op: str, args, device_type: str) -> str:
    """The key a time is kept under: op, device type, and each array input's shape and dtype."""
    inputs = ";".join(f"{a.dtype.name}{list(a.shape)}" for a in args if isinstance(a, np.ndarray) or
                      hasattr(a, "__cuda_array_interface__"))
    return f"{op}|{device_type}|{inputs}"


def key_of_shapes(op: str, inputs, device_type: str) -> str:
    """`key` from [(shape, numpy dtype)] of the inputs (a graph's static shapes) instead of arrays."""
    return f"{op}|{device_type}|" + ";".join(f"{np.dtype(dtype).name}{list(shape)}" for shape, dtype in inputs)


def record(device, op: str, args, seconds: float) -> None:
    """Count one measured call of `op` on `device`."""
    entry_key = key(op, args, device.device_type)
    with _lock:
        entry = _recorded.setdefault(entry_key, [0.0, 0])
        entry[0] += seconds
        entry[1] += 1


def measured(device, op: str, args):
    """The mean recorded seconds of `op` on these inputs on this type of device (the context's PLACEFLOW_OP_TIMES),
    or None."""
    table = _table()
    return table.get(key(op, args, device.device_type)) if table else None


def _table() -> dict:
    """The times of the context's PLACEFLOW_OP_TIMES file (read once per path), or {}."""
    global _loaded
    from ..config.context import context
    path = context().environ.get(LOAD_ENV_VAR) or ""
    if _loaded is None or _loaded[0] != path:
        _loaded = (path, load(path) if path else {})
    return _loaded[1]


def measured_for(op: str, inputs, device_type: str):
    """`measured` for an op known by its inputs' [(shape, numpy dtype)] (the cost-model placer's view)."""
    table = _table()
    return table.get(key_of_shapes(op, inputs, device_type)) if table else None


def load(path: str) -> dict:
    """{key: mean seconds} of a file `save` wrote; ValueError naming the file when it is not one."""
    try:
        with open(path) as handle:
            data = json.load(handle)
        return {k: float(v["seconds"]) / int(v["calls"]) for k, v in data["op_times"].items()}
    except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError) as exc:
        raise ValueError(f"{LOAD_ENV_VAR}={path!r} is not a file of measured op times ({exc}); make one by running "
                         f"the program for real with {RECORD_ENV_VAR}={path}.") from None


def save(path: str) -> None:
    """Write every recorded time to `path` (JSON)."""
    with _lock:
        data = {k: {"seconds": total, "calls": calls} for k, (total, calls) in _recorded.items()}
    with open(path, "w") as handle:
        json.dump({"op_times": data}, handle, indent=0, sort_keys=True)


def reset() -> None:
    """Forget recorded and loaded times (the environment is read again when next needed)."""
    global _loaded
    with _lock:
        _recorded.clear()
    _loaded = None


def start_recording(devices: list, path: str) -> None:
    """Make `devices` time their kernels, and write the times to `path` when the process exits."""
    for device in devices:
        cls = type(device)
        sub = _classes.get(cls)
        if sub is None:
            sub = _classes[cls] = type(f"Recording{cls.__name__}", (_Recording, cls), {"__slots__": ()})
        device.__class__ = sub
    if path not in _exit_paths:
        import atexit
        atexit.register(save, path)
        _exit_paths.add(path)


class _Recording:
    """A device whose kernel calls are timed (synchronised on CUDA) and recorded."""

    __slots__ = ()

    def _timed(self, op, call, args):
        if op in CALLERS or getattr(_inside, "call", False):   # a loop or Python function: its ops time themselves;
            return call()                                       # a forwarding node's fallback: timed by the node
        _inside.call = True
        try:
            start = time.perf_counter()
            out = call()
            if self.cuda_ordinal is not None:
                import cupy
                cupy.cuda.Device(self.cuda_ordinal).synchronize()
            seconds = time.perf_counter() - start
        finally:
            _inside.call = False
        record(self, op, args, seconds)
        return out

    def run(self, op, fn, args, attrs=None, name=None, presize=None, dtype=None):
        """The device's kernel call, timed."""
        return self._timed(op, lambda: super(_Recording, self).run(op, fn, args, attrs, name, presize, dtype), args)

    def node_call(self, op, fn, attrs, presize=None, name=None, dtype=None):
        """A plan node's callable, timed."""
        call = super().node_call(op, fn, attrs, presize, name, dtype)
        return lambda *args: self._timed(op, lambda: call(*args), args)

    def forwarding_node_call(self, op, kernel, attrs, positions, name=None, dtype=None):
        """A forwarding plan node's callable, timed."""
        call = super().forwarding_node_call(op, kernel, attrs, positions, name, dtype)
        return lambda *args: self._timed(op, lambda: call(*args), args)
