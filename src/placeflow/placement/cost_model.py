"""What the cost-model placer knows about a graph's ops on the context's devices.

- An op's time on a device: the time measured in earlier runs for the same (op type, input shapes, device
  type) when there is one (`record_time`, `learn_from_run_metadata`), else the device's performance model
  (`placeflow.perf`: `op_cost`, then `op_time`). A device without a model is taken as its type's preset
  (`ASSUMED`), and the placer's report says so.
- Tensor sizes come from the graph's static shapes (an unknown dimension counts as 1).
- A copy between two devices takes the link `perf.link_between` names (latency + bytes / bandwidth); the
  schedulers serialise copies sharing a link.
"""

from __future__ import annotations

import math
import threading

import numpy as np

from ..perf import models as perf_models
from ..runtime import op_times, step_clock

ASSUMED = {"GPU": "H100", "CPU": "CPU"}   # the preset of a device nobody modelled
HEADROOM = 0.9   # the share of a GPU's memory the placer fills: the rest absorbs allocator rounding
REMOTE = perf_models.Link("another task (assumed 10 Gbit/s)", 1.25e9, 50e-6)
VARIABLE_OPS = frozenset({"VariableV2", "VarHandleOp"})
NO_NEW_OUTPUT = frozenset({"Assign", "AssignAdd", "AssignSub", "Identity", "NoOp"})  # views or refs

_lock = threading.Lock()
_measured: dict = {}   # (op type, input shapes, device type) -> [seconds total, runs]
_version = [0]         # bumped by every new measurement: placements made before may have drifted


# -- measured times -----------------------------------------------------------------------------------
def record_time(op_type: str, input_shapes, device_type: str, seconds: float) -> None:
    """Remember that `op_type` on `input_shapes` took `seconds` on a `device_type` device (averaged)."""
    if not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"record_time: seconds must be a finite number >= 0, got {seconds!r}.")
    key = (op_type, _shapes_key(input_shapes), device_type.upper())
    with _lock:
        entry = _measured.setdefault(key, [0.0, 0])
        entry[0] += float(seconds)
        entry[1] += 1
        _version[0] += 1


def measurements_version() -> int:
    """A number that changes whenever a time is recorded or forgotten."""
    return _version[0]


def measured_time(op_type: str, input_shapes, device_type: str) -> float | None:
    """The mean measured time of `op_type` on `input_shapes` on a `device_type` device, or None."""
    entry = _measured.get((op_type, _shapes_key(input_shapes), device_type.upper()))
    return entry[0] / entry[1] if entry else None


def forget_measurements() -> None:
    """Drop every measured time."""
    with _lock:
        _measured.clear()
        _version[0] += 1


def learn_from_run_metadata(run_metadata, graph) -> int:
    """Record the op times of a traced Session step (RunOptions(trace_level=FULL_TRACE)); returns how many."""
    by_name = {op.name: op for op in graph.get_operations()}
    count = 0
    for device_stats in run_metadata.step_stats.dev_stats:
        device_type = device_stats.device.rpartition(":")[0].rpartition(":")[2] or "CPU"
        for node in device_stats.node_stats:
            op = by_name.get(node.node_name)
            if op is not None and op.type == node.op:
                record_time(op.type, [static_shape(t) for t in op.inputs], device_type,
                            node.all_end_rel_micros / 1e6)
                count += 1
    return count


def _shapes_key(shapes) -> tuple:
    return tuple(tuple(int(d) for d in shape) for shape in shapes)


# -- shapes and bytes ---------------------------------------------------------------------------------
def static_shape(tensor) -> tuple:
    """The tensor's static shape as ints (unknown dimensions and unknown rank count as 1 and ())."""
    shape = tensor.shape
    if shape is None or shape.rank is None:
        return ()
    return tuple(1 if d is None else int(d) for d in shape.as_list())


def numpy_dtype(dtype):
    """The NumPy dtype of a placeflow dtype (float32 when there is none or it has none)."""
    try:
        return np.dtype(dtype.as_numpy_dtype)
    except (AttributeError, TypeError):
        return np.dtype(np.float32)


def tensor_bytes(tensor) -> int:
    """Bytes of the tensor by its static shape."""
    size = getattr(tensor.dtype, "size", 4) or 4
    return int(math.prod(static_shape(tensor))) * size


