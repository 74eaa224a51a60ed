"""The host's malloc, kept from giving a step's freed buffers back to the OS (glibc only).

NumPy allocates every array with malloc. glibc serves a block of 128 KiB or more with mmap until such a
block is freed, then raises that threshold to the freed block's size (at most 32 MiB), and gives the heap's
free top back to the OS whenever it exceeds twice the threshold. A training step frees and allocates the
same buffers every step; once the heap's top has been given back, the next step faults those pages in again.
Measured in one process of Keras's small CNN benchmark: 410 page faults and 0.6-0.9 ms of system time a step
(a quarter of the step); none in another process, whose heap happened to lie otherwise. TensorFlow keeps its
tensors' memory in its own allocators, which do not give it back between steps.

So when its first host device is made, placeflow fixes glibc's two thresholds: blocks under MMAP_BELOW from
the heap (glibc's own largest dynamic threshold), and up to KEEP_FREE bytes of free heap top kept for the
next allocations (beyond that the top is given back, as before). PLACEFLOW_HOST_MALLOC=system leaves malloc
as the process had it.
"""

from __future__ import annotations

import os

MMAP_BELOW = 32 << 20   # glibc's DEFAULT_MMAP_THRESHOLD_MAX on 64-bit hosts
KEEP_FREE = 64 << 20
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3   # mallopt's parameter numbers (malloc.h)

_applied: bool | None = None


def keep_step_buffers() -> bool:
    """Set glibc's malloc thresholds once (see the module's docstring); whether they are placeflow's."""
    global _applied
    if _applied is None:
        _applied = _set_thresholds()
    return _applied


def _set_thresholds() -> bool:
    if os.environ.get("PLACEFLOW_HOST_MALLOC", "").strip().lower() == "system" or not _is_glibc():
        return False
    import ctypes
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_BELOW)) and bool(mallopt(_M_TRIM_THRESHOLD, KEEP_FREE))


def _is_glibc() -> bool:
    try:
        return os.confstr("CS_GNU_LIBC_VERSION").startswith("glibc")
    except (ValueError, OSError, AttributeError):
        return False
