"""The CPU's allocator: byte accounting over NumPy's own allocations (no limit, no pool).

Every allocation and free is one atomic deque append (+n or -n bytes); the log is replayed in
order under the lock when it grows long or when statistics are asked for, so the peak is exact.
"""

from __future__ import annotations

import collections
import threading

REPLAY_AFTER = 4096  # events logged before the allocating thread replays them


class HostAccounting:
    """Counts the bytes of live host tensors; allocates nothing itself (NumPy does)."""

    def __init__(self, name: str = "cpu"):
        self.name = name
        self._lock = threading.Lock()
        self._events = collections.deque()  # +bytes allocated, -bytes freed, in order
        self.in_use = self.peak_in_use = self.num_allocs = self.num_frees = self.largest_alloc = 0

    def allocate(self, nbytes: int) -> int:
        """Record `nbytes` more in use; the token to free is the size itself."""
        events = self._events
        events.append(nbytes)
        if len(events) > REPLAY_AFTER and self._lock.acquire(blocking=False):
            try:
                self._replay()
            finally:
                self._lock.release()
        return nbytes

    def fits(self, nbytes: int) -> bool:
        """The host has no limit here: NumPy itself raises MemoryError when the machine is full."""
        return True

    def count_transient(self, nbytes: int) -> None:
        """Count `nbytes` allocated and freed again (a plan step's intermediates): they raise the peak."""
        if nbytes:
            self._events.extend((nbytes, -nbytes))

    def queue_free(self, token: int) -> None:
        """Record that an array of `token` bytes died (safe from any thread or the collector)."""
        self._events.append(-token)

    def _replay(self) -> None:
        events, in_use, peak = self._events, self.in_use, self.peak_in_use
        while events:
            delta = events.popleft()
            in_use += delta
            if delta > 0:
                self.num_allocs += 1
                if in_use > peak:
                    peak = in_use
                if delta > self.largest_alloc:
                    self.largest_alloc = delta
            else:
                self.num_frees += 1
        self.in_use, self.peak_in_use = in_use, peak

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
