"""The modelled clock of shape-only estimation: each op's time from its device's performance model, on the
executor's own schedule.

Every estimated kernel call (runtime/estimating.py) and copy between devices reports here. A device runs one
op at a time: an op starts when its device is free and its shape-only inputs are ready, and takes the
roofline time of its performance model (placeflow/perf: FLOPs and bytes over the device's rates, plus launch
latency), and cannot start before the host has issued it (HOST_SECONDS: each op, one after another across every
device's thread, as Python's one interpreter lock makes them, and each function call); a copy starts when its
input is ready and the link between the two devices is free. Time is split into phases: compute, copies, all-reduce (ops under an 'allreduce' name scope and collective ops, as
`distribute.experimental.PhaseTimer` splits measured steps). A step (a top-level function call, Session run
or Keras train step) starts when every device is free and ends when the last one is. Devices without a
performance model add no time. An op measured in an earlier real run (runtime/op_times.py, PLACEFLOW_OP_TIMES)
takes its measured time instead. Everything is per process and reset by `reset()`.
"""

from __future__ import annotations

import threading
from collections import defaultdict

import numpy as np

from . import op_times

PHASES = ("compute", "copies", "all-reduce")
# placeflow's kernels compute float32 in float32 (NumPy; CuPy with its default CUPY_TF32=0), whatever
# tf.config.experimental.enable_tensor_float_32_execution records: a float32 matmul is modelled at the FP32 rate.
KERNELS_USE_TF32 = False
CONTROL_FLOW = frozenset({"If", "While", "EagerPyFunc", "PyFunc", "PyFuncStateless"})   # their bodies' ops count
COLLECTIVE_OPS = frozenset({"CollectiveReduceV2", "CollectiveGatherV2", "CollectiveAllToAllV2", "_NcclAllReduce",
                            "NcclAllReduce", "CollectiveBcastSendV2", "CollectiveBcastRecvV2"})

# placeflow's own cost of issuing one op from Python (placement, the kernel call, CuPy's launch): the host issues
# ops one after another while a GPU runs them asynchronously. Measured on an H100 (CuPy 14, Python 3.12) by
# benchmarks/op_overhead.py on 2026-11-26: 200 elementwise ops on 8x8 float32, synchronised (raw CuPy: 12.4 us/op).
HOST_SECONDS = {
    "eager_op": 55e-6,    # an eager op (tensor wrapping, placement cache, tape checks)
    "plan_op": 20e-6,     # a node of a function's or Session's plan
    "plan_call": 16e-6,   # calling a function or Session.run: arguments, the plan's lookup, results
}
HOST_COSTS_ENV_VAR = "PLACEFLOW_HOST_COSTS"   # a JSON file of the same keys, measured on the target machine


def host_seconds(kind: str) -> float:
    """The host's cost of `kind` ('eager_op', 'plan_op', 'plan_call'): PLACEFLOW_HOST_COSTS's, else HOST_SECONDS."""
    global _host_costs
    if _host_costs is None:
        import json
        import os
        path = os.environ.get(HOST_COSTS_ENV_VAR)
        _host_costs = dict(HOST_SECONDS)
        if path:
            with open(path) as handle:
                measured = json.load(handle)
            unknown = set(measured) - set(HOST_SECONDS)
            if unknown:
                raise ValueError(f"{HOST_COSTS_ENV_VAR}={path!r} names {sorted(unknown)}: expected some of "
                                 f"{sorted(HOST_SECONDS)} (seconds), as benchmarks/op_overhead.py --write makes.")
            _host_costs.update({k: float(v) for k, v in measured.items()})
    return _host_costs[kind]


_host_costs = None

_lock = threading.Lock()
_state = threading.local()


class _Clock:
    def __init__(self):
        self.device_free = defaultdict(float)      # device name -> time it is free again
        self.host_free = 0.0                        # when the host has issued the ops so far
        self.link_free = defaultdict(float)        # (src, dst) -> time the link is free again
        self.last_end = 0.0                         # when the last op or copy so far ends (a view holds no device)
        self.busy = defaultdict(lambda: dict.fromkeys(PHASES, 0.0))   # device name -> phase -> seconds
        self.ops = 0
        self.steps: list = []                      # (start, end) of each step
        self.step_start = None
        self.step_depth = 0
        self.plan_step = False                     # the current top-level step is a plan's (function, Session)
        self.step_busy_start = None
        self.step_busy: list = []                  # per step: {phase: seconds summed over devices}


_clock = _Clock()


def reset() -> None:
    """Forget every modelled time."""
    global _clock
    with _lock:
        _clock = _Clock()


def now() -> float:
    """The modelled time when every op and copy has ended and the host has issued every op."""
    return max(max(_clock.device_free.values(), default=0.0), _clock.host_free, _clock.last_end)


def _ready(array) -> float:
    """When a shape-only array's producer ends on this clock (0 for arrays made before the last reset)."""
    ready = getattr(array, "_ready", None) if isinstance(array, np.ndarray) else None
    return ready[1] if ready is not None and ready[0] is _clock else 0.0


