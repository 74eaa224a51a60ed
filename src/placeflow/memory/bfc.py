"""Best-fit with coalescing (BFC), TensorFlow's GPU allocator, as bookkeeping over address ranges.

Regions come from a `source` (virtual addresses for a simulated GPU, cudaMalloc'd buffers on
CUDA). Each region is cut into chunks; free chunks live in 21 size-class bins ordered by
(size, address). Allocation takes the best fit and splits it. A freed chunk first goes to a
cache by its exact size, so the common free-then-allocate-the-same-size pair costs a few list
operations; the cache hands out only a chunk of exactly the (rounded) request, which best fit
would choose too: the bytes in use stay TensorFlow's (a larger cached chunk would count its slack
as in use where TF's best fit finds a tighter one). Cached chunks are coalesced with their free
neighbours when the cache is flushed: on a miss, when the cache grows, and before any question
about free space is answered.

Frees may be requested from any thread at any time (the garbage collector included): they only
queue the chunk (`queue_free`), and the queue is drained under the lock by the next call.
"""

from __future__ import annotations

import bisect
import collections
import threading

MIN_ALLOCATION = 256  # bytes; also every chunk's alignment
NUM_BINS = 21  # bin b holds free chunks of at least 256 << b bytes; the last holds everything larger
MAX_INTERNAL_FRAGMENTATION = 128 << 20  # a chunk this much larger than the request is split
INITIAL_GROWTH_REGION = 2 << 20
CACHE_MAX_CHUNKS = 512  # freed-but-not-coalesced chunks kept before a flush

IN_USE, CACHED, FREE = 0, 1, 2


def rounded_size(nbytes: int) -> int:
    """`nbytes` rounded up to the 256-byte allocation unit (at least one unit)."""
    return max((nbytes + 255) & ~255, MIN_ALLOCATION)


def bin_for_size(size: int) -> int:
    """The bin of a free chunk of `size` bytes: floor(log2(size / 256)), at most 20."""
    return min(NUM_BINS - 1, max((size >> 8).bit_length() - 1, 0))


def size_class(size: int) -> int:
    """`size` with all but its top 4 bits cleared (at least 256): 8 cache classes per power of two."""
    shift = size.bit_length() - 4
    return size if shift <= 8 else size >> shift << shift


class Chunk:
    """A contiguous piece of a region: in use, cached (freed, not yet coalesced) or free."""

    __slots__ = ("ptr", "size", "requested", "state", "prev", "next", "region", "owner_key")

    def __init__(self, ptr, size, region, prev=None, nxt=None):
        self.ptr, self.size, self.region = ptr, size, region
        self.requested, self.state, self.prev, self.next, self.owner_key = 0, FREE, prev, nxt, None

    def __repr__(self) -> str:
        state = ("in use", "cached", "free")[self.state]
        return f"<Chunk {self.ptr:#x} size={self.size} {state}>"


class Region:
    """One range of device addresses obtained from the source; `handle` keeps it alive."""

    __slots__ = ("ptr", "size", "handle", "first")

    def __init__(self, ptr, size, handle):
        self.ptr, self.size, self.handle, self.first = ptr, size, handle, None


class VirtualAddressSpace:
    """Region source of a simulated GPU: addresses only; chunk bytes live in separate host arrays."""

    GAP = 1 << 20  # regions never touch, so chunks never coalesce across them

    def __init__(self, base: int):
        self._next = base

    def reserve(self, size: int):
        """(address, handle) of a fresh range of `size` bytes."""
        ptr = self._next
        self._next += (size + self.GAP + self.GAP - 1) // self.GAP * self.GAP
        return ptr, None

    def release(self, handle) -> None:
        """Virtual ranges need no release."""


