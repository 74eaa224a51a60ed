"""Which strategy is current in this thread, and whether code runs in cross-replica or replica context.

Each thread has a stack of (strategy, replica context or None). `strategy.scope()` pushes a
cross-replica entry; `strategy.run` pushes a replica entry in each replica's thread.
"""

from __future__ import annotations

import threading

_local = threading.local()


def _stack() -> list:
    if not hasattr(_local, "stack"):
        _local.stack = []
    return _local.stack


def push(strategy, replica_context=None) -> None:
    """Enter `strategy` (cross-replica when `replica_context` is None) in this thread."""
    _stack().append((strategy, replica_context))


def pop() -> None:
    """Leave the innermost entry of this thread."""
    _stack().pop()


_default_strategy = None  # the factory of the default strategy, registered by strategy.py


def register_default_strategy(factory) -> None:
    """Set the function returning the process's default strategy (strategy.py does, on import)."""
    global _default_strategy
    _default_strategy = factory


def current():
    """(strategy, replica context) of this thread; the default strategy when none is entered."""
    stack = _stack()
    if stack:
        return stack[-1]
    strategy = _default_strategy()
    return strategy, strategy._default_replica_context


def trace_key():
    """What a function traced here depends on: the entered strategy and the replica (None outside any)."""
    stack = _stack()
    if not stack:
        return None
    strategy, replica = stack[-1]
    return id(strategy), None if replica is None else replica.replica_id_in_sync_group


def creator_active(strategy) -> bool:
    """Whether `strategy.scope()` already installed its variable creator in this thread."""
    return strategy in getattr(_local, "creators", ())


class creator_scope:
    """Mark `strategy`'s variable creator as installed in this thread (for nested scopes)."""

    def __init__(self, strategy):
        self._strategy = strategy

    def __enter__(self):
        self._saved = getattr(_local, "creators", ())
        _local.creators = self._saved + (self._strategy,)
        return self

    def __exit__(self, *exc):
        _local.creators = self._saved
        return False


def update_index():
    """The copy `StrategyExtended.update` is updating in this thread (None outside an update)."""
    return getattr(_local, "update_index", None)


class updating:
    """Inside `StrategyExtended.update` for copy `index`: distributed variables act on that copy only."""

    def __init__(self, index: int):
        self._index = index

    def __enter__(self):
        self._saved = update_index()
        _local.update_index = self._index
        return self

    def __exit__(self, *exc):
        _local.update_index = self._saved
        return False


def get_strategy():
    """The current strategy (the default strategy outside any `scope()`)."""
    return current()[0]


def has_strategy() -> bool:
    """Whether a non-default strategy is current."""
    return bool(_stack())


def in_cross_replica_context() -> bool:
    """True inside `strategy.scope()` but outside `strategy.run`."""
    return bool(_stack()) and _stack()[-1][1] is None


def get_replica_context():
    """The ReplicaContext inside `run` (or the default one outside any strategy); None in cross-replica context."""
    return current()[1]


def get_cross_replica_context():
    """The current strategy in cross-replica context, else None."""
    strategy, replica = current()
    return strategy if replica is None else None


class ReplicaContext:
    """What a replica function can ask: its id, the replica count, merge_call and all_reduce."""

    def __init__(self, strategy, replica_id_in_sync_group: int, coordinator=None):
        self._strategy = strategy
        self._replica_id = replica_id_in_sync_group
        self._coordinator = coordinator

    @property
    def strategy(self):
        """The strategy running this replica."""
        return self._strategy

    @property
    def replica_id_in_sync_group(self) -> int:
        """0 .. num_replicas_in_sync - 1 (over every worker of a multi-worker strategy)."""
        return self._strategy.extended.replica_offset + self._replica_id

    @property
    def local_replica_id(self) -> int:
        """This replica's place among this process's devices (placeflow's; the global id less the offset)."""
        return self._replica_id

    @property
    def num_replicas_in_sync(self) -> int:
        """How many replicas run in sync."""
        return self._strategy.num_replicas_in_sync

    @property
    def devices(self) -> tuple:
        """The device this replica runs on, as a one-element tuple."""
        return (self._strategy.extended.worker_devices[self._replica_id],)

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """Pause every replica, run merge_fn(strategy, *args) once in cross-replica context, resume."""
        kwargs = kwargs or {}
        if self._coordinator is None:  # one replica: no one to wait for
            push(self._strategy)
            try:
                return merge_fn(self._strategy, *args, **kwargs)
            finally:
                pop()
        return self._coordinator.merge_call(self._replica_id, merge_fn, args, kwargs)

    def all_reduce(self, reduce_op, value):
        """`value` (a tensor or a structure of them) reduced over all replicas (SUM or MEAN), in every replica.
        Differentiable: the gradient of each replica's input is the same reduction of every replica's
        upstream gradient (as TensorFlow's)."""
        from ..api.custom_gradient import custom_gradient
        from ..framework.nest import flatten, pack_as
        from ..ops.indexed_slices import IndexedSlices
        if self._coordinator is None and self._strategy.num_replicas_in_sync == 1:
            return value  # one replica: the sum and the mean are the value (IndexedSlices stay IndexedSlices)
        def merge(strategy, *per_replica):
            return strategy.extended.batch_reduce_to(reduce_op, [(v, v) for v in per_replica])

        leaves = flatten(value)
        if any(isinstance(v, IndexedSlices) for v in leaves):
            # IndexedSlices are all-gathered (as TF does: the gathered rows are the sum), outside the
            # differentiable path below (a reduction of gradients is not itself differentiated)
            slices = [i for i, v in enumerate(leaves) if isinstance(v, IndexedSlices)]
            gathered = list(self.merge_call(merge, args=[leaves[i] for i in slices]))
            rest = [v for v in leaves if not isinstance(v, IndexedSlices)]
            reduced = iter(self.all_reduce(reduce_op, rest) if rest else [])
            by_position = dict(zip(slices, gathered))
            return pack_as(value, [by_position[i] if i in by_position else next(reduced)
                                   for i in range(len(leaves))])

        @custom_gradient
        def reduce(*tensors):
            outputs = list(self.merge_call(merge, args=tensors))

            def gradient(*upstream):
                return self.all_reduce(reduce_op, list(upstream))
            return outputs, gradient
        return pack_as(value, list(reduce(*flatten(value))))
