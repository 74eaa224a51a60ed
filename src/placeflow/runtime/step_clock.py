"""The modelled clock of shape-only estimation: each op's time from its device's performance model, on the
executor's own schedule.

Every estimated kernel call (runtime/estimating.py) and copy between devices reports here. A device runs one
op at a time: an op starts when its device is free and its shape-only inputs are ready, and takes the
roofline time of its performance model (placeflow/perf: FLOPs and bytes over the device's rates, plus launch
latency); a copy starts when its input is ready and the link between the two devices is free. Time is split
into phases: compute, copies, all-reduce (ops under an 'allreduce' name scope and collective ops, as
`distribute.experimental.PhaseTimer` splits measured steps). A step (a top-level function call, Session run
or Keras train step) starts when every device is free and ends when the last one is. Devices without a
performance model add no time. Everything is per process and reset by `reset()`.
"""

from __future__ import annotations

import threading
from collections import defaultdict

import numpy as np

PHASES = ("compute", "copies", "all-reduce")
COLLECTIVE_OPS = frozenset({"CollectiveReduceV2", "CollectiveGatherV2", "CollectiveAllToAllV2", "_NcclAllReduce",
                            "NcclAllReduce", "CollectiveBcastSendV2", "CollectiveBcastRecvV2"})

_lock = threading.Lock()
_state = threading.local()


class _Clock:
    def __init__(self):
        self.device_free = defaultdict(float)      # device name -> time it is free again
        self.link_free = defaultdict(float)        # (src, dst) -> time the link is free again
        self.busy = defaultdict(lambda: dict.fromkeys(PHASES, 0.0))   # device name -> phase -> seconds
        self.ops = 0
        self.steps: list = []                      # (start, end) of each step
        self.step_start = None
        self.step_depth = 0
        self.step_busy_start = None
        self.step_busy: list = []                  # per step: {phase: seconds summed over devices}


_clock = _Clock()


def reset() -> None:
    """Forget every modelled time."""
    global _clock
    with _lock:
        _clock = _Clock()


def now() -> float:
    """The modelled time when every device is free."""
    return max(_clock.device_free.values(), default=0.0)


def _ready(array) -> float:
    return getattr(array, "_ready", 0.0) if isinstance(array, np.ndarray) else 0.0


def _set_ready(out, when: float) -> None:
    for array in (out if out.__class__ is tuple else (out,)):
        if isinstance(array, np.ndarray) and array.__class__ is not np.ndarray:
            try:
                array._ready = when
            except AttributeError:
                pass


def _phase(op: str, name) -> str:
    if op in COLLECTIVE_OPS or (name and "allreduce" in name) or getattr(_state, "phase", None) == "all-reduce":
        return "all-reduce"
    return "compute"


def ran(device, op: str, args, out, attrs, dtype, name) -> None:
    """An op ran on `device`: advance its clock by the op's modelled time."""
    seconds = _op_seconds(device, op, args, out, attrs, dtype)
    with _lock:
        clock = _clock
        clock.ops += 1
        start = max([clock.device_free[device.name]] + [_ready(a) for a in args])
        end = start + seconds
        clock.device_free[device.name] = end
        clock.busy[device.name][_phase(op, name)] += seconds
    _set_ready(out, end)


def copied(src, dst, array, out) -> None:
    """`array` was copied from device `src` to `dst` as `out`: the link's time, in the copies phase."""
    seconds = _copy_seconds(src, dst, int(array.nbytes))
    with _lock:
        clock = _clock
        link = (src.name, dst.name)
        start = max(_ready(array), clock.link_free[link])
        end = start + seconds
        clock.link_free[link] = end
        clock.busy[dst.name]["copies"] += seconds
        clock.device_free[dst.name] = max(clock.device_free[dst.name], end) if seconds else clock.device_free[dst.name]
    _set_ready(out, end)


class phase:
    """Context manager: ops run inside it count to `name` ('all-reduce'), e.g. a strategy's reduction."""

    def __init__(self, name: str):
        self.name = name

    def __enter__(self):
        self.saved = getattr(_state, "phase", None)
        _state.phase = self.name
        return self

    def __exit__(self, *exc):
        _state.phase = self.saved
        return False


def begin_step() -> None:
    """A top-level step starts: every device waits for the slowest (the host waits for the last step)."""
    with _lock:
        clock = _clock
        clock.step_depth += 1
        if clock.step_depth > 1:
            return
        start = now()
        for name in list(clock.device_free):
            clock.device_free[name] = start
        clock.step_start = start
        clock.step_busy_start = _busy_totals(clock)


def end_step() -> None:
    """The step ends when its last device is free."""
    with _lock:
        clock = _clock
        clock.step_depth -= 1
        if clock.step_depth or clock.step_start is None:
            return
        clock.steps.append((clock.step_start, now()))
        totals = _busy_totals(clock)
        clock.step_busy.append({p: totals[p] - clock.step_busy_start[p] for p in PHASES})
        clock.step_start = None


def _busy_totals(clock) -> dict:
    return {p: sum(b[p] for b in clock.busy.values()) for p in PHASES}


def summary() -> dict:
    """{'steps': [seconds per step], 'step_phases': [{phase: busy seconds summed over devices}],
    'busy': {device: {phase: seconds}}, 'ops': count, 'total': seconds}."""
    with _lock:
        clock = _clock
        return {"steps": [end - start for start, end in clock.steps], "step_phases": list(clock.step_busy),
                "busy": {name: dict(b) for name, b in clock.busy.items()}, "ops": clock.ops, "total": now()}


def _op_seconds(device, op, args, out, attrs, dtype) -> float:
    model = _model(device)
    if model is None:
        return 0.0
    from ..perf import op_costs
    outs = out if out.__class__ is tuple else (out,)
    inputs = [(tuple(a.shape), a.dtype) for a in args if isinstance(a, np.ndarray)]
    outputs = [(tuple(o.shape), o.dtype) for o in outs if isinstance(o, np.ndarray)]
    cost = op_costs.op_cost(op, inputs, outputs, {k: v for k, v in (attrs or {}).items() if not k.startswith("_")})
    main = outputs[0][1] if outputs else (inputs[0][1] if inputs else np.float32)
    return op_costs.op_time(model, cost, main)


def _copy_seconds(src, dst, nbytes: int) -> float:
    if _model(src) is None and _model(dst) is None:
        return 0.0
    from ..perf import models, op_costs
    link = models.link_between(src, dst)
    return op_costs.transfer_time(link, nbytes) if link is not None else 0.0


def _model(device):
    try:
        from ..perf import models
    except ImportError:
        return None
    return models.model_of(device)
