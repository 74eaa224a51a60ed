"""The NCCL-style collective: every device's buffer summed and the sum left on every device.

Eagerly, one call reduces all devices' buffers at once. In a traced step each device gets its own
`_NcclAllReduce` node; the nodes meet at a `Rendezvous` and the last to arrive runs the reduction
for all (NCCL through CuPy on real GPUs, NumPy in-process on simulated ones). A plan holding
collective nodes always runs on the per-device lanes, one thread per GPU, so the nodes can wait.
"""

from __future__ import annotations

import threading

from ..eager.execute import execute
from ..framework import errors, graph_mode
from ..placement import scope as scope_module
from ..runtime import registry
from ..runtime.transfer import c_contiguous
from ..config import context as context_module
from .reduce_op import ReduceOp

RENDEZVOUS_TIMEOUT_S = 120.0
_communicators: dict = {}
_comm_lock = threading.Lock()


def nccl_available() -> bool:
    """Whether CuPy with NCCL can be imported (only asked when every device is a real GPU)."""
    try:
        from cupy.cuda import nccl
    except Exception:  # noqa: BLE001 - no CuPy, no CUDA, or CuPy built without NCCL
        return False
    return bool(getattr(nccl, "available", True))


def all_reduce(values, devices, reduce_op):
    """The reduced value on each of `devices` (values: one tensor per device, same shape and dtype)."""
    runtime_devices = [_runtime_device(name) for name in devices]
    if graph_mode.active() is None:
        arrays = reduce_arrays([v._value for v in values], runtime_devices, reduce_op)
        from ..eager.tensor import EagerTensor
        return [EagerTensor(d.charge(a), d) for a, d in zip(arrays, runtime_devices)]
    group = Rendezvous(runtime_devices, reduce_op)
    outputs = []
    for rank, (value, name) in enumerate(zip(values, devices)):
        token = scope_module.current.set(scope_module.make_scope(name, scope_module.current.get()))
        try:
            outputs.append(execute("_NcclAllReduce", (value,), value.dtype, {"group": group, "rank": rank}))
        finally:
            scope_module.current.reset(token)
    return outputs


def reduce_arrays(arrays, devices, reduce_op) -> list:
    """Sum (or mean) of `arrays`, one result per device: NCCL on real GPUs, NumPy otherwise."""
    if not any(d.host_backed for d in devices):
        ordinals = [d.cuda_ordinal for d in devices]
        if len(set(ordinals)) == len(ordinals):
            return _nccl(arrays, devices, reduce_op)
        return _on_shared_gpus(arrays, devices, reduce_op)
    total = arrays[0].copy()
    for array in arrays[1:]:
        total += array
    if reduce_op == ReduceOp.MEAN:
        total /= len(arrays)
    return [total] + [total.copy() for _ in arrays[1:]]


class Rendezvous:
    """Where one step's collective nodes meet: the last to arrive reduces for everyone."""

    def __init__(self, devices, reduce_op):
        self.devices, self.reduce_op = devices, reduce_op
        self._cond = threading.Condition()
        self._arrived = [None] * len(devices)
        self._count = 0
        self._generation = 0
        self._results = None
        self._aborted = False

    def arrive(self, rank: int, value):
        """Hand in this device's buffer; returns the reduced buffer for this device."""
        with self._cond:
            if self._aborted:
                raise _cancelled()
            generation = self._generation
            self._arrived[rank] = value
            self._count += 1
            if self._count == len(self.devices):
                arrived, self._arrived, self._count = self._arrived, [None] * len(self.devices), 0
                try:
                    self._results = reduce_arrays(arrived, self.devices, self.reduce_op)
                except BaseException:
                    self._results, self._aborted = None, True  # the waiters raise too
                    raise
                finally:
                    self._generation += 1
                    self._cond.notify_all()
                return self._results[rank]
            if not self._cond.wait_for(lambda: self._generation != generation or self._aborted, RENDEZVOUS_TIMEOUT_S):
                self._arrived[rank], self._count = None, self._count - 1
                raise errors.DeadlineExceededError(None, None, (
                    f"Collective all-reduce timed out: {self._count + 1} of {len(self.devices)} devices arrived "
                    f"within {RENDEZVOUS_TIMEOUT_S:.0f} s. An earlier op of another replica probably failed."))
            if self._aborted:
                raise _cancelled()
            return self._results[rank]

    def abort(self) -> None:
        """The step failed elsewhere: wake the devices waiting here, and refuse new arrivals until reset."""
        with self._cond:
            self._aborted = True
            self._cond.notify_all()

    def reset(self) -> None:
        """Forget an aborted step's arrivals (called once all of that step's devices stopped)."""
        with self._cond:
            self._arrived, self._count, self._aborted = [None] * len(self.devices), 0, False
            self._generation += 1


def _cancelled() -> errors.CancelledError:
    return errors.CancelledError(None, None, "Collective all-reduce cancelled: another device's op failed first.")


def _runtime_device(name):
    ctx = context_module._context or context_module.context()
    device = registry.find(ctx, name)
    if device is None:
        raise ValueError(f"Unknown device {name!r} for the all-reduce; available: "
                         f"{[d.name for d in registry.devices(ctx)]}.")
    return device


def _on_shared_gpus(arrays, devices, reduce_op) -> list:
    """Sum on the first GPU, then a copy per device: NCCL refuses two ranks on one physical GPU."""
    import cupy
    with devices[0].activate():
        total = cupy.array(arrays[0], copy=True)
        for array in arrays[1:]:
            total += cupy.asarray(array)
        if reduce_op == ReduceOp.MEAN:
            total /= len(arrays)
    outputs = [total]
    for device in devices[1:]:
        with device.activate():
            outputs.append(cupy.array(total, copy=True))
    return outputs


def _nccl(arrays, devices, reduce_op) -> list:
    """Grouped NCCL allReduce over real GPUs (CuPy's single-process communicators, cached per device set)."""
    import cupy
    from cupy.cuda import nccl
    ordinals = tuple(d.cuda_ordinal for d in devices)
    with _comm_lock:
        comms = _communicators.get(ordinals)
        if comms is None:
            comms = _communicators[ordinals] = nccl.NcclCommunicator.initAll(list(ordinals))
    nccl_type = {"float16": nccl.NCCL_FLOAT16, "float32": nccl.NCCL_FLOAT32,
                 "float64": nccl.NCCL_FLOAT64}[str(arrays[0].dtype)]
    outputs = []
    nccl.groupStart()
    try:
        for comm, array, device in zip(comms, arrays, devices):
            with device.activate():
                source = c_contiguous(cupy, array)
                out = cupy.empty_like(source)
                stream = cupy.cuda.get_current_stream()
                comm.allReduce(source.data.ptr, out.data.ptr, source.size, nccl_type, nccl.NCCL_SUM, stream.ptr)
                outputs.append(out)
    finally:
        nccl.groupEnd()
    if reduce_op == ReduceOp.MEAN:
        for out, device in zip(outputs, devices):
            with device.activate():
                out /= len(arrays)
    return outputs
