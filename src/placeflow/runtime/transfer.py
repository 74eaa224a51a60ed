"""Copies of arrays between devices: host <-> simulated GPU <-> CUDA GPU."""

from __future__ import annotations

import numpy as np


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
    """`value` (living on device `src`) in device `dst`'s memory: a copy, except between logical CPUs."""
    if shares_memory(src, dst):
        return value  # as TensorFlow's same-process rendezvous: buffers are immutable, so share them
    if not dst.is_cuda:
        host = to_host(value) if src.is_cuda else value
        return np.array(host, copy=True) if host is value else host
    xp = dst.xp
    with dst.activate():
        if src.is_cuda:
            contiguous = c_contiguous(xp, value)
            out = xp.empty_like(contiguous)
            out.data.copy_from_device(contiguous.data, contiguous.nbytes)
            return out
        return xp.asarray(value)
