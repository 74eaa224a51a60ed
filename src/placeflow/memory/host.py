"""The CPU's allocator: byte accounting over NumPy's own allocations (no limit, no pool).

Every allocation and free is one atomic list append (+n bytes; -n bytes or the dead buffer's
HostBuffer); the log is replayed in order, in one NumPy pass under the lock, when it grows long or
when statistics are asked for, so the peak is exact.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np

REPLAY_AFTER = 4096  # events logged before the allocating thread replays them


class HostBuffer(weakref.ref):
    """A weak reference to a counted host buffer, remembering its size; hashed by identity (arrays
    are unhashable) so the live set can hold it until its death is replayed."""

    __slots__ = ("nbytes",)
    __hash__ = object.__hash__
    __eq__ = object.__eq__


class HostAccounting:
    """Counts the bytes of live host tensors; allocates nothing itself (NumPy does)."""

    def __init__(self, name: str = "cpu"):
        self.name = name
        self._lock = threading.Lock()
        self.events = []    # +bytes allocated, -bytes or a dead HostBuffer freed, in order (appends are atomic)
        self.live = set()                    # HostBuffers of live counted buffers (keeps their callbacks alive)
        self.in_use = self.peak_in_use = self.num_allocs = self.num_frees = self.largest_alloc = 0

    def allocate(self, nbytes: int) -> int:
        """Record `nbytes` more in use; the token to free is the size itself."""
        events = self.events
        events.append(nbytes)
        if len(events) > REPLAY_AFTER:
            self.replay_if_free()
        return nbytes

    def replay_if_free(self) -> None:
        """Replay the log now unless another thread is replaying it (callers that logged many events)."""
        if self._lock.acquire(blocking=False):
            try:
                self._replay()
            finally:
                self._lock.release()

    def fits(self, nbytes: int) -> bool:
        """The host has no limit here: NumPy itself raises MemoryError when the machine is full."""
        return True

    def count_transient(self, nbytes: int) -> None:
        """Count `nbytes` allocated and freed again (a plan step's intermediates): they raise the peak."""
        if nbytes:
            self.events.extend((nbytes, -nbytes))

    def queue_free(self, token: int) -> None:
        """Record that an array of `token` bytes died (safe from any thread or the collector)."""
        self.events.append(-token)

    def _replay(self) -> None:
        """Apply the logged events in order (under the lock): in use, its exact peak, counts."""
        events = self.events
        count = len(events)
        if not count:
            return
        batch = events[:count]
        del events[:count]       # appends made meanwhile stay, after the batch
        freed = []
        died = freed.append
        deltas = np.array([e if e.__class__ is int else died(e) or -e.nbytes for e in batch], dtype=np.int64)
        self.live.difference_update(freed)
        running = np.cumsum(deltas) + self.in_use
        allocations = deltas[deltas > 0]
        self.in_use = int(running[-1])
        self.peak_in_use = max(self.peak_in_use, int(running.max()))
        self.num_allocs += int(allocations.size)
        self.num_frees += count - int(allocations.size)
        if allocations.size:
            self.largest_alloc = max(self.largest_alloc, int(allocations.max()))

    def settle(self) -> None:
        """Replay the event log."""
        with self._lock:
            self._replay()

    def release_free_regions(self) -> int:
        """The host keeps no pool: nothing to release."""
        self.settle()
        return 0

    def reset_peaks(self) -> None:
        """Make the peak equal the current value."""
        with self._lock:
            self._replay()
            self.peak_in_use, self.largest_alloc = self.in_use, 0

    def stats(self) -> dict:
        """Host statistics in the same keys as a GPU allocator's (limits are None)."""
        with self._lock:
            self._replay()
            return {
                "bytes_in_use": self.in_use,
                "peak_bytes_in_use": self.peak_in_use,
                "bytes_reserved": self.in_use,
                "peak_bytes_reserved": self.peak_in_use,
                "bytes_limit": None,
                "num_allocs": self.num_allocs,
                "live_allocations": self.num_allocs - self.num_frees,
                "largest_alloc_size": self.largest_alloc,
                "largest_free_block_bytes": None,
                "fragmentation": 0.0,
                "num_regions": 0,
            }
