"""A logical device's memory: its allocator, and how arrays are charged to it and given back.

- Simulated GPUs and CPUs: kernels allocate with NumPy; `adopt(array)` charges the array's
  root buffer (the array that owns the bytes; views share it) to the allocator, and a weak
  reference gives the bytes back when the last view of that buffer dies.
- CUDA GPUs: `cupy_malloc` is installed as CuPy's allocator while a kernel runs on the
  device, so every CuPy allocation is a chunk of this device's BFC pool, wrapped without a
  copy; the chunk goes back when CuPy drops its last reference to the memory.
"""

from __future__ import annotations

import gc
import weakref
from weakref import getweakrefs

import numpy as np

from . import host_malloc
from .bfc import BFCAllocator, VirtualAddressSpace
from .host import REPLAY_AFTER, HostAccounting, HostBuffer
from .oom import DeviceOutOfMemory

SIMULATED_ADDRESS_BASE = 0x7F0000000000


class _ArrayOwner(weakref.ref):
    """A weak reference to a host buffer that remembers the chunk the buffer is charged to."""

    __slots__ = ("chunk", "key")


class _ChunkOwner:
    """Owner of a CUDA chunk, held by CuPy's UnownedMemory; queues the chunk back when dropped."""

    __slots__ = ("chunk", "allocator")

    def __init__(self, chunk, allocator):
        self.chunk, self.allocator = chunk, allocator

    def __del__(self):
        self.allocator.queue_free(self.chunk)


class CudaRegions:
    """Region source of a CUDA GPU: plain cudaMalloc'd buffers (never CuPy's pool)."""

    def __init__(self, ordinal: int):
        self.ordinal = ordinal

    def reserve(self, size: int):
        """(device pointer, cupy Memory) of `size` fresh bytes, or None when the GPU is full."""
        import cupy
        try:
            with cupy.cuda.Device(self.ordinal):
                memory = cupy.cuda.Memory(size)
        except (cupy.cuda.memory.OutOfMemoryError, cupy.cuda.runtime.CUDARuntimeError):
            return None
        return memory.ptr, memory

    def release(self, handle) -> None:
        """Dropping the Memory object frees it (cudaFree)."""


class DeviceMemory:
    """The allocator of one logical device and the bookkeeping that ties arrays to it."""

    def __init__(self, device_name: str, allocator, cuda_ordinal: int | None = None):
        self.device_name = device_name
        self.allocator = allocator
        self.cuda_ordinal = cuda_ordinal
        self._owners: dict = {}  # id(root array) -> _ArrayOwner
        self._queue_free = allocator.queue_free
        self._allocate = allocator.allocate
        self._died = self._buffer_died  # one bound method for every weak reference

    @property
    def name(self) -> str:
        """The allocator's name: 'GPU_0_bfc' or 'cpu'."""
        return self.allocator.name

    def adopt(self, array):
        """Charge a NumPy kernel output to this device (once per buffer); returns the array."""
        if array.__class__ is not np.ndarray and not getattr(array, "keeps_class", False):
            array = np.asarray(array)  # NumPy scalars become 0-d arrays, which can be weakly referenced
        root = array
        base = root.base
        while base is not None and isinstance(base, np.ndarray):
            root = base
            base = root.base
        key = id(root)
        owner = self._owners.get(key)
        if owner is not None and owner() is root:
            return array
        nbytes = root.nbytes
        if not nbytes:
            return array
        chunk = self._allocate(nbytes)
        if chunk is None:
            chunk = self._allocate_after_collecting(nbytes, array)
        owner = _ArrayOwner(root, self._died)
        owner.chunk = chunk
        owner.key = key
        self._owners[key] = owner
        return array

    def _buffer_died(self, owner: _ArrayOwner) -> None:
        """Weak-reference callback (any thread, maybe inside the collector): queue the chunk back."""
        self._queue_free(owner.chunk)
        if self._owners.get(owner.key) is owner:
            del self._owners[owner.key]

    def trim(self, array) -> int:
        """Give back the unused tail of the chunk holding `array`'s buffer (a variable's new value adopted from
        an op's output keeps only what it uses); the bytes given back."""
        if self._owners is None:   # the host's memory: counted, not allocated in chunks
            return 0
        root = array
        while isinstance(getattr(root, "base", None), np.ndarray):
            root = root.base
        owner = self._owners.get(id(root))
        if owner is None or owner() is not root or not hasattr(self.allocator, "trim"):
            return 0
        return self.allocator.trim(owner.chunk)

    def cupy_malloc(self, size: int):
        """CuPy allocator hook: a MemoryPointer into this device's pool."""
        import cupy
        if size == 0:
            return cupy.cuda.MemoryPointer(cupy.cuda.Memory(0), 0)
        chunk = self.allocator.allocate(size)
        if chunk is None:
            chunk = self._allocate_after_collecting(size, None)
        memory = cupy.cuda.UnownedMemory(chunk.ptr, size, _ChunkOwner(chunk, self.allocator), self.cuda_ordinal)
        return cupy.cuda.MemoryPointer(memory, 0)

    def check_fits(self, nbytes: int, shape=None, dtype=None) -> None:
        """Raise DeviceOutOfMemory when `nbytes` more cannot fit under the limit, before anyone allocates
        them (the books are not touched; the allocation itself is still checked when it is charged)."""
        allocator = self.allocator
        if nbytes <= 0 or allocator.fits(nbytes):
            return
        gc.collect()
        if not allocator.fits(nbytes):
            raise DeviceOutOfMemory(self, nbytes, shape, dtype)

    def _allocate_after_collecting(self, nbytes: int, array, shape=None, dtype=None):
        """Collect garbage once (dead tensors in cycles give their chunks back) and retry."""
        gc.collect()
        chunk = self.allocator.allocate(nbytes)
        if chunk is None:
            if array is not None:
                shape, dtype = array.shape, array.dtype
            raise DeviceOutOfMemory(self, nbytes, shape, dtype)
        return chunk

    def stats(self) -> dict:
        """Allocator statistics plus the allocator's name."""
        return {"allocator": self.name, **self.allocator.stats()}

    def release_unused(self) -> int:
        """Give wholly free regions back to the device; the number of bytes released."""
        return self.allocator.release_free_regions()

    def reset_peaks(self) -> None:
        """Make peak statistics equal the current ones."""
        self.allocator.reset_peaks()


