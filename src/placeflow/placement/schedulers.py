"""Scheduling algorithms of the cost-model placer, on a plain DAG of ops (no graph, no devices: indices).

Each node is an op with a time per device (math.inf where it may not run); nodes of one colocation group
must share a device, decided when the group's first node is scheduled. Edges carry a tensor (sent once per
destination device) or nothing (control). Transfers between two devices take that pair's link: latency plus
bytes over bandwidth, one at a time (transfers sharing a link serialise). Devices run one op at a time.

Algorithms (docs/cost-model-placer.md says why these): HEFT with insertion (Topcuoglu et al., 2002);
m-ETF and m-SCT (Baechi, Jeon et al., SoCC 2020), memory-aware: a device whose memory the group's tensors
and variables would exceed is not eligible; baselines single device, round robin and layer by layer; the
lower bound max(total work / devices, critical path), both at each op's best device speed.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass, field

MAX_GAPS = 16          # insertion: how many idle gaps of a device HEFT looks into before appending
LARGE_GRAPH = 6000   # above this many nodes only HEFT runs (m-ETF and m-SCT scan every ready op on every device)


@dataclass
class Dag:
    """Nodes 0..n-1 in a topological order, with what the schedulers need to know about them."""

    cost: list            # cost[i][d]: seconds of node i on device d (inf: not allowed)
    inputs: list          # inputs[i]: [(source node, tensor key or None for control, bytes)]
    group: list           # group[i]: colocation group id (nodes of a group share a device)
    allowed: list         # allowed[g]: device indices group g may use, best first
    memory: list          # memory[g]: bytes group g keeps on its device (outputs and variables)
    capacity: list        # capacity[d]: bytes of device d (inf: no limit)
    latency: list         # latency[s][d]: seconds per transfer from s to d
    bandwidth: list       # bandwidth[s][d]: bytes/s from s to d
    host: float = 0.0     # seconds the host takes to issue each node and each copy, one after another
    kept: list = None     # kept[g]: bytes group g holds for the whole step (variables); None: all of memory[g]
    output: list = None   # output[i]: bytes node i makes, freed after its last reader (as the executor frees them)
    issue: list = None    # issue[i]: the host's seconds to issue node i (None: `host` each; 0 where no kernel runs)
    succs: list = field(default_factory=list)

    def __post_init__(self):
        self.succs = [[] for _ in self.cost]
        for i, edges in enumerate(self.inputs):
            for src, _, nbytes in edges:
                self.succs[src].append((i, nbytes))

    def issue_seconds(self) -> list:
        """The host's seconds to issue each node."""
        return self.issue if self.issue is not None else [self.host] * self.n

    @property
    def n(self) -> int:
        """Number of nodes."""
        return len(self.cost)

    @property
    def ndev(self) -> int:
        """Number of devices."""
        return len(self.capacity)

    def comm(self, s: int, d: int, nbytes: float) -> float:
        """Seconds to copy `nbytes` from device s to device d (0 on one device)."""
        return 0.0 if s == d else self.latency[s][d] + nbytes / self.bandwidth[s][d]


@dataclass
class Schedule:
    """A plan: the device of every group, and what one step is predicted to take."""

    name: str
    device: list              # device[g]
    order: list               # nodes in the order they start
    predicted: float = 0.0    # seconds, by `simulate`
    finish: list = field(default_factory=list)       # finish[i]: when node i ends, by `simulate`
    memory_bound: set = field(default_factory=set)   # groups kept off a faster device by memory


# -- shared helpers -----------------------------------------------------------------------------------
def best_costs(dag: Dag) -> list:
    """Each node's time on its fastest allowed device."""
    return [min(c) if c else 0.0 for c in dag.cost]


def lower_bound(dag: Dag) -> float:
    """max(total work / number of devices, critical path, the host issuing every node), at each node's best
    device speed, no copies."""
    best = best_costs(dag)
    path = [0.0] * dag.n
    for i in range(dag.n):
        path[i] = best[i] + max((path[s] for s, _, _ in dag.inputs[i]), default=0.0)
    return max(sum(best) / max(dag.ndev, 1), max(path, default=0.0), sum(dag.issue_seconds()))


