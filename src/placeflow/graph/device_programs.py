"""Per-device programs: a multi-device plan compiled into one straight-line function per device.

When a plan's parallelism lies only across devices (no device has two independent expensive
nodes: data-parallel replicas, towers), each device runs its own nodes in one thread, as generated
code like the inline plan:

    def program(F, S, W, E, R, D):
        W(0); v7 = N7(S[4]); D(4)
        v8 = N8(v7, C2); del v7
        v9 = N9(v8); del v8; S[9] = v9; E[1].release(); del v9

(When host-backed devices outnumber the host threads, several share one program and thread.)
It waits only where it needs another thread's work (`W(slot)` before a `_Recv` or a cross-device
control edge), on a signal the producing device gives right after computing the value. Every
thread follows one order of the whole plan (schedule.py picks it for host devices, so that threads
take turns with the interpreter lock), which keeps this deadlock-free: the earliest node not yet run
has all its inputs, and its thread has nothing earlier left to do. The first error wakes
every waiter and aborts the step's collectives, so a failing replica ends the step promptly.

Values are freed at their last reader (liveness.py): a thread deletes its local after the last line
reading it, and a value other threads read stays in `S` until each of them has read it for the last
time (`D(i)` counts them down), unless it is fetched.
"""

from __future__ import annotations

import threading
import time

from ..ops.collective import COLLECTIVE_OPS
from . import codegen, liveness, schedule
from .step_stats import NodeExecStats

VALUE_KINDS = ("const", "feed")
# Programs block inside lane threads while they wait; two steps sharing lanes could each hold a lane the
# other waits for, so per-device steps from concurrent callers take turns. A collective node's rendezvous
# therefore only ever meets the nodes of one call.
_one_step_at_a_time = threading.Lock()


class _Cancelled(Exception):
    """Raised in a device's program when another device's program failed first."""


class DevicePrograms:
    """The compiled programs of one plan: one per thread (a device, or host devices sharing a core)."""

    def __init__(self, plan, traced: bool, host_threads: int):
        self.plan = plan
        self.groups = thread_groups(plan, host_threads)
        owner = {d.name: k for k, group in enumerate(self.groups) for d in group}
        waits, self.slots = _signals(plan, owner)
        fetched = {liveness.source_of(plan.nodes, i) for i, _ in plan.fetches}
        self.order = order = _run_order(plan, owner, len(self.groups))
        remote = _remote_reads(plan, owner)
        self.readers = {i: len(threads) for i, threads in remote.items() if i not in fetched}
        stored = fetched | set(remote)
        self.functions = [_compile(plan, order, k, owner, waits, self.slots, fetched, stored, traced)
                          for k in range(len(self.groups))]
        from .executor import collective_groups
        self.collectives = collective_groups(plan)
        self.template = [n.value if n.kind == "const" else None for n in plan.nodes]
        self.feed_nodes = [(n.index, n.feed_index) for n in plan.nodes if n.kind == "feed"]

    def run(self, feed_values, lanes, collector=None) -> list:
        """Run every thread's program (the first in the calling thread); returns the plan's values."""
        step = _ProgramStep(self, feed_values, collector)
        with _one_step_at_a_time:
            for k, group in enumerate(self.groups[1:], start=1):
                lanes[group[0].name].submit(step.run_program, k)
            step.run_program(0)
            try:
                step.finished.acquire()
            except BaseException as exc:  # interrupted while waiting: cancel the other threads, then wait
                step.fail(exc)
                step.finished.acquire()
        if step.error is not None:
            for collective in self.collectives:
                collective.reset()
            raise step.error
        return step.values