class BFCAllocator:
    """A best-fit-with-coalescing pool with a byte limit, growing on demand or preallocated."""

    def __init__(self, name: str, limit: int, growth: bool, source):
        self.name = name
        self.limit = limit - limit % MIN_ALLOCATION
        self.growth = growth
        self._source = source
        self._lock = threading.Lock()
        self._acquire, self._release = self._lock.acquire, self._lock.release
        self._bins = [[] for _ in range(NUM_BINS)]  # sorted (size, ptr) of FREE chunks
        self._nonempty = 0  # bit b set when bin b has a chunk
        self._free = {}  # ptr -> FREE chunk
        self._cache = {}  # size -> CACHED chunks, most recent last
        self._cached = 0
        self.pending = collections.deque()  # chunks whose owners died; drained under the lock
        self.regions: list[Region] = []
        self._next_region = min(self.limit, INITIAL_GROWTH_REGION) if growth else self.limit
        self.in_use = self.peak_in_use = self.reserved = self.peak_reserved = 0
        self.num_allocs = self.num_frees = self.largest_alloc = 0
        if not growth and self.limit:
            self._extend(self.limit)

    # -- allocation -------------------------------------------------------------------------
    def allocate(self, nbytes: int) -> Chunk | None:
        """A chunk of at least `nbytes`, or None when the limit leaves no room."""
        size = (nbytes + 255) & ~255 or MIN_ALLOCATION
        self._acquire()
        try:
            if self.pending:
                self._drain()
            cached = self._cache.get(size)
            if cached:
                chunk = cached.pop()
                self._cached -= 1
            else:
                if self._cached:  # best fit over coalesced chunks, as TF's (which coalesces on every free)
                    self._flush_cache()
                chunk = self._take(size) or self._take_after_making_room(size)
                if chunk is None:
                    return None
            chunk.state = IN_USE
            chunk.requested = nbytes
            self.num_allocs += 1
            in_use = self.in_use = self.in_use + chunk.size
            if in_use > self.peak_in_use:
                self.peak_in_use = in_use
            if nbytes > self.largest_alloc:
                self.largest_alloc = nbytes
            return chunk
        finally:
            self._release()

    def trim(self, chunk: Chunk) -> int:
        """Give back the tail of an in-use chunk that its request does not use (a best-fit chunk up to twice
        its size is not split when taken); returns the bytes given back."""
        with self._lock:
            if chunk.state != IN_USE:
                return 0
            size = (chunk.requested + 255) & ~255 or MIN_ALLOCATION
            rest = chunk.size - size
            if rest < MIN_ALLOCATION:
                return 0
            tail = Chunk(chunk.ptr + size, rest, chunk.region, chunk, chunk.next)
            if chunk.next is not None:
                chunk.next.prev = tail
            chunk.next, chunk.size = tail, size
            self.in_use -= rest
            self._coalesce_and_bin(tail)
            return rest

    def fits(self, nbytes: int) -> bool:
        """Whether `nbytes` more could fit under the limit now (ignoring fragmentation)."""
        if self.pending:
            with self._lock:
                self._drain()
        return rounded_size(nbytes) <= self.limit - self.in_use

    def queue_free(self, chunk: Chunk) -> None:
        """Give `chunk` back; safe from any thread and from garbage-collector callbacks."""
        self.pending.append(chunk)

    def free(self, chunk: Chunk) -> None:
        """Give `chunk` back now."""
        self.pending.append(chunk)
        with self._lock:
            self._drain()

    @property
    def live_chunks(self) -> int:
        """Chunks handed out and not yet freed."""
        return self.num_allocs - self.num_frees

    def _drain(self) -> None:
        pending, cache = self.pending, self._cache
        freed = 0
        try:
            while pending:
                chunk = pending.popleft()
                if chunk.state != IN_USE:
                    raise RuntimeError(f"{self.name}: {chunk!r} was freed twice")
                chunk.state = CACHED
                freed += 1
                size = chunk.size
                self.in_use -= size
                same = cache.get(size)
                if same is None:
                    cache[size] = [chunk]
                else:
                    same.append(chunk)
        finally:
            self.num_frees += freed
            self._cached += freed
        if self._cached > CACHE_MAX_CHUNKS:
            self._flush_cache()

    def _take(self, size: int) -> Chunk | None:
        """Remove the best-fitting free chunk from the bins, split to `size`; None if none fits."""
        b = bin_for_size(size)
        while True:
            mask = self._nonempty >> b
            if not mask:
                return None
            b += (mask & -mask).bit_length() - 1
            keys = self._bins[b]
            i = bisect.bisect_left(keys, (size, 0))
            if i < len(keys):
                chunk = self._free[keys[i][1]]
                self._unbin(chunk, b, i)
                self._split(chunk, size)
                return chunk
            b += 1

    def _take_after_making_room(self, size: int) -> Chunk | None:
        if self._cached:
            self._flush_cache()
            chunk = self._take(size)
            if chunk is not None:
                return chunk
        if self._extend(size):
            return self._take(size)
        if self._release_free_regions() and self._extend(size):
            return self._take(size)
        return None

    def _split(self, chunk: Chunk, size: int) -> None:
        rest = chunk.size - size
        if rest >= size or rest >= MAX_INTERNAL_FRAGMENTATION:
            tail = Chunk(chunk.ptr + size, rest, chunk.region, chunk, chunk.next)
            if chunk.next is not None:
                chunk.next.prev = tail
            chunk.next, chunk.size = tail, size
            self._bin(tail)

    # -- bins -------------------------------------------------------------------------------
    def _bin(self, chunk: Chunk) -> None:
        chunk.state = FREE
        b = bin_for_size(chunk.size)
        bisect.insort(self._bins[b], (chunk.size, chunk.ptr))
        self._nonempty |= 1 << b
        self._free[chunk.ptr] = chunk

    def _unbin(self, chunk: Chunk, b: int | None = None, i: int | None = None) -> None:
        if b is None:
            b = bin_for_size(chunk.size)
            i = bisect.bisect_left(self._bins[b], (chunk.size, chunk.ptr))
        keys = self._bins[b]
        del keys[i]
        if not keys:
            self._nonempty &= ~(1 << b)
        del self._free[chunk.ptr]

    def _flush_cache(self) -> None:
        """Coalesce every cached chunk with its free neighbours and put it in a bin."""
        for chunks in self._cache.values():
            for chunk in chunks:
                self._coalesce_and_bin(chunk)
        self._cache.clear()
        self._cached = 0

    def _coalesce_and_bin(self, chunk: Chunk) -> None:
        nxt = chunk.next
        if nxt is not None and nxt.state == FREE:
            self._unbin(nxt)
            self._absorb_next(chunk)
        prev = chunk.prev
        if prev is not None and prev.state == FREE:
            self._unbin(prev)
            self._absorb_next(prev)
            chunk = prev
        self._bin(chunk)

    @staticmethod
    def _absorb_next(left: Chunk) -> None:
        """Merge `left.next` into `left` (both out of the bins)."""
        right = left.next
        left.size += right.size
        left.next = right.next
        if right.next is not None:
            right.next.prev = left

    # -- regions ----------------------------------------------------------------------------
    def _extend(self, size: int) -> bool:
        """Reserve a new region big enough for `size` (TensorFlow's doubling); False if over the limit."""
        available = self.limit - self.reserved
        if size > available:
            return False
        raised = False
        while self._next_region < size:
            self._next_region *= 2
            raised = True
        want = min(self._next_region, available)
        got = self._source.reserve(want)
        while got is None and want * 9 // 10 >= size:  # the device itself is short: back off
            want = (want * 9 // 10) & ~255
            got = self._source.reserve(want)
        if got is None:
            return False
        ptr, handle = got
        region = Region(ptr, want, handle)
        region.first = Chunk(ptr, want, region)
        self.regions.append(region)
        self._bin(region.first)
        self.reserved += want
        self.peak_reserved = max(self.peak_reserved, self.reserved)
        if not raised:
            self._next_region *= 2
        return True

    def _release_free_regions(self) -> int:
        self._flush_cache()
        released = 0
        for region in list(self.regions):
            chunk = region.first
            if chunk.state == FREE and chunk.size == region.size:
                self._unbin(chunk)
                self.regions.remove(region)
                self._source.release(region.handle)
                region.handle = None
                self.reserved -= region.size
                released += region.size
        return released

    def release_free_regions(self) -> int:
        """Give every wholly free region back to the source; the number of bytes released."""
        with self._lock:
            self._drain()
            return self._release_free_regions()

    # -- questions --------------------------------------------------------------------------
    def settle(self) -> None:
        """Apply queued frees and coalesce cached chunks, so free space is exact."""
        with self._lock:
            self._drain()
            self._flush_cache()

    def largest_free_block(self) -> int:
        """Size of the largest free chunk (after settling)."""
        self.settle()
        with self._lock:
            if not self._nonempty:
                return 0
            return self._bins[self._nonempty.bit_length() - 1][-1][0]

    def stats(self) -> dict:
        """Allocator statistics, TensorFlow's AllocatorStats plus placeflow's fragmentation."""
        largest = self.largest_free_block()
        with self._lock:
            free = self.reserved - self.in_use
            return {
                "bytes_in_use": self.in_use,
                "peak_bytes_in_use": self.peak_in_use,
                "bytes_reserved": self.reserved,
                "peak_bytes_reserved": self.peak_reserved,
                "bytes_limit": self.limit,
                "num_allocs": self.num_allocs,
                "live_allocations": self.live_chunks,
                "largest_alloc_size": self.largest_alloc,
                "largest_free_block_bytes": largest,
                "fragmentation": 1.0 - largest / free if free else 0.0,
                "num_regions": len(self.regions),
            }

    def reset_peaks(self) -> None:
        """Make the peaks equal the current values."""
        self.settle()
        with self._lock:
            self.peak_in_use, self.peak_reserved = self.in_use, self.reserved
            self.largest_alloc = 0

    def chunks(self) -> list:
        """Every chunk of every region in address order (settles first)."""
        self.settle()
        with self._lock:
            found = []
            for region in sorted(self.regions, key=lambda r: r.ptr):
                chunk = region.first
                while chunk is not None:
                    found.append(chunk)
                    chunk = chunk.next
            return found