def lifetime_peaks(dag: Dag, device: list, finish: list) -> list:
    """Each device's peak bytes over a step of placement `device` (per group) with node finish times `finish`, as
    the executor spends memory: what groups keep (`dag.kept`) for the whole step, each node's output from its
    start until its last reader ends, and each copy received from its reader's start until that reader ends."""
    events = [[] for _ in range(dag.ndev)]
    readers_end = list(finish)
    for j, edges in enumerate(dag.inputs):
        d = device[dag.group[j]]
        start = finish[j] - dag.cost[j][d]
        for src, key, nbytes in edges:
            readers_end[src] = max(readers_end[src], finish[j])
            if key is not None and nbytes and device[dag.group[src]] != d:
                events[d] += [(start, nbytes), (finish[j], -nbytes)]
    for i in range(dag.n):
        d = device[dag.group[i]]
        if dag.output[i]:
            events[d] += [(finish[i] - dag.cost[i][d], dag.output[i]), (readers_end[i], -dag.output[i])]
    peaks = [0.0] * dag.ndev
    for g, d in enumerate(device):
        peaks[d] += dag.kept[g]
    for d, timeline in enumerate(events):
        live = top = 0.0
        for _, change in sorted(timeline, key=lambda e: (e[0], e[1])):   # frees before allocations at one time
            live += change
            top = max(top, live)
        peaks[d] += top
    return peaks


def fits_by_lifetimes(dag: Dag, schedule) -> bool:
    """Whether `schedule` (simulated) stays within every device's capacity by `lifetime_peaks`."""
    peaks = lifetime_peaks(dag, schedule.device, schedule.finish)
    return all(peak <= cap for peak, cap in zip(peaks, dag.capacity))


def upward_rank(dag: Dag) -> list:
    """HEFT's rank_u: mean time over allowed devices plus the longest mean-cost path to an exit."""
    pairs = [(s, d) for s in range(dag.ndev) for d in range(dag.ndev) if s != d]
    mean_lat = sum(dag.latency[s][d] for s, d in pairs) / len(pairs) if pairs else 0.0
    mean_bw = len(pairs) / sum(1.0 / dag.bandwidth[s][d] for s, d in pairs) if pairs else math.inf
    rank = [0.0] * dag.n
    for i in range(dag.n - 1, -1, -1):
        finite = [c for c in dag.cost[i] if c != math.inf]
        own = sum(finite) / len(finite) if finite else 0.0
        rank[i] = own + max((rank[j] + (mean_lat + b / mean_bw if b else 0.0) for j, b in dag.succs[i]), default=0.0)
    return rank


def priority_order(dag: Dag, rank=None) -> list:
    """Nodes by decreasing upward rank, ties in topological order (a valid topological order)."""
    rank = upward_rank(dag) if rank is None else rank
    return sorted(range(dag.n), key=lambda i: (-rank[i], i))


def simulate(dag: Dag, device: list, order: list) -> tuple:
    """(predicted step time, finish time per node) of `device` (per group), nodes started in `order`. The host
    issues the nodes (`dag.issue_seconds()`) and copies (`dag.host` each) one after another, as placeflow's
    executor does: its device threads share one Python interpreter lock (runtime/step_clock.py models the same)."""
    free, finish = [0.0] * dag.ndev, [0.0] * dag.n
    links, arrived = {}, {}
    group, cost, issue = dag.group, dag.cost, dag.issue_seconds()
    issued = 0.0
    for i in order:
        d = device[group[i]]
        ready = 0.0
        for src, key, nbytes in dag.inputs[i]:
            s = device[group[src]]
            t = finish[src] if s == d or key is None else arrived.get((key, d))
            if t is None:   # a copy: the host issues it, then it takes the link (as in step_clock)
                issued += dag.host
                t = max(finish[src], links.get((s, d), 0.0), issued) + dag.comm(s, d, nbytes)
                links[(s, d)] = arrived[(key, d)] = t
            ready = t if t > ready else ready
        issued += issue[i]
        start = max(ready, issued)
        if cost[i][d]:   # (a node without work, e.g. a view, neither waits for its device nor holds it)
            start = max(start, free[d])
            free[d] = start + cost[i][d]
        finish[i] = start + cost[i][d]
    return max(max(finish, default=0.0), issued), finish


