"""The order plans run their nodes in.

`inline_order`: a one-thread step runs a node's newly ready consumers first (depth first), as
TensorFlow's executor processes the nodes a finished node makes ready; so a gradient's update runs
as soon as the gradient exists and frees it, instead of every gradient waiting for the last.

`gil_aware_order`: per-device programs, list scheduling that keeps the GIL uncontended.

Threads running host kernels share one interpreter lock. A long BLAS call (a large MatMul) gives
it up for its whole run, while a stretch of small kernels needs it almost all the time and hands
it back and forth with every other thread in the same kind of stretch, each hand-off a context
switch. When replicas start in step, their small-kernel stretches (bias, activation, loss, the
gradients' small ops) collide on every replica. So the step is simulated once, when the programs
are built, with a rough cost per node, and whenever a thread picks its next node it prefers a long
GIL-free kernel while another thread is in a small-kernel stretch, and small kernels while another
runs a long one. With two replicas per thread this staggers them:

    thread 0:  MatMul(r0)  small(r0)  MatMul(r0)  MatMul(r1)  small(r1)  MatMul(r1)
    thread 1:  MatMul(r2)  MatMul(r3) small(r2)   small(r3)   MatMul(r2) MatMul(r3)

The result is one topological order of the whole plan (each thread runs its nodes in that order,
which keeps the programs deadlock-free). Reads and writes of one variable keep their plan order.
"""

from __future__ import annotations

import heapq

import numpy as np

from ..ops.debug import SIDE_EFFECT_OPS

PYTHON_US = 4.0              # one kernel call: dispatch and NumPy's own overhead, GIL held
ELEMENT_US = 0.0004          # elementwise work per element read or written
FLOP_US = 1 / 80_000         # a matrix product per floating-point op, one BLAS thread
RELEASE_ELEMENTS = 500       # NumPy releases the GIL for loops over more elements than this
LONG_US = 100.0              # a GIL-free kernel this long covers another thread's stretch of small ones
UNKNOWN_DIM = 32             # a dimension only known when the step runs (a batch), for the estimate
NUMPY_CALLS = {"SparseSoftmaxCrossEntropyWithLogits": 8, "SoftmaxCrossEntropyWithLogits": 7}  # kernels of many
TRIVIAL_KINDS = frozenset({"send", "recv", "read_var", "deref", "noop"})
WRITE_KINDS = frozenset({"write_var", "assign_ref"})
VALUE_KINDS = ("const", "feed")
DEFERRED = -(1 << 62)                  # inline_order's rank of work that should wait while other work is ready
ORDERED_TYPES = SIDE_EFFECT_OPS | {"_RemoteCall"}


def inline_order(plan) -> list:
    """Every node index in a topological order of `_dependencies` (inputs, control edges, each variable's
    accesses in plan order; side effects and random draws in plan order), chosen greedily to keep memory
    low, as TensorFlow's executor runs whatever a finished node made ready: next is the ready node that
    frees the most bytes net (its inputs it reads last, less its output unless it forwards one), then the
    most recently made ready (depth first: a gradient's update right after the gradient), then plan order.
    Constants and feeds come first."""
    if plan.order is not None:
        return plan.order
    nodes = plan.nodes
    deps = _dependencies(plan)
    ordered = [n.index for n in nodes if _keeps_plan_order(n)]
    for before, after in zip(ordered, ordered[1:]):
        deps[after].add(before)
    consumers = [[] for _ in nodes]
    for index, sources in enumerate(deps):
        for source in sources:
            consumers[source].append(index)
    memory = _MemoryScore(nodes)
    waiting = [len(d) for d in deps]
    order = [n.index for n in nodes if n.kind in VALUE_KINDS]
    ready: list = []
    stamp = 0
    for node in nodes:
        if node.kind not in VALUE_KINDS and not waiting[node.index]:
            stamp += 1
            heapq.heappush(ready, (-memory.score(node.index), -stamp, node.index))
    done = [False] * len(nodes)
    while ready:
        key, when, index = heapq.heappop(ready)
        if done[index]:
            continue
        score = memory.score(index)
        if -score != key:           # inputs' other readers ran meanwhile: re-rank it
            heapq.heappush(ready, (-score, when, index))
            continue
        done[index] = True
        order.append(index)
        for affected in memory.ran(index):
            if not done[affected] and not waiting[affected]:
                heapq.heappush(ready, (-memory.score(affected), when, affected))
        for consumer in consumers[index]:
            waiting[consumer] -= 1
            if not waiting[consumer]:
                stamp += 1
                heapq.heappush(ready, (-memory.score(consumer), -stamp, consumer))
    plan.order = order
    return order


