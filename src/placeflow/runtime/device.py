"""Runtime devices: the host CPU, a simulated GPU and a CUDA GPU, each with the one call that runs a kernel.

`Device.run` is how every kernel of every mode runs (eager dispatch, plan nodes through
`Device.node_call`, constant folding, variable writes, collectives, copies): it activates the
device, calls the kernel with the device's array module, charges every output to the device's
memory, and turns any kernel failure into the TensorFlow error class TF raises for it.

- `HostCPU`: NumPy kernels; outputs are counted by the host accounting (no limit). Plan nodes
  skip the per-output charge: a plan counts the bytes its host nodes made once per step.
- `SimulatedGPU`: NumPy kernels; outputs are charged to the device's BFC books, and an output
  whose size is known before the kernel runs is refused before NumPy allocates it.
- `CudaGPU`: CuPy kernels run with this GPU current and its BFC pool as CuPy's allocator, so
  outputs are allocated from the pool and need no further charge.
"""

from __future__ import annotations

import contextlib
import functools

import os

import numpy as np

from ..framework.device_spec import DeviceSpec
from ..framework.errors import ResourceExhaustedError
from ..memory import for_device
from ..framework.tensor_shape import elements
from . import kernel_errors
from .forwarding import forwarding_call

_NO_SCOPE = contextlib.nullcontext()


class Device:
    """One logical device ops run on; subclasses say how kernels run and how memory is charged."""

    __slots__ = ("name", "short_name", "device_type", "index", "spec", "info", "memory", "charge", "__weakref__")
    simulated = False
    estimating = False   # shape-only estimation (runtime/estimating.py)
    host_backed = True   # arrays are NumPy arrays in host memory
    cuda_ordinal = None
    xp = np

    def __init__(self, info, memory):
        self.info = info
        self.name = info.name
        self.short_name = f"{info.device_type}:{info.index}"
        self.device_type = info.device_type
        self.index = info.index
        self.spec = DeviceSpec.from_string(info.name)
        self.memory = memory
        self.charge = memory.adopt  # charge(array) -> array: count the array's buffer to this device

    def activate(self):
        """A context manager making this device current (a no-op off CUDA)."""
        return _NO_SCOPE

    def run(self, op: str, fn, args, attrs=None, name=None, presize=None, dtype=None):
        """Run kernel `fn` of `op` on this device: outputs charged, failures as TF's error classes. (`dtype`, the
        op's input dtype, is read only by the estimating devices of runtime/estimating.py.)"""
        try:
            if presize is not None:
                self.check_fits(*presize(args, attrs or {}))
            return _charged(self.charge, fn(self.xp, *args, **attrs) if attrs else fn(self.xp, *args))
        except BaseException as exc:  # noqa: BLE001 - converted (or re-raised as is) below
            _reraise(exc, op, name, self)

    def node_call(self, op: str, fn, attrs, presize=None, name=None, dtype=None):
        """The callable a plan node runs: `call(*inputs) -> output(s)`, charged as `run` charges."""
        xp, charge, check = self.xp, self.charge, self.check_fits
        if presize is not None:
            def call(*args):
                check(*presize(args, attrs))
                return _charged(charge, fn(xp, *args, **attrs))
            return call
        if attrs:
            return lambda *args: _charged(charge, fn(xp, *args, **attrs))
        return lambda *args: _charged(charge, fn(xp, *args))

    def forwarding_node_call(self, op: str, kernel, attrs, positions, name=None, dtype=None, sole=None):
        """A plan node's callable that writes into a dying input at `positions` when nothing else holds it
        (runtime/forwarding.py; `sole` as there), else runs as `node_call`: the forwarded buffer is charged
        already."""
        into = functools.partial(kernel.forward, self.xp, **attrs)
        return forwarding_call(self.node_call(op, kernel.fn, attrs, kernel.presize), into, positions, np.ndarray,
                               sole=sole)

    def check_fits(self, shape, dtype) -> None:
        """Refuse an output of `shape` and `dtype` before it is allocated (host: NumPy raises MemoryError)."""

    def upload(self, host_value):
        """`host_value` (a NumPy array or scalar) as an array of this device."""
        return host_value

    def to_host(self, array) -> np.ndarray:
        """The array's data as a NumPy array (a device-to-host copy on CUDA)."""
        return np.asarray(array)

    def __repr__(self) -> str:
        kind = " (simulated)" if self.simulated else ""
        return f"<Device {self.name}{kind}>"


class HostCPU(Device):
    """A logical CPU: NumPy kernels, host memory shared with every other logical CPU."""

    __slots__ = ()

    def run(self, op, fn, args, attrs=None, name=None, presize=None, dtype=None):
        """Run kernel `fn` of `op` with NumPy and count its outputs to the host (which has no limit to
        check beforehand but the machine's memory: NumPy's MemoryError becomes ResourceExhaustedError)."""
        try:
            if presize is not None:
                _check_host_fits(*presize(args, attrs or {}))
            out = fn(np, *args, **attrs) if attrs else fn(np, *args)
        except BaseException as exc:  # noqa: BLE001 - converted (or re-raised as is) below
            _reraise(exc, op, name, self)
        if out.__class__ is tuple:
            return tuple(self.charge(o) for o in out)
        return self.charge(out)

    def node_call(self, op, fn, attrs, presize=None, name=None, dtype=None):
        """A plan node on the host: the bare kernel (its outputs are counted once per step by the plan), after
        the machine-memory check of an output whose size the kernel declares."""
        if presize is not None:
            def call(*args):
                _check_host_fits(*presize(args, attrs))
                return fn(np, *args, **attrs)
            return call
        return functools.partial(fn, np, **attrs) if attrs else functools.partial(fn, np)