def dataflow_order(dag: Dag, device: list) -> list:
    """The order a dataflow executor runs the nodes of placement `device` in: whenever a device is free, the ready
    node that can start first (its inputs there soonest, each link copying one tensor at a time), ties in
    creation order."""
    waiting = [len(edges) for edges in dag.inputs]
    ready = {i for i in range(dag.n) if not waiting[i]}
    done, free, order = [0.0] * dag.n, [0.0] * dag.ndev, []
    links, arrived = {}, {}
    group, cost = dag.group, dag.cost

    def arrival(s, key, nbytes, d, copy=False):
        src = device[group[s]]
        if src == d or key is None:
            return done[s]
        if (key, d) in arrived:
            return arrived[(key, d)]
        t = max(done[s], links.get((src, d), 0.0)) + dag.comm(src, d, nbytes)   # after the link's earlier copies
        if copy:
            links[(src, d)] = arrived[(key, d)] = t
        return t

    def start(i):
        d = device[group[i]]
        return max([free[d] if cost[i][d] else 0.0] + [arrival(s, key, b, d) for s, key, b in dag.inputs[i]])
    while ready:
        i = min(ready, key=lambda k: (start(k), k))
        ready.discard(i)
        d = device[group[i]]
        arrivals = [arrival(s, key, b, d, copy=True) for s, key, b in dag.inputs[i]]
        begin = max([free[d] if cost[i][d] else 0.0] + arrivals)
        done[i] = begin + cost[i][d]
        if cost[i][d]:
            free[d] = done[i]
        order.append(i)
        for j, _ in dag.succs[i]:
            waiting[j] -= 1
            if not waiting[j]:
                ready.add(j)
    return order