class _MemoryScore:
    """Bytes a node frees net if it runs now: the values it reads last (outputs of kernels and copies: fresh
    buffers; feeds, constants and variable reads free nothing), less its own output unless it may forward.
    A variable update while a read of the variable is still to be used would copy the variable (copy on
    write): it waits until nothing else is ready."""

    def __init__(self, nodes):
        self.nodes = nodes
        self.size = [output_bytes(n) if n.kind in ("kernel", "recv") else 0 for n in nodes]
        self.sources = [sorted({s for s, _ in n.inputs}) for n in nodes]
        self.left = [0] * len(nodes)               # readers of each value not yet run
        self.readers = [[] for _ in nodes]
        self.reads_of: dict = {}                   # id(variable) -> its read nodes
        for node in nodes:
            for source in self.sources[node.index]:
                self.left[source] += 1
                self.readers[source].append(node.index)
            variable = node.resource if node.resource is not None else node.ref
            if variable is not None and node.kind in ("read_var", "deref"):
                self.reads_of.setdefault(id(variable), []).append(node.index)

    def score(self, index: int) -> int:
        """Bytes freed minus bytes allocated by running node `index` now."""
        freed = sum(self.size[s] for s in self.sources[index] if self.left[s] == 1)
        node = self.nodes[index]
        if node.kind in WRITE_KINDS:
            variable = node.resource if node.resource is not None else node.ref
            if any(self.left[r] for r in self.reads_of.get(id(variable), ())):
                return DEFERRED  # a read still to be used: wait for it, then write in place instead of copying
            return freed
        if node.forward is not None and any(self.left[node.inputs[p][0]] == 1 and node.inputs[p][1] is None
                                            and self.size[node.inputs[p][0]] for p in node.forward[1]):
            return freed
        return freed - self.size[index]

    def ran(self, index: int) -> list:
        """Count node `index`'s reads; the other readers whose score that changed."""
        affected = []
        for source in self.sources[index]:
            self.left[source] -= 1
            if self.left[source] == 1:
                affected += [r for r in self.readers[source] if r != index]
        return affected


def output_bytes(node) -> int:
    """Bytes of a node's outputs from static shapes (0 where unknown)."""
    if node.op is None:
        return 0
    total = 0
    for tensor in node.op.outputs:
        shape, dtype = tensor.shape, tensor.dtype
        if shape is None or None in shape or dtype is None or dtype.numpy_dtype.kind in "OUS":
            continue
        total += int(np.prod(shape, dtype=np.int64)) * dtype.numpy_dtype.itemsize
    return total


def _keeps_plan_order(node) -> bool:
    """Side effects, remote work, stateful ops (iterators, stateful bodies) and draws from a random generator
    run in plan order among themselves (what they print or draw must not depend on the schedule)."""
    return node.type in ORDERED_TYPES or "generator" in node.attrs or (
        node.op is not None and bool(node.op.attrs.get("_stateful")))


def gil_aware_order(plan, owner: dict) -> list:
    """The plan's computed nodes (not constants or feeds) in the order their threads should run them;
    `owner`: device name -> thread."""
    return _Simulation(plan, owner).run()


