"""Running a Plan: inline in the caller's thread, or in parallel on the devices' lanes.

- Inline: a plan without two independent expensive nodes runs as one generated Python function
  (one line per node, no queues, no locks), in the caller's thread.
- Per device: a plan whose parallelism lies only across devices runs one generated program per
  device, each in its own thread, waiting only for other devices' values (device_programs).
- Parallel: every node counts its pending inputs; ready nodes go to their device's lane; a worker
  that finishes a node runs one newly ready node of the same device itself and queues the rest.
  Every value counts its readers down and is dropped after the last (liveness.py).
- Traced runs (step stats) run the same code with a timing call after each node's line.
The first error cancels the step: nodes not yet started are skipped, and the error is raised with
the failing node's name.
"""

from __future__ import annotations

import heapq
import threading
import time

from ..framework import errors
from ..placement import cost_model_placer
from ..runtime import forwarding, kernel_errors, step_clock
from ..ops.collective import COLLECTIVE_OPS
from . import codegen, device_programs, interrupts, liveness
from . import lanes as lanes_module
from .step_stats import NodeExecStats, StepStatsCollector


def run(plan, feed_values, lanes=None, collector: StepStatsCollector | None = None, host_threads: int = 0) -> list:
    """Compute the plan's fetches from `feed_values` (already on their devices); `host_threads`: the
    inter-op thread budget (cores when 0)."""
    plan.record.ran()
    if plan.writes_state:  # Ctrl-C waits for the step: its writes land on every device or on none
        with interrupts.step_finishes_first():
            return _run(plan, feed_values, lanes, collector, host_threads)
    return _run(plan, feed_values, lanes, collector, host_threads)


def _run(plan, feed_values, lanes, collector, host_threads) -> list:
    if plan.parallel and lanes is not None and _modelled(plan):
        order = _device_programs(plan, collector is not None, host_threads or lanes_module.worker_budget(0)).order \
            if plan.per_device else None
        fetched = _fetch(plan, _Step(plan, feed_values, lanes, collector).run_in_modelled_order(order))
    elif plan.parallel and lanes is not None and plan.per_device:
        programs = _device_programs(plan, collector is not None, host_threads or lanes_module.worker_budget(0))
        fetched = _fetch(plan, programs.run(feed_values, lanes, collector))
    elif plan.parallel and lanes is not None:
        fetched = _fetch(plan, _Step(plan, feed_values, lanes, collector).run())
    else:
        fetched = _run_inline(plan, feed_values, collector)
    _count_host_transients(plan)
    return fetched


def _pass_inputs(call, values, inputs, dying):
    """`call` on `inputs` read from `values` ((source, port) pairs), the `dying` sources dropped from `values`
    first: the one way the dataflow runner passes a forwarding node its inputs (calibrated below)."""
    args = [values[s] if p is None else values[s][p] for s, p in inputs]
    for source in dying:
        values[source] = None
    return call(*args)


_sole_refs = None


def _passed_sole_refs() -> int:
    """The reference count a forwarding call sees for an input only `_pass_inputs` holds, measured once."""
    global _sole_refs
    if _sole_refs is None:
        _sole_refs = forwarding.sole_refs_when_passed_by(
            lambda call, make: _pass_inputs(call, [make()], [(0, None)], [0]))
    return _sole_refs


def _modelled(plan) -> bool:
    """Whether a shape-only estimation runs the plan in modelled time (run_in_modelled_order): a placement of the
    cost-model placer with kernels on several devices, without collectives (which need every device's thread at
    once). In a real run the kernels' times decide how the devices' work interleaves (and a CPU kernel's
    consumers wait for it), as the placer predicts; a shape-only run's kernels take no time, so its threads' real
    order would be arbitrary. Other plans keep the executor's own order: their estimated memory is the real
    run's."""
    if not plan.nodes[0].device.estimating or plan.has_collectives:
        return False
    kernels = [n for n in plan.nodes if n.kind == "kernel"]
    return len({n.device.name for n in kernels}) > 1 and \
        all(n.op is not None and cost_model_placer.placed_by_cost_model(n.op) for n in kernels)


def _fetch(plan, values) -> list:
    return [values[i] if port is None else values[i][port] for i, port in plan.fetches]