class _Devices:
    """Mutable state of a schedule under construction: device timelines, links, arrivals, memory."""

    def __init__(self, dag: Dag, insertion: bool, lazy_sources: bool = True):
        self.dag, self.insertion = dag, insertion
        self.starts = [[] for _ in range(dag.ndev)]
        self.ends = [[] for _ in range(dag.ndev)]
        self.free = [0.0] * dag.ndev
        self.finish = [0.0] * dag.n
        self.placed = [None] * dag.n
        self.started = [0.0] * dag.n
        self.links, self.arrived = {}, {}
        self.device = [None] * len(dag.allowed)
        self.used = [0.0] * dag.ndev
        self.memory_bound: set = set()
        # a free group's sources (a variable) and what reads only them (its read): placed with their first
        # consumer outside, not on their own
        self.lazy = lazy = [False] * dag.n
        for i in range(dag.n) if lazy_sources else ():
            g = dag.group[i]
            lazy[i] = len(dag.allowed[g]) > 1 and any(b for _, b in dag.succs[i]) and \
                all(lazy[s] and dag.group[s] == g for s, _, _ in dag.inputs[i])
        for g, allowed in enumerate(dag.allowed):   # fixed groups reserve their memory first
            if len(allowed) == 1:
                self.used[allowed[0]] += dag.memory[g]

    def eligible(self, g: int) -> list:
        """Devices group g may take now: its device once chosen, else allowed ones with room for it."""
        if self.device[g] is not None:
            return [self.device[g]]
        allowed = self.dag.allowed[g]
        if len(allowed) == 1:
            return list(allowed)
        need, cap, used = self.dag.memory[g], self.dag.capacity, self.used
        fits = [d for d in allowed if used[d] + need <= cap[d]]
        if len(fits) < len(allowed):
            self.memory_bound.add(g)
        # nothing fits: the one with the most room left (the step will report the shortage when it runs)
        return fits or [max(allowed, key=lambda d: cap[d] - used[d])]

    def data_ready(self, i: int, d: int, commit: bool = False) -> float:
        """When all inputs of node i can be on device d (copies queued on their links)."""
        dag, ready = self.dag, 0.0
        placed, finish, arrived, links = self.placed, self.finish, self.arrived, self.links
        for src, key, nbytes in dag.inputs[i]:
            s = placed[src]
            if s is None:   # a lazy source: on d with this node, or on its group's device
                s = self.device[dag.group[src]]
                if s is None and key is None:
                    continue
                if s is None:
                    ready = ready if ready > dag.cost[src][d] else dag.cost[src][d]
                    continue
            t = finish[src] if s == d or key is None else arrived.get((key, d))
            if t is None:
                t = links.get((s, d), 0.0)
                t = (finish[src] if finish[src] > t else t) + dag.latency[s][d] + nbytes / dag.bandwidth[s][d]
                if commit:   # the copy lives on d too
                    self.links[(s, d)] = self.arrived[(key, d)] = t
                    self.used[d] += nbytes
            ready = t if t > ready else ready
        return ready

    def slot(self, d: int, ready: float, length: float) -> float:
        """Earliest start >= ready on device d: in an idle gap (insertion) or after its last op."""
        free = self.free[d]
        if not self.insertion or ready >= free:
            return ready if ready > free else free
        starts, ends = self.starts[d], self.ends[d]
        first = bisect_right(ends, ready)
        for k in range(first, min(len(starts), first + MAX_GAPS)):
            begin = ends[k - 1] if k else 0.0
            begin = ready if ready > begin else begin
            if begin + length <= starts[k]:
                return begin
        return free

    def choices(self, i: int) -> list:
        """Devices node i may take: eligible for its group and for the groups of its unplaced lazy inputs."""
        mine = self.eligible(self.dag.group[i])
        for src, key, _ in self.dag.inputs[i]:
            if key is not None and self.placed[src] is None and self.device[self.dag.group[src]] is None:
                theirs = set(self.eligible(self.dag.group[src]))
                narrowed = [d for d in mine if d in theirs]
                mine = narrowed or mine
        if len(mine) > 1:   # a device must also hold the copies of inputs made elsewhere
            roomy = [d for d in mine if self.used[d] + self._incoming(i, d) <= self.dag.capacity[d]]
            mine = roomy or mine
        return mine

    def _incoming(self, i: int, d: int) -> float:
        """Bytes of node i's inputs that would be copied to device d."""
        total = 0.0
        for src, key, nbytes in self.dag.inputs[i]:
            s = self.placed[src]
            if key is not None and s is not None and s != d and (key, d) not in self.arrived:
                total += nbytes
        return total

    def _take(self, g: int, d: int) -> None:
        """Give group g device d (and count its memory there) unless it has one."""
        if self.device[g] is None:
            self.device[g] = d
            if len(self.dag.allowed[g]) > 1:
                self.used[d] += self.dag.memory[g]

    def commit(self, i: int, d: int) -> float:
        """Schedule node i on device d at its earliest slot (its lazy inputs with it); returns its start."""
        dag = self.dag
        self._take(dag.group[i], d)
        self._run_lazy_inputs(i, d)
        return self._run(i, d, self.data_ready(i, d, commit=True))

    def _run_lazy_inputs(self, i: int, d: int) -> None:
        """Run node i's unplaced lazy inputs first: a data input's group comes to d (when its group has no
        device yet), a control input's group goes to its own first eligible device."""
        for src, key, _ in self.dag.inputs[i]:
            if self.placed[src] is None:
                g = self.dag.group[src]
                self._take(g, d if key is not None else self.eligible(g)[0])
                self._run_lazy_inputs(src, self.device[g])
                self._run(src, self.device[g], self.data_ready(src, self.device[g]))

    def _run(self, i: int, d: int, ready: float) -> float:
        """Start node i on device d at its first slot from `ready`; returns the start."""
        length = self.dag.cost[i][d]
        start = self.slot(d, ready, length)
        self.placed[i], self.finish[i] = d, start + length
        if self.insertion:
            at = bisect_right(self.starts[d], start)
            self.starts[d].insert(at, start)
            self.ends[d].insert(at, start + length)
        self.free[d] = max(self.free[d], start + length)
        self.started[i] = start
        return start

    def result(self, name: str) -> Schedule:
        """The finished Schedule (groups never scheduled keep their first allowed device)."""
        device = [d if d is not None else self.dag.allowed[g][0] for g, d in enumerate(self.device)]
        starts = self.started
        order = sorted(range(self.dag.n), key=lambda i: (starts[i], i))
        return Schedule(name, device, order, memory_bound=self.memory_bound)