def earliest_start(device, args) -> float:
    """When an op reading `args` could start on `device` (None: no device's compute, e.g. a copy): its inputs
    ready and the device free, not before the current step started (inputs made by earlier steps are ready)."""
    clock = _clock
    ready = max([clock.step_start or 0.0] + [_ready(a) for a in args])
    return ready if device is None else max(ready, clock.device_free[device.name])


def _set_ready(out, when: float) -> None:
    for array in (out if out.__class__ is tuple else (out,)):
        if isinstance(array, np.ndarray) and array.__class__ is not np.ndarray:
            try:
                array._ready = (_clock, when)
            except AttributeError:
                pass


def _phase(op: str, name) -> str:
    if op in COLLECTIVE_OPS or (name and "allreduce" in name) or getattr(_state, "phase", None) == "all-reduce":
        return "all-reduce"
    return "compute"


def ran(device, op: str, args, out, attrs, dtype, name, planned=False) -> None:
    """An op ran on `device` (a plan's node when `planned`, else eagerly): advance its clock by the op's modelled
    time, after the host has issued it."""
    if op in CONTROL_FLOW:   # its bodies' ops report their own times
        return
    seconds = op_times.measured(device, op, args)
    if seconds is not None:   # measured in an earlier real run: the host's cost of issuing it is in it
        host = 0.0
    else:
        seconds = _op_seconds(device, op, args, out, attrs, dtype)
        planned = planned or getattr(_state, "plan", False)   # (a plan's variable writes run through Device.run)
        host = host_seconds("plan_op" if planned else "eager_op") if seconds else 0.0
    with _lock:
        clock = _clock
        clock.ops += 1
        issued = clock.host_free + host
        start = max([issued] + [_ready(a) for a in args])
        if seconds:   # (an op without work, e.g. a view, launches nothing: it neither waits for nor holds its device)
            start = max(start, clock.device_free[device.name])
            clock.device_free[device.name] = start + seconds
        end = start + seconds
        clock.last_end = max(clock.last_end, end)
        clock.host_free = issued   # (a CPU kernel runs on its device's lane, NumPy without the GIL: it holds no issue)
        clock.busy[device.name][_phase(op, name)] += seconds
    _set_ready(out, end)


def copied(src, dst, array, out) -> None:
    """`array` was copied from device `src` to `dst` as `out`: the link's time, in the copies phase, after the
    host has issued it (a plan's copy node; an eager op's copies are part of its issue)."""
    seconds = _copy_seconds(src, dst, int(array.nbytes))
    with _lock:
        clock = _clock
        in_plan = clock.plan_step or getattr(_state, "plan", False)   # (device threads do not share _state)
        if seconds and in_plan:
            clock.host_free += host_seconds("plan_op")
        link = (src.name, dst.name)
        start = max(_ready(array), clock.link_free[link], clock.host_free if in_plan else 0.0)
        end = start + seconds
        clock.last_end = max(clock.last_end, end)
        clock.link_free[link] = end
        clock.busy[dst.name]["all-reduce" if getattr(_state, "phase", None) == "all-reduce" else "copies"] += seconds
        # (a copy takes the link, not the destination's compute: its readers wait for `end` through the ready time)
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


class in_plan:
    """Context manager: the ops run inside it are a plan's nodes (the host's cost per op is a plan's)."""

    def __enter__(self):
        self.saved = getattr(_state, "plan", False)
        _state.plan = True
        return self

    def __exit__(self, *exc):
        _state.plan = self.saved
        return False


def begin_step(plan_call: bool = False) -> None:
    """A top-level step starts: every device waits for the slowest (the host waits for the last step); a function
    call or Session run (`plan_call`) first costs the host its call."""
    with _lock:
        clock = _clock
        clock.step_depth += 1
        if clock.step_depth > 1:   # a function called inside a step (or a loop body's plan): the host's call cost
            if plan_call:
                clock.host_free += host_seconds("plan_call")
            return
        start = now()
        for name in list(clock.device_free):
            clock.device_free[name] = start
        clock.host_free = start
        clock.step_start = start
        clock.step_busy_start = _busy_totals(clock)
        clock.plan_step = plan_call
        if plan_call:
            clock.host_free = start + host_seconds("plan_call")


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
        clock.plan_step = False


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
    return op_costs.op_time(model, cost, main, tensor_float_32=KERNELS_USE_TF32)


def _copy_seconds(src, dst, nbytes: int) -> float:
    if _model(src) is None and _model(dst) is None:
        return 0.0
    from ..perf import models, op_costs
    link = models.link_between(src, dst)
    return op_costs.transfer_time(link, nbytes) if link is not None else 0.0


def model_of(device):
    """The performance model of `device` (placeflow.perf), or None."""
    return _model(device)


def _model(device):
    try:
        from ..perf import models
    except ImportError:
        return None
    return models.model_of(device)