def _count_host_transients(plan) -> None:
    for memory, nbytes in plan.host_transients:
        memory.allocator.count_transient(nbytes)


def _reraise(exc, plan, index):
    error = node_error(exc, None if index is None else plan.nodes[index])
    codegen.clear_plan_frames(exc)
    if error is exc:
        raise exc
    raise error from exc


def collective_groups(plan) -> list:
    """The rendezvous of the plan's collective nodes (aborted when a step fails, reset after it)."""
    groups = (n.attrs.get("group") for n in plan.nodes if n.type in COLLECTIVE_OPS)
    return list({id(g): g for g in groups if g is not None}.values())


def _device_programs(plan, traced: bool, host_threads: int):
    key = (traced, host_threads)
    programs = plan.device_programs.get(key)
    if programs is None:
        programs = plan.device_programs[key] = device_programs.DevicePrograms(plan, traced, host_threads)
    return programs


def node_error(exc, node):
    """The error to raise for `exc` raised by plan node `node` (None: no node's line raised it)."""
    if node is None:
        return kernel_errors.as_op_error(exc, "step", None, None) if not isinstance(exc, errors.OpError) else exc
    return kernel_errors.for_node(exc, node)


def compute(node, values):
    """Run one node on its inputs from `values`; returns its output (a tuple for multi-output ops)."""
    return node.call(*[values[s] if p is None else values[s][p] for s, p in node.inputs])


def _run_inline(plan, feed_values, collector) -> list:
    """The plan's generated step in the calling thread (its traced variant when collecting stats)."""
    if collector is None:
        if plan.inline is None:
            plan.inline = codegen.compile_inline(plan)
        step, record = plan.inline, None
    else:
        if plan.inline_traced is None:
            plan.inline_traced = codegen.compile_inline(plan, traced=True)
        step, record = plan.inline_traced, _recorder(plan, collector)
    try:
        return step(feed_values, record)
    except BaseException as exc:  # noqa: BLE001 - re-raised with the failing node's name
        _reraise(exc, plan, codegen.failed_node(exc))


def _recorder(plan, collector):
    nodes, thread = plan.nodes, threading.current_thread().name

    def record(index, start, value):
        collector.record(NodeExecStats.of(nodes[index], thread, start, time.perf_counter_ns(), value))
    return record


def _initial_values(plan, feed_values) -> list:
    values = [None] * len(plan.nodes)
    for node in plan.nodes:
        if node.kind == "const":
            values[node.index] = node.value
        elif node.kind == "feed":
            values[node.index] = feed_values[node.feed_index]
    return values


