"""Running a replica function once per device, with merge_call pauses (TensorFlow's mirrored_run).

Each replica runs in its own thread, but only one runs at a time, in replica order: that keeps
graph building deterministic (ops of replica 0, then 1, ...) and lets a replica pause in
`merge_call` until every replica has reached it. The merge function then runs once, in the
caller's thread, in cross-replica context, and each replica resumes with its part of the result.
Concurrency comes later: a traced step runs the replicas' ops in parallel on their devices' lanes.
"""

from __future__ import annotations

import contextvars
import threading

from ..eager.variables import variable_creator_scope
from ..framework import graph_mode
from ..placement import scope as scope_module
from . import distribution_context
from .distribution_context import ReplicaContext
from .values import regroup, select_replica


MERGE_IN_NESTED_FUNCTION = (
    "`merge_call` called while defining a new graph or a tf.function. This can often happen if the function "
    "`fn` passed to `strategy.run()` contains a nested `@tf.function`, and the nested `@tf.function` contains a "
    "synchronization point, such as aggregating gradients (e.g, optimizer.apply_gradients), or if the function "
    "`fn` uses a control flow statement which contains a synchronization point in the body. Such behaviors are "
    "not yet supported. Instead, please avoid nested `tf.function`s or control flow statements that may "
    "potentially cross a synchronization boundary, for example, wrap the `fn` passed to `strategy.run` or the "
    "entire `strategy.run` inside a `tf.function` or move the control flow out of `fn`. If you are subclassing a "
    "`tf.keras.Model`, please avoid decorating overridden methods `test_step` and `train_step` in `tf.function`.")


class _Cancelled(BaseException):
    """Raised inside a paused replica when another replica failed."""


class _ReplicaThread(threading.Thread):
    def __init__(self, coordinator, index, fn, args, kwargs, context):
        super().__init__(name=f"replica_{index}", daemon=True)
        self.coordinator, self.index = coordinator, index
        self.fn, self.args, self.kwargs, self.context = fn, args, kwargs, context
        self.should_run, self.has_paused = threading.Event(), threading.Event()
        self.done, self.cancelled = False, False
        self.result, self.error = None, None
        self.merge_fn = self.merge_args = self.merge_kwargs = self.merge_result = None

    def run(self) -> None:
        self.should_run.wait()
        self.should_run.clear()
        try:
            if not self.cancelled:
                self.result = self.context.run(self._body)
        except _Cancelled:
            pass
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            self.error = exc
        finally:
            self.done = True
            self.has_paused.set()

    def _body(self):
        strategy = self.coordinator.strategy
        device = strategy.extended.worker_devices[self.index]
        distribution_context.push(strategy, ReplicaContext(strategy, self.index, self.coordinator))
        token = scope_module.current.set(scope_module.make_scope(device, scope_module.current.get()))
        try:
            with _replica_name_scope(self.index), variable_creator_scope(_refuse_replica_variable):
                return self.fn(*self.args, **self.kwargs)
        finally:
            scope_module.current.reset(token)
            distribution_context.pop()


def _refuse_replica_variable(next_creator, **kwargs):
    """Variables made inside strategy.run would be one independent variable per replica, not the one
    mirrored variable TensorFlow makes: refused until that is implemented."""
    raise ValueError(
        f"Creating a variable ({kwargs.get('name') or 'unnamed'}) inside `strategy.run` with several replicas is "
        "not supported by placeflow: each replica would get its own independent variable. Create variables "
        "in cross-replica context, inside `with strategy.scope():` before calling `strategy.run` (build the "
        "model and optimizer there, or call `model.build(...)` first).")


class Coordinator:
    """Runs replica threads in turn and the merge functions between their pauses."""

    def __init__(self, strategy):
        self.strategy = strategy
        self.threads: list = []
        self.caller_graph = None

    def run(self, fn, args, kwargs):
        """fn(*args, **kwargs) on every replica (distributed arguments split per replica); results regrouped."""
        context = contextvars.copy_context()
        self.caller_graph = graph_mode.active()
        count = len(self.strategy.extended.worker_devices)
        self.threads = [_ReplicaThread(self, i, fn, select_replica(i, args), select_replica(i, kwargs), context.copy())
                        for i in range(count)]
        for thread in self.threads:
            thread.start()
        try:
            while True:
                self._resume_all()
                if all(t.done for t in self.threads):
                    break
                if any(t.done for t in self.threads):
                    raise RuntimeError("Some replicas made a different number of replica_context().merge_call() "
                                       "calls; every replica must call merge_call the same number of times.")
                self._merge()
        except BaseException:
            self._cancel()
            raise
        return regroup([t.result for t in self.threads])

    def merge_call(self, index, merge_fn, args, kwargs):
        """Called in replica `index`'s thread: pause until every replica arrives, then return the merged result."""
        if graph_mode.active() is not self.caller_graph:
            raise RuntimeError(MERGE_IN_NESTED_FUNCTION)
        thread = self.threads[index]
        thread.merge_fn, thread.merge_args, thread.merge_kwargs = merge_fn, args, kwargs
        thread.has_paused.set()
        thread.should_run.wait()
        thread.should_run.clear()
        if thread.cancelled:
            raise _Cancelled()
        return select_replica(index, thread.merge_result)

    def _resume_all(self) -> None:
        for thread in self.threads:
            if thread.done:
                continue
            thread.should_run.set()
            thread.has_paused.wait()
            thread.has_paused.clear()
            if thread.error is not None:
                raise thread.error

    def _merge(self) -> None:
        first = self.threads[0]
        args = regroup([t.merge_args for t in self.threads])
        kwargs = regroup([t.merge_kwargs for t in self.threads])
        distribution_context.push(self.strategy)
        try:
            result = first.merge_fn(self.strategy, *args, **kwargs)
        finally:
            distribution_context.pop()
        for thread in self.threads:
            thread.merge_result = result

    def _cancel(self) -> None:
        for thread in self.threads:
            if not thread.done:
                thread.cancelled = True
                thread.should_run.set()


def _replica_name_scope(index: int):
    """Graph ops of replica i > 0 are named under 'replica_i/' (as in TensorFlow); a no-op eagerly."""
    from ..framework import graph_mode
    graph = graph_mode.active()
    if graph is None or index == 0:
        import contextlib
        return contextlib.nullcontext()
    return graph.name_scope(f"replica_{index}")