def op_memory(op) -> int:
    """Bytes an op keeps on its device: a variable's value, else its new outputs (views and refs excluded)."""
    if op.type in VARIABLE_OPS:
        shape = op.attrs.get("shape")
        dims = [] if shape is None else list(getattr(shape, "as_list", lambda: shape)() or [])
        size = getattr(op.attrs.get("dtype", op.dtype), "size", 4) or 4
        return int(math.prod(1 if d is None else int(d) for d in dims)) * size
    if op.type in NO_NEW_OUTPUT:
        return 0
    return sum(tensor_bytes(t) for t in op.outputs)


# -- the model of one placement -----------------------------------------------------------------------
class CostModel:
    """Op times and links for a list of runtime devices, from measurements and performance models."""

    def __init__(self, devices):
        from ..perf import op_costs
        self._op_costs = op_costs
        self.devices = list(devices)
        self.assumed = {}   # device short name -> preset name taken for it
        self.models = [self._model(d) for d in self.devices]
        self._cost_cache, self._time_cache = {}, {}

    def _model(self, device):
        model = perf_models.model_of(device) if device.spec.job in (None, "localhost") else None
        if model is None:
            name = ASSUMED.get(device.device_type, "CPU")
            self.assumed[device.short_name] = name
            model = perf_models.preset(name)
        return model

    def capacity(self, index: int) -> float:
        """Bytes device `index` may hold: its memory limit, else its model's memory; inf for the host."""
        device = self.devices[index]
        if device.device_type == "CPU":
            return math.inf
        limit = getattr(getattr(device, "info", None), "memory_limit", None)
        return float(limit if limit else self.models[index].memory) * HEADROOM

    def link(self, s: int, d: int) -> tuple:
        """(latency, bandwidth) of a copy from device s to device d."""
        a, b = self.devices[s], self.devices[d]
        link = None
        if a.spec.job in (None, "localhost") and b.spec.job in (None, "localhost"):
            link = perf_models.link_between(a, b)
        if link is None:
            link = REMOTE if a.spec.job != b.spec.job or a.spec.task != b.spec.task else \
                (self.models[s].host_link if a.device_type != "CPU" else self.models[d].host_link)
        return link.latency, link.bandwidth

    def op_times(self, op, allowed) -> list:
        """Seconds of `op` on every device (inf where it is not `allowed`)."""
        inputs = [(static_shape(t), numpy_dtype(t.dtype)) for t in op.inputs]
        shapes = [s for s, _ in inputs]
        times = [math.inf] * len(self.devices)
        cost = None
        for d in allowed:
            device = self.devices[d]
            seconds = measured_time(op.type, shapes, device.device_type) if _measured else None
            if seconds is None:   # a real run's recorded times (PLACEFLOW_OP_TIMES), as estimates use them
                seconds = op_times.measured_for(op.type, inputs, device.device_type)
            if seconds is None:
                cost = cost or self._cost(op, inputs)
                seconds = self._time(self.models[d], cost, numpy_dtype(op.dtype))
            times[d] = seconds
        return times

    def _cost(self, op, inputs):
        outputs = [(static_shape(t), numpy_dtype(t.dtype)) for t in op.outputs]
        attrs = {k: v for k, v in op.attrs.items() if not k.startswith("_")}
        key = _cost_key(op.type, inputs, outputs, attrs)
        cost = self._cost_cache.get(key) if key is not None else None
        if cost is None:
            cost = self._op_costs.op_cost(op.type, inputs, outputs, attrs)
            if key is not None:
                self._cost_cache[key] = cost
        return cost

    def _time(self, model, cost, dtype) -> float:
        key = (id(model), cost, dtype)
        seconds = self._time_cache.get(key)
        if seconds is None:   # an op that does no work (a view, a ref, NoOp) launches nothing: free
            seconds = 0.0 if not cost.flops and not cost.bytes else self._op_costs.op_time(
                model, cost, dtype, tensor_float_32=step_clock.KERNELS_USE_TF32)   # (the executor's kernels)
            self._time_cache[key] = seconds
        return seconds


def _cost_key(op_type, inputs, outputs, attrs):
    """A hashable key of what decides an op's cost, or None when an attribute is not hashable."""
    try:
        key = (op_type, tuple((s, d.str) for s, d in inputs), tuple((s, d.str) for s, d in outputs),
               tuple(sorted(attrs.items())))
        hash(key)
        return key
    except TypeError:
        return None
