"""Copies of arrays between devices: host <-> simulated GPU <-> CUDA GPU, charged to the destination."""

from __future__ import annotations

import numpy as np

from . import step_clock
from .shape_only import ShapeOnly, shape_only


def to_host(value) -> np.ndarray:
    """A NumPy array with the value's data (a device->host copy for CuPy arrays)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    return value.get()


def shares_memory(src, dst) -> bool:
    """Logical CPUs of one process share host memory: passing a tensor between them needs no copy."""
    return src.device_type == "CPU" and dst.device_type == "CPU"


def c_contiguous(xp, value):
    """`value` in C order with its own shape (`ascontiguousarray` alone turns a scalar into shape (1,))."""
    return value if value.flags.c_contiguous else xp.ascontiguousarray(value).reshape(value.shape)


def copy_array(value, src, dst):
    """`value` (living on device `src`) in device `dst`'s memory: a copy charged to `dst`, except between
    logical CPUs (TensorFlow's same-process rendezvous shares the immutable buffer)."""
    if shares_memory(src, dst):
        return value
    if isinstance(value, ShapeOnly):
        return _shape_only_copy(value, src, dst)
    if dst.host_backed:
        host = np.array(value, copy=True) if src.host_backed else src.to_host(value)
        return dst.charge(host)
    if src.host_backed:
        return dst.upload(value)
    xp = dst.xp
    with dst.activate():
        contiguous = c_contiguous(xp, value)
        out = xp.empty_like(contiguous)
        out.data.copy_from_device(contiguous.data, contiguous.nbytes)
        return out


def _shape_only_copy(value, src, dst):
    """A copy of a shape-only array (estimation): a new shape-only buffer charged to `dst`, timed on the link."""
    out = shape_only(value.shape, value.dtype)
    dst.charge(out)   # (the charge returns a plain view: the shape-only array itself is kept)
    step_clock.copied(src, dst, value, out)
    return out


def host_copy(value):
    """A new host buffer like shape-only `value` (estimation): what a device-to-host copy of it would make."""
    return shape_only(value.shape, value.dtype)
