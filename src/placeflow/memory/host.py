"""The CPU's allocator: byte accounting over NumPy's own allocations (no limit, no pool)."""

from __future__ import annotations

import collections
import threading


class HostAccounting:
    """Counts the bytes of live host tensors; allocates nothing itself (NumPy does)."""

    def __init__(self, name: str = "cpu"):
        self.name = name
        self.limit = None
        self.growth = True
        self._lock = threading.Lock()
        self.pending = collections.deque()  # sizes of arrays that died
        self.in_use = self.peak_in_use = self.num_allocs = self.largest_alloc = self.live_chunks = 0

    def allocate(self, nbytes: int) -> int:
        """Record `nbytes` more in use; the token to free is the size itself."""
        with self._lock:
            if self.pending:
                self._drain()
            self.in_use += nbytes
            self.live_chunks += 1
            self.num_allocs += 1
            if self.in_use > self.peak_in_use:
                self.peak_in_use = self.in_use
            if nbytes > self.largest_alloc:
                self.largest_alloc = nbytes
        return nbytes

    def queue_free(self, token: int) -> None:
        """Record that an array of `token` bytes died (safe from any thread or the collector)."""
        self.pending.append(token)

    def _drain(self) -> None:
        while self.pending:
            self.in_use -= self.pending.popleft()
            self.live_chunks -= 1

    def settle(self) -> None:
        """Apply queued frees."""
        with self._lock:
            self._drain()

    def release_free_regions(self) -> int:
        """The host keeps no pool: nothing to release."""
        self.settle()
        return 0

    def reset_peaks(self) -> None:
        """Make the peak equal the current value."""
        self.settle()
        with self._lock:
            self.peak_in_use, self.largest_alloc = self.in_use, 0

    def stats(self) -> dict:
        """Host statistics in the same keys as a GPU allocator's (limits are None)."""
        self.settle()
        with self._lock:
            return {
                "bytes_in_use": self.in_use,
                "peak_bytes_in_use": self.peak_in_use,
                "bytes_reserved": self.in_use,
                "peak_bytes_reserved": self.peak_in_use,
                "bytes_limit": None,
                "num_allocs": self.num_allocs,
                "live_allocations": self.live_chunks,
                "largest_alloc_size": self.largest_alloc,
                "largest_free_block_bytes": None,
                "fragmentation": 0.0,
                "num_regions": 0,
            }
