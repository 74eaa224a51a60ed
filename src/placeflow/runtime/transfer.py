"""Copies of arrays between devices: host <-> simulated GPU <-> CUDA GPU."""

from __future__ import annotations

import numpy as np


def to_host(value) -> np.ndarray:
    """A NumPy array with the value's data (a device->host copy for CuPy arrays)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    return value.get()


def copy_array(value, src, dst):
    """A copy of `value` (living on device `src`) in device `dst`'s memory."""
    if not dst.is_cuda:
        host = to_host(value) if src.is_cuda else value
        return np.array(host, copy=True) if host is value else host
    xp = dst.xp
    with dst.activate():
        if src.is_cuda:
            contiguous = xp.ascontiguousarray(value)
            out = xp.empty_like(contiguous)
            out.data.copy_from_device(contiguous.data, contiguous.nbytes)
            return out
        return xp.asarray(value)