def thread_groups(plan, host_threads: int) -> list:
    """Devices per thread: one thread per device, except that when host-backed devices (CPUs,
    simulated GPUs) outnumber the host threads they share them in contiguous runs: more threads than
    cores only fight over the cores and the GIL. Devices meeting in a collective never share."""
    devices = {}
    for node in plan.nodes:
        if node.kind not in VALUE_KINDS:
            devices.setdefault(node.device.name, node.device)
    host = [d for d in devices.values() if d.host_backed]
    collective = any(n.type in COLLECTIVE_OPS for n in plan.nodes)
    if collective or len(host) <= host_threads:
        return [[d] for d in devices.values()]
    size = -(-len(host) // host_threads)  # contiguous runs: neighbours pair up in tree reductions
    groups = [host[k:k + size] for k in range(0, len(host), size)]
    return groups + [[d] for d in devices.values() if not d.host_backed]


def _signals(plan, owner):
    """Per node, the signal slots it waits on; per producing node, its slot (nodes other threads wait for)."""
    nodes = plan.nodes
    waits, slots = {}, {}
    for node in nodes:
        if node.kind in VALUE_KINDS:
            continue
        thread = owner[node.device.name]
        for source in [s for s, _ in node.inputs] + list(node.controls):
            producer = nodes[source]
            if producer.kind == "send":
                producer = nodes[producer.inputs[0][0]]
            if producer.kind in VALUE_KINDS or owner[producer.device.name] == thread:
                continue
            slot = slots.setdefault(producer.index, len(slots))
            waits.setdefault(node.index, [])
            if slot not in waits[node.index]:
                waits[node.index].append(slot)
    return waits, slots


def _run_order(plan, owner, threads: int) -> list:
    """Node indices in the order the programs run them: GIL-aware on host devices sharing the
    interpreter (schedule), else the plan's. Collectives keep plan order: every device must meet them
    in the same order."""
    host_only = all(n.device.host_backed for n in plan.nodes if n.kind not in VALUE_KINDS)
    if threads < 2 or not host_only or any(n.type in COLLECTIVE_OPS for n in plan.nodes):
        return list(range(len(plan.nodes)))
    values = [n.index for n in plan.nodes if n.kind in VALUE_KINDS]
    return values + schedule.gil_aware_order(plan, owner)


def _remote_reads(plan, owner) -> dict:
    """{value node index: the threads other than its own that read it as data}."""
    nodes, reads = plan.nodes, {}
    for node in nodes:
        if node.kind in VALUE_KINDS or node.kind == "send":
            continue
        for source, _ in node.inputs:
            value = liveness.source_of(nodes, source)
            producer = nodes[value]
            if producer.kind not in VALUE_KINDS and producer.kind != "noop" and \
                    owner[producer.device.name] != owner[node.device.name]:
                reads.setdefault(value, set()).add(owner[node.device.name])
    return reads


def _compile(plan, order, thread, owner, waits, slots, fetched, stored, traced):
    """The generated program of one thread: its devices' nodes in `order`, with waits, stores, signals
    and the releases of values at their last reader here."""
    env = {"P": time.perf_counter_ns}
    names: dict = {}
    lines = ["def program(F, S, W, E, R, D):"]
    line_nodes = {}
    mine = [i for i in order if plan.nodes[i].kind not in VALUE_KINDS and owner[plan.nodes[i].device.name] == thread]
    dying = liveness.dying_after(plan, mine, fetched, sends_read=traced)
    for node in (plan.nodes[i] for i in order):
        i = node.index
        if node.kind in VALUE_KINDS or owner[node.device.name] != thread:
            names[i] = _remote_name(node, env, names)
            continue
        local, remote = _split_dying(plan, dying.get(i, ()), owner, thread)
        statements = [f"W({slot})" for slot in waits.get(i, ())]
        expr = codegen.bind(node, env, names, local)
        if expr is not None:
            statements += ["t = P()", expr, f"R({i}, t, v{i})"] if traced else [expr]
        elif traced and node.kind == "send":  # a send only hands its value over; step stats still list it
            statements.append(f"R({i}, P(), {names[i]})")
        if i in stored:
            statements.append(f"S[{i}] = {names[i]}")
        if i in slots:
            statements.append(f"E[{slots[i]}].release()")
        statements += [f"D({r})" for r in remote if r not in fetched]
        if local:
            statements.append("del " + ", ".join(f"v{v}" for v in local))
        if not statements:
            continue
        lines.append("    " + "; ".join(statements))
        line_nodes[len(lines)] = i
        codegen.describe(lines, node)
    lines.append("    return None")
    devices = "+".join(d.short_name for d in {n.device.name: n.device for n in plan.nodes
                                              if owner.get(n.device.name) == thread}.values())
    return codegen.compile_generated(lines, env, "program", f" on {devices}", line_nodes)


def _split_dying(plan, values, owner, thread) -> tuple:
    """The dying values a thread holds in locals, and those it reads from other threads (`S`)."""
    local, remote = [], []
    for value in values:
        node = plan.nodes[value]
        if node.kind == "feed":
            continue
        (local if owner[node.device.name] == thread else remote).append(value)
    return local, remote


def _remote_name(node, env, names) -> str:
    """How a program refers to a constant, a feed, or a value another thread computes."""
    i = node.index
    if node.kind == "const":
        env[f"C{i}"] = node.value
        return f"C{i}"
    if node.kind == "feed":
        return f"F[{node.feed_index}]"
    if node.kind == "send":
        return codegen.ref(names, *node.inputs[0])
    return f"S[{i}]"


class _ProgramStep:
    """One run of the programs: shared values, a signal per slot, the first error.

    A signal is a lock taken when the step starts and released by the producing thread; a waiter
    passes through it (acquire, release). A lock costs a tenth of a microsecond to make, an Event three.
    """

    def __init__(self, programs, feed_values, collector):
        self.programs, self.collector = programs, collector
        self.values = list(programs.template)
        for index, feed_index in programs.feed_nodes:
            self.values[index] = feed_values[feed_index]
        self.feeds = feed_values
        self.signals = [_taken_lock() for _ in programs.slots]
        self.readers = dict(programs.readers)   # value -> threads still to read it from S
        self.error = None
        self._lock = threading.Lock()
        self._left = len(programs.functions)
        self.finished = _taken_lock()

    def wait(self, slot) -> None:
        """Wait for another thread's value; give up when the step failed meanwhile."""
        signal = self.signals[slot]
        signal.acquire()
        _release(signal)
        if self.error is not None:
            raise _Cancelled

    def done_reading(self, index) -> None:
        """A thread read value `index` from `S` for the last time; the last such thread drops it."""
        with self._lock:
            left = self.readers[index] = self.readers[index] - 1
        if not left:
            self.values[index] = None

    def run_program(self, k) -> None:
        """Run thread `k`'s program; on failure, record the error and wake everyone."""
        try:
            record = self._recorder() if self.collector is not None else None
            self.programs.functions[k](self.feeds, self.values, self.wait, self.signals, record, self.done_reading)
        except _Cancelled:
            pass
        except BaseException as exc:  # noqa: BLE001 - the first error (an interrupt too) cancels the step
            self.fail(exc)
        finally:
            with self._lock:
                self._left -= 1
                if self._left == 0:
                    self.finished.release()

    def fail(self, exc) -> None:
        """Record the step's first error and wake every waiting thread and collective."""
        from .executor import node_error
        index = codegen.failed_node(exc)
        error = node_error(exc, None if index is None else self.programs.plan.nodes[index])
        codegen.clear_plan_frames(exc)
        with self._lock:
            if self.error is not None:
                return
            self.error = error
        for signal in self.signals:
            _release(signal)
        for collective in self.programs.collectives:
            collective.abort()

    def _recorder(self):
        nodes, collector, thread = self.programs.plan.nodes, self.collector, threading.current_thread().name

        def record(index, start, value):
            collector.record(NodeExecStats.of(nodes[index], thread, start, time.perf_counter_ns(), value))
        return record


def _taken_lock():
    lock = threading.Lock()
    lock.acquire()
    return lock


def _release(lock) -> None:
    try:
        lock.release()
    except RuntimeError:  # released already: by the step's abort, racing a producer or a waiter
        pass