def _host_memory_bytes() -> int:
    """The machine's physical memory (0 when the platform does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 0


_HOST_MEMORY = _host_memory_bytes()


def _check_host_fits(shape, dtype) -> None:
    """MemoryError (then TF's ResourceExhaustedError) for an output larger than the machine's memory, before
    anything is allocated: the system would otherwise hand out the pages lazily and fill them slowly."""
    if _HOST_MEMORY and elements(shape) * np.dtype(dtype).itemsize > _HOST_MEMORY:
        raise MemoryError(f"Unable to allocate {elements(shape) * np.dtype(dtype).itemsize / 2**30:.1f} GiB for an "
                          f"array with shape {tuple(shape)} and data type {np.dtype(dtype).name}: more than this "
                          f"machine's {_HOST_MEMORY / 2**30:.1f} GiB of memory")


class SimulatedGPU(Device):
    """A GPU-type device whose kernels are NumPy's and whose memory is a BFC pool's books."""

    __slots__ = ()
    simulated = True

    def check_fits(self, shape, dtype) -> None:
        """Ask the pool before NumPy allocates the output; ResourceExhaustedError when it does not fit."""
        self.memory.check_fits(elements(shape) * np.dtype(dtype).itemsize, shape, dtype)

    def upload(self, host_value):
        """A private copy of `host_value` charged to this device."""
        return self.charge(np.array(host_value, copy=True))


class CudaGPU(Device):
    """A CUDA GPU: CuPy kernels drawing memory from this device's BFC pool."""

    __slots__ = ("cuda_ordinal", "_xp")
    host_backed = False

    def __init__(self, info, memory):
        super().__init__(info, memory)
        self.cuda_ordinal = info.physical.index
        self._xp = None
        self.charge = _already_charged

    @property
    def xp(self):
        """CuPy, imported on first use."""
        if self._xp is None:
            import cupy
            self._xp = cupy
        return self._xp

    def activate(self):
        """This GPU current and its pool as CuPy's allocator, for the calling thread."""
        return _CudaScope(self.xp, self.cuda_ordinal, self.memory.cupy_malloc)

    def run(self, op, fn, args, attrs=None, name=None, presize=None, dtype=None):
        """Run kernel `fn` of `op` with this GPU current; CuPy allocates its outputs from the pool."""
        try:
            with self.activate():
                return fn(self.xp, *args, **attrs) if attrs else fn(self.xp, *args)
        except BaseException as exc:  # noqa: BLE001
            _reraise(exc, op, name, self)

    def node_call(self, op, fn, attrs, presize=None, name=None, dtype=None):
        """A plan node on this GPU: the kernel inside this GPU's activation."""
        xp, activate = self.xp, self.activate

        def call(*args):
            with activate():
                return fn(xp, *args, **attrs)
        return call

    def forwarding_node_call(self, op, kernel, attrs, positions, name=None, dtype=None, sole=None):
        """A plan node on this GPU that writes into a dying CuPy input when nothing else holds it."""
        xp, activate, forward = self.xp, self.activate, kernel.forward

        def into(out, *args):
            with activate():
                return forward(xp, out, *args, **attrs)
        return forwarding_call(self.node_call(op, kernel.fn, attrs), into, positions, xp.ndarray, sole=sole)

    def upload(self, host_value):
        """A copy of `host_value` in this GPU's pool."""
        with self.activate():
            return self.xp.asarray(host_value)

    def to_host(self, array) -> np.ndarray:
        """A device-to-host copy."""
        return array.get() if hasattr(array, "get") else np.asarray(array)


def make_device(info, estimating="") -> Device:
    """The runtime device for a logical device: host CPU, simulated GPU or CUDA GPU (their shape-only
    counterparts of runtime/estimating.py when `estimating`: Context.estimating's mode)."""
    if estimating:
        from .estimating import EstimatingCPU, EstimatingGPU
        if info.device_type != "GPU":
            return EstimatingCPU(info, for_device(info, None))
        return EstimatingGPU(info, for_device(info, None))
    if info.device_type != "GPU":
        return HostCPU(info, for_device(info, None))
    if info.simulated:
        return SimulatedGPU(info, for_device(info, None))
    return CudaGPU(info, for_device(info, info.physical.index))


def _charged(charge, out):
    if out.__class__ is tuple:
        return tuple(charge(o) for o in out)
    return charge(out)


def _already_charged(array):
    return array


def _reraise(exc, op, name, device):
    error = kernel_errors.as_op_error(exc, op, name, device)
    if error is exc:
        raise exc
    if isinstance(error, ResourceExhaustedError):
        kernel_errors.drop_refused_buffers(exc)
        exc.__traceback__ = None
        raise error from None
    raise error from exc


class _CudaScope:
    """Current CUDA device plus a thread-local CuPy allocator drawing from the device's BFC pool."""

    __slots__ = ("_device", "_allocator")

    def __init__(self, cupy, ordinal, malloc):
        self._device = cupy.cuda.Device(ordinal)
        self._allocator = cupy.cuda.using_allocator(malloc)

    def __enter__(self):
        self._device.__enter__()
        self._allocator.__enter__()
        return self

    def __exit__(self, *exc):
        try:
            self._allocator.__exit__(*exc)
        finally:
            self._device.__exit__(*exc)
        return False
