"""Ctrl-C and steps that write state: a step is applied whole, then the interrupt is raised.

A step that writes variables on several devices must not stop half way (replicas would differ from
then on). TensorFlow's C++ executor finishes a step before Python sees the signal; placeflow defers
SIGINT the same way while such a step runs in the main thread. A second Ctrl-C during the same step
interrupts at once (for a step that never ends), and says what that may leave behind.
"""

from __future__ import annotations

import _signal
import sys
import threading

SECOND_INTERRUPT = ("placeflow: interrupted again before the step finished: stopping now. The step may be "
                    "applied to some devices only (mirrored variables may differ between replicas).")


class step_finishes_first:
    """Defer SIGINT until the block ends (main thread, Python's own handler only); then raise it.

    It runs around every step that writes state, so it talks to the interpreter's `_signal` module
    directly: `signal.signal` converts handlers to and from enums in Python (10 us a step, measured)."""

    __slots__ = ("previous", "pending")

    def __enter__(self):
        self.previous = None
        if threading.current_thread() is not _MAIN or _signal.getsignal(SIGINT) is not _signal.default_int_handler:
            return self
        pending = self.pending = []

        def on_interrupt(signum, frame):
            if pending:
                print(SECOND_INTERRUPT, file=sys.stderr, flush=True)
                raise KeyboardInterrupt
            pending.append(signum)

        self.previous = _signal.signal(SIGINT, on_interrupt)
        return self

    def __exit__(self, exc_type, *exc):
        if self.previous is None:
            return False
        _signal.signal(SIGINT, self.previous)
        if self.pending and exc_type is None:  # an error of the step itself is not masked
            raise KeyboardInterrupt
        return False


_MAIN = threading.main_thread()
SIGINT = _signal.SIGINT