class _Simulation:
    """One simulated step: threads take ready nodes by the picker's rank; the GIL serializes held time."""

    def __init__(self, plan, owner):
        nodes = plan.nodes
        deps = _dependencies(plan)
        self.consumers = [[] for _ in nodes]
        for index, sources in enumerate(deps):
            for source in sources:
                self.consumers[source].append(index)
        self.thread_of = [owner.get(n.device.name, 0) for n in nodes]
        self.picker = _Picker(nodes, self.consumers, self.thread_of)
        self.waiting = [len(d) for d in deps]
        threads = max(owner.values()) + 1
        self.ready = [[] for _ in range(threads)]     # per thread: nodes whose inputs are all done
        self.ready_at = [0.0] * len(nodes)            # when a node's last input is done (simulated µs)
        self.clock = [0.0] * threads
        self.last = [(0.0, False)] * threads          # per thread: (end of its latest node, was it long)
        self.gil_free = 0.0
        for node in nodes:
            if node.kind not in VALUE_KINDS and self.waiting[node.index] == 0:
                self.ready[self.thread_of[node.index]].append(node.index)

    def run(self) -> list:
        """Every computed node, in the order the simulated threads started them (a topological order)."""
        order = []
        while True:
            thread, now = _next_thread(self.ready, self.ready_at, self.clock)
            if thread is None:
                return order
            index = self.picker.pick(self.ready[thread], self.ready_at, now, _others_mode(self.last, thread, now))
            self._execute(thread, index, now)
            order.append(index)

    def _execute(self, thread: int, index: int, now: float) -> None:
        held, free = self.picker.cost[index]
        start = max(now, self.gil_free)
        self.gil_free = start + held
        end = start + held + free
        self.clock[thread], self.last[thread] = end, (end, self.picker.long[index])
        for consumer in self.consumers[index]:
            self.waiting[consumer] -= 1
            self.ready_at[consumer] = max(self.ready_at[consumer], end)
            if self.waiting[consumer] == 0:
                self.ready[self.thread_of[consumer]].append(consumer)


class _Picker:
    """Chooses a thread's next node; knows each node's cost and whether other threads wait for it."""

    def __init__(self, nodes, consumers, thread_of):
        self.nodes = nodes
        self.cost = [_cost(n) if n.kind not in VALUE_KINDS else (0.0, 0.0) for n in nodes]
        self.long = [free >= LONG_US for _, free in self.cost]
        self.remote = [n.kind == "recv" and thread_of[n.inputs[0][0]] != thread_of[n.index] for n in nodes]
        crosses = [any(thread_of[c] != thread_of[n.index] or
                       nodes[c].kind == "send" and any(self.remote[r] for r in consumers[c])
                       for c in consumers[n.index]) for n in nodes]
        # other threads wait for it, or (a value from another thread) for what is made from it here
        self.feeds_others = [crosses[n.index] or self.remote[n.index] and any(crosses[c] for c in consumers[n.index])
                             for n in nodes]
        self.sink = [False] * len(nodes)   # nothing but no-ops depends on it: a variable update
        for node in reversed(nodes):       # consumers come later in the plan
            self.sink[node.index] = all(nodes[c].kind == "noop" and self.sink[c] for c in consumers[node.index])

    def pick(self, ready, ready_at, now: float, others: str) -> int:
        """The next node among those ready by `now`, by rank (plan order breaks ties):
        0. trivial local nodes (reads, sends);
        1. the kind that complements what other threads do: long kernels while they run small ones,
           small ones while they run a long one;
        2. work other threads wait for, then 3. other work that more work depends on;
        4. values from other threads needed for work others wait for;
        5. work nothing depends on (variable updates); 6. other values from other threads.
        Taking another thread's value early would idle this thread whenever that one runs late."""
        choice = min((i for i in ready if ready_at[i] <= now), key=lambda i: (self._rank(i, others), i))
        ready.remove(choice)
        return choice

    def _rank(self, i: int, others: str) -> int:
        if self.remote[i]:
            return 4 if self.feeds_others[i] else 6
        if self.nodes[i].kind in TRIVIAL_KINDS:
            return 0
        if others != "idle" and self.long[i] == (others == "small"):
            return 1
        if self.sink[i]:
            return 5
        return 2 if self.feeds_others[i] else 3


