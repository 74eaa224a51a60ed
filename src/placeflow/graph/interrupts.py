"""Ctrl-C and steps that write state: a step is applied whole, then the interrupt is raised.

A step that writes variables on several devices must not stop half way (replicas would differ from
then on). TensorFlow's C++ executor finishes a step before Python sees the signal; placeflow defers
SIGINT the same way while such a step runs in the main thread. A second Ctrl-C during the same step
interrupts at once (for a step that never ends), and says what that may leave behind.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading

SECOND_INTERRUPT = ("placeflow: interrupted again before the step finished: stopping now. The step may be "
                    "applied to some devices only (mirrored variables may differ between replicas).")


@contextlib.contextmanager
def step_finishes_first():
    """Defer SIGINT until the block ends (main thread, Python's own handler only); then raise it."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    pending = []

    def on_interrupt(signum, frame):
        if pending:
            print(SECOND_INTERRUPT, file=sys.stderr, flush=True)
            raise KeyboardInterrupt
        pending.append(signum)

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pending:
        raise KeyboardInterrupt