# -- HEFT ---------------------------------------------------------------------------------------------
def heft(dag: Dag, rank=None, lazy_sources: bool = True) -> Schedule:
    """HEFT with insertion: nodes by upward rank, each on the device where it finishes first. With
    `lazy_sources`, a variable goes where its first consumer goes; without, it is scheduled on its own."""
    state = _Devices(dag, insertion=True, lazy_sources=lazy_sources)
    for i in priority_order(dag, rank):
        if state.lazy[i]:
            continue
        length = dag.cost[i]
        best, best_d = math.inf, None
        for d in state.choices(i):
            finish = state.slot(d, state.data_ready(i, d), length[d]) + length[d]
            if finish < best:
                best, best_d = finish, d
        state.commit(i, best_d)
    _place_leftover_lazy(state)
    return state.result("heft" if lazy_sources else "heft (variables apart)")


def _place_leftover_lazy(state) -> None:
    """Lazy sources no node consumed: on their group's device, else the group's first allowed device."""
    for i, lazy in enumerate(state.lazy):
        if lazy and state.placed[i] is None:
            g = state.dag.group[i]
            d = state.device[g] if state.device[g] is not None else min(
                state.choices(i), key=lambda e: state.slot(e, state.data_ready(i, e), state.dag.cost[i][e])
                + state.dag.cost[i][e])
            state._take(g, d)
            state._run_lazy_inputs(i, d)
            state._run(i, d, state.data_ready(i, d))


# -- m-ETF and m-SCT ----------------------------------------------------------------------------------
def m_etf(dag: Dag, rank=None) -> Schedule:
    """Memory-aware earliest task first: repeatedly start the (ready node, device) pair that starts first."""
    return _etf(dag, rank, favorites=None)


def m_sct(dag: Dag, rank=None) -> Schedule:
    """Memory-aware SCT: m-ETF, but a device that just ran a node keeps itself free for the node's favorite
    child (the consumer it sends the most bytes to) unless another node finishes there before that child
    could start."""
    return _etf(dag, rank, favorites=favorite_children(dag))


def favorite_children(dag: Dag) -> list:
    """favorite[i]: one consumer of i, each node the favorite of at most one producer, heaviest edges first
    (a greedy matching standing in for Baechi's linear program)."""
    favorite, has_parent = [None] * dag.n, [False] * dag.n
    edges = sorted(((b, s, j) for j, row in enumerate(dag.inputs) for s, key, b in row if key is not None and b),
                   reverse=True)
    for _, s, j in edges:
        if favorite[s] is None and not has_parent[j]:
            favorite[s], has_parent[j] = j, True
    return favorite


def _etf(dag: Dag, rank, favorites) -> Schedule:
    rank = upward_rank(dag) if rank is None else rank
    state = _Devices(dag, insertion=False)
    waiting = [sum(1 for src, _, _ in row if not state.lazy[src]) for row in dag.inputs]
    ready = {i for i in range(dag.n) if not waiting[i] and not state.lazy[i]}
    last = [None] * dag.ndev   # the node each device ran last
    while ready:
        i, d = _etf_pick(dag, state, ready, rank, favorites, last)
        state.commit(i, d)
        last[d] = i
        ready.discard(i)
        for j, _ in dag.succs[i]:
            waiting[j] -= 1
            if not waiting[j]:
                ready.add(j)
    _place_leftover_lazy(state)
    return state.result("m-sct" if favorites else "m-etf")


def _etf_pick(dag, state, ready, rank, favorites, last) -> tuple:
    held = _held_for_favorites(state, ready, favorites, last) if favorites else {}
    best = (math.inf, 0.0, None, None)
    for i in ready:
        # the node's device: where it finishes first (devices differ in speed), among those not held
        mine = (math.inf, math.inf, None)
        for d in state.choices(i):
            start = max(state.data_ready(i, d), state.free[d])
            child = held.get(d)
            if child is not None and child[0] != i and start + dag.cost[i][d] > child[1]:
                continue   # would delay the favorite child this device is kept for
            mine = min(mine, (start + dag.cost[i][d], start, d))
        key = (mine[1], -rank[i], i, mine[2])
        if mine[2] is not None and key < best:
            best = key
    if best[2] is None:   # every device is held: the earliest favorite child goes first
        d, (i, _) = min(held.items(), key=lambda item: item[1][1])
        return i, d
    return best[2], best[3]