def _dependencies(plan) -> list:
    """Per node, the computed nodes it must follow: inputs, control inputs, and the earlier accesses
    of a variable it writes (or the earlier write of a variable it reads)."""
    nodes = plan.nodes
    deps = [set() for _ in nodes]
    accesses: dict = {}                        # id(variable) -> [last write or None, reads since]
    for node in nodes:
        if node.kind in VALUE_KINDS:
            continue
        sources = {s for s, _ in node.inputs} | set(node.controls)
        deps[node.index] = {s for s in sources if nodes[s].kind not in VALUE_KINDS}
        variable = node.resource if node.resource is not None else node.ref
        if variable is None:
            continue
        access = accesses.setdefault(id(variable), [None, []])
        last_write, reads = access
        if node.kind in WRITE_KINDS:
            deps[node.index].update(reads or ([last_write] if last_write is not None else []))
            access[:] = [node.index, []]
        else:
            if last_write is not None:
                deps[node.index].add(last_write)
            reads.append(node.index)
    return deps


def _next_thread(ready, ready_at, clock):
    """The thread that can start a node soonest, and when."""
    best, best_start = None, None
    for thread, nodes in enumerate(ready):
        if not nodes:
            continue
        start = max(clock[thread], min(ready_at[i] for i in nodes))
        if best is None or start < best_start:
            best, best_start = thread, start
    return best, best_start


def _others_mode(last, thread: int, now: float) -> str:
    """'small' when another thread is in a GIL-bound stretch at `now`, else 'long' when one runs a
    long GIL-free kernel, else 'idle'."""
    modes = {("long" if long else "small") for k, (end, long) in enumerate(last) if k != thread and end > now}
    return "small" if "small" in modes else "long" if modes else "idle"


def _cost(node) -> tuple:
    """(µs holding the GIL, µs with it released): a rough model, good enough to tell long from short."""
    if node.kind in TRIVIAL_KINDS or node.op is None:
        return 0.5, 0.0
    if node.type == "MatMul":
        return PYTHON_US, _matmul_flops(node.op) * FLOP_US
    elements = sum(_elements(t) for t in list(node.op.inputs) + list(node.op.outputs))
    outputs = max((_elements(t) for t in node.op.outputs), default=0)
    if node.kind in WRITE_KINDS:
        outputs = elements = 3 * _elements(node.op.inputs[-1]) if node.op.inputs else 0
    work, python = elements * ELEMENT_US, PYTHON_US * NUMPY_CALLS.get(node.type, 1)
    return (python, work) if outputs > RELEASE_ELEMENTS else (python + work, 0.0)


def _shape(tensor):
    shape = getattr(tensor, "shape", None)
    return None if shape is None else [UNKNOWN_DIM if d is None else int(d) for d in shape]


def _elements(tensor) -> int:
    shape = _shape(tensor)
    return 0 if shape is None else int(np.prod(shape, dtype=np.int64))


def _matmul_flops(op) -> int:
    a, b = (_shape(t) for t in op.inputs[:2])
    if a is None or b is None or len(a) < 2 or len(b) < 2:
        return 0
    rows, inner = (a[-1], a[-2]) if op.attrs.get("transpose_a") else (a[-2], a[-1])
    cols = b[-2] if op.attrs.get("transpose_b") else b[-1]
    batch = int(np.prod(a[:-2], dtype=np.int64))
    return 2 * rows * inner * cols * batch
