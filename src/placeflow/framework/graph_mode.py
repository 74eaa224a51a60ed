"""Whether ops run now or are recorded into a graph: the thread's current graph.

The eager dispatcher checks `current` (one ContextVar read) and hands the op to the graph (an
interpreter: framework/interpreter.py) when one is being built.
"""

from __future__ import annotations

import contextvars

current = contextvars.ContextVar("placeflow_graph", default=None)
process_default = None   # the global default graph after compat.v1.disable_eager_execution()


EAGER = object()          # `current` set to this: this thread runs ops eagerly even under a process default graph


def active():
    """The graph ops are recorded into on this thread, or None when they run eagerly."""
    graph = current.get()
    if graph is EAGER:
        return None
    return graph if graph is not None else process_default


class suspended:
    """Run eagerly inside on this thread, even while a graph is being built (creating state outside a trace,
    running a dataset's functions); other threads are unaffected."""

    def __enter__(self):
        self._token = current.set(EAGER)
        return self

    def __exit__(self, *exc):
        current.reset(self._token)
        return False