def _held_for_favorites(state, ready, favorites, last) -> dict:
    """{device: (favorite child, when it could start there)} for devices whose last node's favorite child is
    ready and starts there no later than anywhere else."""
    held = {}
    for d, parent in enumerate(last):
        child = None if parent is None else favorites[parent]
        if child is None or child not in ready:
            continue
        times = {e: max(state.data_ready(child, e), state.free[e]) for e in state.choices(child)}
        if d in times and times[d] <= min(times.values()):
            held[d] = (child, times[d])
    return held


# -- baselines ----------------------------------------------------------------------------------------
def single_device(dag: Dag, rank=None) -> Schedule:
    """Everything on the fastest device; groups that do not fit spill to the next fastest with room."""
    speed = _device_speed_order(dag)
    return _assign_in_order(dag, "single device", lambda g, k: speed, rank)


def round_robin(dag: Dag, rank=None) -> Schedule:
    """Groups in topological order dealt to the devices of the fastest type in turn."""
    peers = _peers(dag)
    return _assign_in_order(dag, "round robin", lambda g, k: peers[k % len(peers):] + peers[:k % len(peers)], rank)


def layer_by_layer(dag: Dag, rank=None) -> Schedule:
    """The topological order cut into one contiguous slice of equal work per device of the fastest type."""
    peers, best = _peers(dag), best_costs(dag)
    total, before, prefix = sum(best) or 1.0, {}, 0.0
    for i in range(dag.n):
        if dag.group[i] not in before:
            before[dag.group[i]] = prefix
        prefix += best[i]

    def prefer(g, _k):
        slot = min(int(before[g] / total * len(peers)), len(peers) - 1)
        return peers[slot:] + peers[:slot]
    return _assign_in_order(dag, "layer by layer", prefer, rank)


def _assign_in_order(dag, name, prefer, rank) -> Schedule:
    """Nodes in topological order; a group's first node takes the first preferred device with room for
    the group and for the copies of its inputs."""
    state, seen = _Devices(dag, insertion=False, lazy_sources=False), {}
    for i in range(dag.n):
        g = dag.group[i]
        if state.device[g] is None:
            seen[g] = len(seen)
            room = set(state.choices(i))
            d = next((d for d in prefer(g, seen[g]) if d in room), None)
            state.commit(i, d if d is not None else min(room))
        else:
            state.commit(i, state.device[g])
    device = [d if d is not None else dag.allowed[g][0] for g, d in enumerate(state.device)]
    return Schedule(name, device, priority_order(dag, rank), memory_bound=state.memory_bound)


def _device_speed_order(dag) -> list:
    """Devices by total time of the nodes they can run (fastest first; unrunnable nodes ignored)."""
    totals = [sum(c[d] for c in dag.cost if c[d] != math.inf) for d in range(dag.ndev)]
    counts = [sum(1 for c in dag.cost if c[d] != math.inf) for d in range(dag.ndev)]
    return sorted(range(dag.ndev), key=lambda d: (-counts[d], totals[d], d))


def _peers(dag) -> list:
    """The fastest device and every device as fast as it (within 1%) on the whole graph."""
    order = _device_speed_order(dag)
    totals = {d: sum(c[d] for c in dag.cost if c[d] != math.inf) for d in order}
    fastest = order[0]
    return [d for d in order if totals[d] <= totals[fastest] * 1.01 + 1e-12] or [fastest]


def heft_variables_apart(dag: Dag, rank=None) -> Schedule:
    """HEFT scheduling variables as nodes of their own (they may live apart from their readers)."""
    return heft(dag, rank, lazy_sources=False)


ALGORITHMS = {"heft": heft, "heft (variables apart)": heft_variables_apart, "m-etf": m_etf, "m-sct": m_sct}
BASELINES = {"single device": single_device, "round robin": round_robin, "layer by layer": layer_by_layer}


def run(dag: Dag, names) -> dict:
    """{name: Schedule} of the named algorithms and baselines, each with its simulated step time."""
    rank = upward_rank(dag)
    table = {**ALGORITHMS, **BASELINES}
    found = {}
    for name in names:
        if name in ALGORITHMS and name != "heft" and dag.n > LARGE_GRAPH:
            continue
        schedule = table[name](dag, rank)
        schedule.predicted, schedule.finish = simulate(dag, schedule.device, schedule.order)
        found[name] = schedule
    return found