class _Step:
    """One parallel run of a plan: pending counts, values, the first error, and a done event."""

    def __init__(self, plan, feed_values, lanes, collector):
        self.plan, self.lanes, self.collector = plan, lanes, collector
        self.values = _initial_values(plan, feed_values)
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.error = None
        self.pending = list(plan.pending)
        if plan.readers is None:
            plan.readers = liveness.reader_counts(plan)
        self.readers = list(plan.readers)  # per value: readers still to run (a value is dropped at zero)
        self.remaining = sum(n.kind not in ("const", "feed") for n in plan.nodes)

    def run(self) -> list:
        """Dispatch the roots, wait for the last node, raise the first error."""
        if self.remaining == 0:
            return self.values
        for index in self.plan.roots:
            self._dispatch(index)
        self.done.wait()
        if self.error is not None:
            for group in collective_groups(self.plan):
                group.reset()
            raise self.error
        return self.values

    def run_in_modelled_order(self, order=None) -> list:
        """Shape-only estimation (see `_modelled`): the nodes one at a time in this thread, next the ready node
        that can start first on the step clock, as a dataflow executor takes them when kernels take their
        modelled time, ties in plan order. With `order` (per-device programs), each device's nodes keep their
        program's order."""
        nodes, ready = self.plan.nodes, []
        follower = self._chain_devices(order) if order is not None else {}
        for index in self.plan.roots:
            if not self.pending[index]:
                heapq.heappush(ready, (self._modelled_start(nodes[index]), index))
        while ready and self.error is None:
            _, index = heapq.heappop(ready)
            now = self._modelled_start(nodes[index])
            if ready and (now, index) > ready[0]:   # its device got busier meanwhile: re-rank it
                heapq.heappush(ready, (now, index))
                continue
            node = nodes[index]
            self._compute(node)
            self._release_inputs(node)
            for consumer in node.consumers + follower.get(index, []):
                self.pending[consumer] -= 1
                if self.pending[consumer] == 0:
                    heapq.heappush(ready, (self._modelled_start(nodes[consumer]), consumer))
        if self.error is not None:
            raise self.error
        return self.values

    def _chain_devices(self, order) -> dict:
        """{node: [the next node of its device's program]}, each counted as one more pending input."""
        follower, last = {}, {}
        for index in order:
            node = self.plan.nodes[index]
            if node.kind in ("const", "feed"):
                continue
            before = last.get(node.device.name)
            if before is not None:
                follower[before] = [index]
                self.pending[index] += 1
            last[node.device.name] = index
        return follower

    def _modelled_start(self, node) -> float:
        args = [self.values[s] if p is None else self.values[s][p] for s, p in node.inputs]
        return step_clock.earliest_start(node.device if node.kind == "kernel" else None, args)

    def _dispatch(self, index) -> None:
        self.lanes[self.plan.nodes[index].device.name].submit(self._process, index)

    def _process(self, index) -> None:
        nodes = self.plan.nodes
        while index is not None:
            node = nodes[index]
            if self.error is None:
                self._compute(node)
            ready = []
            with self.lock:
                self._release_inputs(node)
                self.remaining -= 1
                finished = self.remaining == 0
                for consumer in node.consumers:
                    self.pending[consumer] -= 1
                    if self.pending[consumer] == 0:
                        ready.append(consumer)
            index = None
            for consumer in ready:
                if index is None and nodes[consumer].device is node.device:
                    index = consumer          # continue on this thread: no queue hop
                else:
                    self._dispatch(consumer)
            if finished:
                self.done.set()

    def _forwarding(self, node):
        """The node's forwarding callable when an input it may write into is read by no other node still to
        run (readers only count down, so no other reader can start after this check), else None."""
        readers, nodes = self.readers, self.plan.nodes
        dying = {s for p in node.forward[1] for s, port in (node.inputs[p],)
                 if port is None and readers[s] == 1 and nodes[s].kind not in ("const", "feed")}
        if not dying:
            return None
        key = (node.index, frozenset(dying))
        calls = self.plan.forwarding_calls
        if key not in calls:
            calls[key] = codegen.forwarding_call(node, dying, sole=_passed_sole_refs())
        return calls[key]

    def _forward(self, node, call):
        """Run `call` on the node's inputs, the step no longer holding the dying ones (the forwarding call writes
        into one only if nothing else holds it: a variable, a view, the caller)."""
        values = self.values
        dying = [s for p in node.forward[1] for s, port in (node.inputs[p],)
                 if port is None and self.readers[s] == 1 and self.plan.nodes[s].kind not in ("const", "feed")]
        return _pass_inputs(call, values, node.inputs, dying)

    def _release_inputs(self, node) -> None:
        """Drop the values whose last reader `node` was, and its own if nothing reads it (under the lock)."""
        if node.kind in liveness.NO_VALUE_KINDS:
            return
        readers, values = self.readers, self.values
        if not readers[node.index]:
            values[node.index] = None
        for source in {s for s, _ in node.inputs}:
            readers[source] -= 1
            if not readers[source] and self.plan.nodes[source].kind != "const":
                values[source] = None

    def _compute(self, node) -> None:
        start = time.perf_counter_ns()
        try:
            call = self._forwarding(node) if node.forward is not None and self.collector is None else None
            self.values[node.index] = compute(node, self.values) if call is None else self._forward(node, call)
        except BaseException as exc:  # noqa: BLE001 - the first error (an interrupt too) cancels the step
            with self.lock:
                if self.error is not None:
                    return
                self.error = node_error(exc, node)
            for group in collective_groups(self.plan):
                group.abort()  # wake the devices waiting in a collective for this one
            return
        if self.collector is not None:
            self.collector.record(NodeExecStats.of(node, threading.current_thread().name, start,
                                                   time.perf_counter_ns(), self.values[node.index]))
