"""Whether ops run now or are recorded into a graph: the thread's current graph.

The graph layer installs `build` (record one op) and `variable_hooks`; the eager dispatcher
checks `current` (one ContextVar read) and hands the op over when a graph is being built.
"""

from __future__ import annotations

import contextvars

current = contextvars.ContextVar("placeflow_graph", default=None)
process_default = None   # the global default graph after compat.v1.disable_eager_execution()
build = None             # build(graph, op, inputs, dtype, attrs, resource, name) -> symbolic tensor(s)
variable_hooks = None    # object with make(graph, *args, **kwargs), read(graph, var), update(graph, var, op, value)


def active():
    """The graph ops are recorded into on this thread, or None when they run eagerly."""
    graph = current.get()
    return graph if graph is not None else process_default


class suspended:
    """Run eagerly inside, even while a graph is being built (creating state outside a trace)."""

    def __enter__(self):
        global process_default
        self._token = current.set(None)
        self._saved, process_default = process_default, None
        return self

    def __exit__(self, *exc):
        global process_default
        process_default = self._saved
        current.reset(self._token)
        return False