class HostMemory(DeviceMemory):
    """A CPU's memory: host accounting, charged by one closure (it runs for every eager op's output).

    Each counted buffer gets a `HostBuffer` weak reference whose callback is the event log's own
    `append`: a dying buffer logs its reference with no Python code run, and the replay reads it as
    a free of its size and drops it from the live set. A buffer already counted is recognised by its
    weak references, so views and outputs that are inputs are counted once (once across logical
    CPUs too: they share the host's memory, and pass buffers to each other without copies)."""

    def __init__(self, device_name: str, accounting: HostAccounting):
        super().__init__(device_name, accounting)
        self._owners = self._died = None  # the base class's owner table is not used here
        self.adopt = _host_adopt(accounting)


def _host_adopt(accounting: HostAccounting):
    log, live, replay = accounting.events.append, accounting.live.add, accounting.replay_if_free
    events, ndarray = accounting.events, np.ndarray

    def adopt(array, getweakrefs=getweakrefs, HostBuffer=HostBuffer, len=len):
        """Count `array`'s root buffer to the host (once per buffer); returns the array."""
        if array.__class__ is not ndarray and not getattr(array, "keeps_class", False):  # (shape-only arrays kept)
            array = np.asarray(array)
        root = array
        base = root.base
        while base is not None and isinstance(base, ndarray):
            root = base
            base = root.base
        refs = getweakrefs(root)
        if refs:
            for ref in refs:
                if ref.__class__ is HostBuffer:
                    return array
        nbytes = root.nbytes
        if nbytes:
            log(nbytes)
            if len(events) > REPLAY_AFTER:
                replay()
            buffer = HostBuffer(root, log)
            buffer.nbytes = nbytes
            live(buffer)
        return array
    return adopt


def for_device(info, cuda_ordinal: int | None) -> DeviceMemory:
    """The memory of a logical device: a BFC pool for GPUs, host accounting for CPUs."""
    if info.device_type != "GPU":
        host_malloc.keep_step_buffers()
        return HostMemory(info.name, HostAccounting("cpu"))
    name = f"GPU_{info.index}_bfc"
    if cuda_ordinal is None:
        source = VirtualAddressSpace(SIMULATED_ADDRESS_BASE + (info.index << 44))
    else:
        source = CudaRegions(cuda_ordinal)
    return DeviceMemory(info.name, BFCAllocator(name, info.memory_limit, info.memory_growth, source), cuda_ordinal)
