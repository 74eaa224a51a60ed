"""The kernel registry: which op runs on which device type for which dtypes.

The GPU table is deliberately TensorFlow-like: some ops or dtypes have no GPU kernel (Cast,
per seed 002; int32 variables, per seed 003; strings everywhere) and fall back to the CPU.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..framework import dtypes as d

FLOATS = frozenset({d.float16, d.bfloat16, d.float32, d.float64})
COMPLEX = frozenset({d.complex64, d.complex128})
INTS = frozenset({d.int8, d.int16, d.int32, d.int64, d.uint8, d.uint16, d.uint32, d.uint64})
NUMBERS = FLOATS | COMPLEX | INTS
REAL_NUMBERS = FLOATS | INTS
ALL = NUMBERS | {d.bool}
ANY = ALL | {d.string}


@dataclass(frozen=True)
class Kernel:
    """A kernel body `fn(xp, *arrays, **attrs)` and the dtypes it accepts on one device type.

    `presize(args, attrs) -> (shape, numpy dtype)`, when given, is the output known before the kernel
    runs (Fill's shape and dtype), so a device can refuse it before anything is allocated."""

    op: str
    device_type: str
    dtypes: frozenset
    fn: object
    presize: object = None


_KERNELS: dict = {}  # (op, device_type) -> Kernel


def register(op: str, dtypes=NUMBERS, cpu=True, gpu=None, presize=None):
    """Decorator: register `fn` for `op` on CPU (dtypes) and GPU (gpu dtypes; default = dtypes)."""
    def decorate(fn):
        if cpu:
            _KERNELS[(op, "CPU")] = Kernel(op, "CPU", frozenset(dtypes), fn, presize)
        gpu_dtypes = dtypes if gpu is None else gpu
        if gpu_dtypes:
            _KERNELS[(op, "GPU")] = Kernel(op, "GPU", frozenset(gpu_dtypes) - {d.string}, fn, presize)
        return fn
    return decorate


def find_kernel(op: str, device_type: str, dtype) -> Kernel | None:
    """The kernel of `op` on `device_type` accepting `dtype` (None: any), or None."""
    kernel = _KERNELS.get((op, device_type))
    if kernel is None or (dtype is not None and dtype not in kernel.dtypes):
        return None
    return kernel


def list_kernels(op: str) -> list:
    """[(device_type, sorted dtype names)] registered for `op`, so users see why an op fell back."""
    rows = [(k.device_type, sorted(t.name for t in k.dtypes)) for (name, _), k in _KERNELS.items() if name == op]
    if not rows and op not in registered_ops():
        raise ValueError(f"Unknown op {op!r}. Known ops: {', '.join(sorted(registered_ops()))}.")
    return sorted(rows)


def registered_ops() -> set:
    """Names of every op with at least one kernel."""
    return {name for name, _ in _KERNELS}


def presize_from_attrs(args, attrs) -> tuple:
    """The output of an op whose `shape` and `dtype` attributes say what it makes (Fill, random ops)."""
    return attrs["shape"], attrs["dtype"].numpy_dtype


def presize_like_input(args, attrs) -> tuple:
    """The output of an op with its first input's shape and dtype (ZerosLike, OnesLike)."""
    return args[0].shape, args[0].dtype
