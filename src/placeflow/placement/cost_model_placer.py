"""The cost-model placer (the TensorFlow whitepaper's dynamic placer, seed 003), behind the placer seam.

It keeps every hard constraint of TensorFlow's simple placer (graph_placer.py), with the same errors, by
calling the simple placer's own steps: colocation groups (a variable with its reads and updates,
`colocate_with`), earlier placements and resource devices, user pins and device functions, kernel
availability, soft placement and strict placement. What the simple placer decides by rule (GPU:0), this one
decides by prediction: the groups left free are scheduled over the devices they may use (schedulers.py, on
times from cost_model.py) and each algorithm's plan is simulated; the fastest predicted plan is kept when it
is faster than everything on the fastest device that fits, else (a tie too) that single-device plan is.
Constants and placeholders then follow their consumers, as in the simple placer.
"""

from __future__ import annotations

import math
import time
import weakref

from ..config.placement_log import ensure_handler, logger as placement_logger
from ..runtime import registry
from ..runtime import step_clock
from . import cost_model, graph_placer, report, schedulers

NAME = "cost_model"
ALGORITHMS = ("heft", "heft (variables apart)", "m-etf", "m-sct")
FALLBACK = "single device"
TIE = 1e-9   # a schedule predicted within this share of the single device's is a tie: its copies gain nothing

_placed_here: weakref.WeakSet = weakref.WeakSet()   # the ops this placer placed


def placed_by_cost_model(op) -> bool:
    """Whether this placer placed `op` (a graph op)."""
    return op in _placed_here


def place(ops, placed: dict, ctx, soft: bool, log_placement: bool, reasons: dict | None = None) -> dict:
    """Assign a runtime device to every op of `ops` not in `placed`, by predicted step time; returns `placed`.
    `reasons` gets (reason, detail) per newly placed op. An error leaves `placed` as it was."""
    if all(op in placed for op in ops):
        return placed
    started = time.perf_counter()
    devices = registry.devices(ctx)
    why: dict = {}
    assigned, run = _assign(ops, dict(placed), devices, graph_placer._Policy(soft, ctx.strict_placement), why)
    run.wall = time.perf_counter() - started
    new = [op for op in assigned if op not in placed]
    placed.update(assigned)
    _placed_here.update(new)
    if reasons is not None:
        reasons.update(why)
    run.rows = [(op.name, op.type, placed[op].name) + tuple(why[op]) for op in new]
    report.remember_placer_run(run)
    if log_placement:
        ensure_handler()
        for op in new:
            placement_logger.info("%s: (%s): %s [placer cost_model: %s]", op.name, op.type, placed[op].name,
                                  why[op][0])
    return placed


# -- the steps ----------------------------------------------------------------------------------------
def _assign(ops, placed, devices, policy, why) -> tuple:
    groups = graph_placer._colocation_groups(ops, placed, policy.soft)
    todo = [op for op in ops if op not in placed]
    deferred = [op for op in todo if _deferred(op, groups)]
    skip = set(deferred)
    candidates = _constraints([op for op in todo if op not in skip], groups, devices, policy, placed)
    problem = _Problem(ops, placed, groups, candidates, skip, devices)
    chosen, run = problem.solve()
    order = []
    for op in todo:
        if op in skip:
            continue
        placed[op] = problem.device_of(op, chosen)
        why[op] = problem.reason(op, chosen)
        order.append(op)
    _place_followers(ops, deferred, groups, devices, policy, placed, why, order)
    return {op: placed[op] for op in order}, run


def _deferred(op, groups) -> bool:
    """Constants and placeholders without inputs or a placed group follow their consumers (simple's rule 5)."""
    return op.type in graph_placer.GENERATORS and not op.inputs and groups[op].device is None \
        and groups[op].assigned is None and len(groups[op].members) == 1


def _constraints(todo, groups, devices, policy, placed) -> dict:
    """{group: candidate devices} in the simple placer's order and with its errors and fallback warnings."""
    found: dict = {}
    for op in todo:
        group = groups[op]
        if id(group) in found:
            continue
        if group.assigned is not None:
            found[id(group)] = [graph_placer._place_group(group, op, devices, policy, placed)]
        else:
            found[id(group)] = graph_placer._candidates(group, op, devices, policy)
    return found


def _place_followers(ops, deferred, groups, devices, policy, placed, why, order) -> None:
    consumers = graph_placer._consumer_map(ops) if deferred else {}
    for op in deferred:
        group = groups[op]
        group.device = graph_placer._follow_consumers(op, consumers.get(op, ()), group, devices, policy, placed)
        placed[op] = group.device
        users = {placed[c] for c in consumers.get(op, ()) if c in placed}
        if group.reason[0] == "default" and users == {group.device}:
            group.reason = ("colocation", "follows its consumers")
        why[op] = group.reason
        order.append(op)


def predict(ops, placed: dict, ctx) -> float:
    """Predicted seconds of one step running `ops` (every one in `placed`, {op: runtime device}) in the order a
    dataflow executor takes them: the model the placer chooses by, for a placement already made (e.g. the ops a
    Session run needs)."""
    devices = registry.devices(ctx)
    groups = graph_placer._colocation_groups(ops, placed, True)
    skip = {op for op in ops if _deferred(op, groups)}
    problem = _Problem(ops, placed, groups, {}, skip, devices)
    dag = problem.dag
    for i, op in enumerate(problem.nodes):   # a step reads a variable in place: its node runs no kernel
        if op.type in cost_model.VARIABLE_OPS:
            dag.cost[i] = [0.0 if c != math.inf else c for c in dag.cost[i]]
    device = [allowed[0] for allowed in dag.allowed]
    return schedulers.simulate(dag, device, schedulers.dataflow_order(dag, device))[0]


DRIFT_FACTOR = 2.0   # a measured op time this many times off the model's (either way) has drifted
DRIFT_SHARE = 0.10   # re-place when drifted ops change the predicted step by more than this share


def drifted(placed: dict) -> bool:
    """Whether measured times recorded since `placed` ({op: runtime device}) was made differ from the times it was
    placed by enough to place it again: ops whose measured time is DRIFT_FACTOR off the model's move the
    model's summed op time by more than DRIFT_SHARE."""
    model = cost_model.CostModel(list({d.name: d for d in placed.values()}.values()))
    index = {d.name: k for k, d in enumerate(model.devices)}
    total = change = 0.0
    for op, device in placed.items():
        inputs = [(cost_model.static_shape(t), cost_model.numpy_dtype(t.dtype)) for t in op.inputs]
        modelled = model._time(model.models[index[device.name]], model._cost(op, inputs),
                               cost_model.numpy_dtype(op.dtype))
        measured = cost_model.measured_time(op.type, [s for s, _ in inputs], device.device_type)
        total += modelled
        if measured is not None and not modelled / DRIFT_FACTOR <= measured <= modelled * DRIFT_FACTOR:
            change += abs(measured - modelled)
    return change > DRIFT_SHARE * total


def evaluate(ops, ctx, names=ALGORITHMS + tuple(schedulers.BASELINES), soft: bool = True) -> tuple:
    """({scheduler name: predicted step seconds}, lower bound) for placing `ops` afresh; places nothing."""
    devices = registry.devices(ctx)
    policy = graph_placer._Policy(soft, ctx.strict_placement)
    groups = graph_placer._colocation_groups(ops, {}, soft)
    skip = {op for op in ops if _deferred(op, groups)}
    candidates = _constraints([op for op in ops if op not in skip], groups, devices, policy, {})
    problem = _Problem(ops, {}, groups, candidates, skip, devices)
    found = schedulers.run(problem.dag, names)
    return {name: s.predicted for name, s in found.items()}, schedulers.lower_bound(problem.dag)


class _Problem:
    """The DAG of the ops to schedule, and how its schedule maps back to devices and reasons."""

    def __init__(self, ops, placed, groups, candidates, skip, devices):
        self.groups, self.candidates = groups, candidates
        nodes = [op for op in ops if op not in skip]
        self.devices = _device_list(devices, candidates, placed, nodes)
        self.index = {d.name: k for k, d in enumerate(self.devices)}
        self.model = cost_model.CostModel(self.devices)
        self.nodes = _topological(nodes)
        self.node_of = {op: i for i, op in enumerate(self.nodes)}
        self.group_id, self.group_ops = {}, []
        self.dag = self._dag(placed, skip)

    def _dag(self, placed, skip) -> schedulers.Dag:
        group, allowed, memory, cost, inputs, output, issue = [], [], [], [], [], [], []
        host = step_clock.host_seconds("plan_op")
        kept: dict = {}     # group -> bytes it holds for the whole step: variables, constants that follow it
        followers = set()   # (constant or placeholder, group): it will live on that group's device too
        for op in self.nodes:
            g = self._group_of(op, placed, allowed, memory)
            group.append(g)
            memory[g] += cost_model.op_memory(op)
            variable = op.type in cost_model.VARIABLE_OPS
            output.append(0 if variable else cost_model.op_memory(op))
            kept[g] = kept.get(g, 0) + (cost_model.op_memory(op) if variable else 0)
            shared = len(self.groups[op].members) > 1
            for tensor in op.inputs:
                if tensor.op in skip and (tensor.op, g) not in followers:
                    followers.add((tensor.op, g))
                    memory[g] += cost_model.op_memory(tensor.op)
                    kept[g] += cost_model.op_memory(tensor.op)
                elif shared and tensor.op not in skip and self.groups[tensor.op] is not self.groups[op]:
                    memory[g] += cost_model.tensor_bytes(tensor)   # e.g. a variable's update, copied in
            cost.append(self.model.op_times(op, allowed[g]))
            no_kernel = variable or op.type in graph_placer.GENERATORS or not any(cost[-1][d] for d in allowed[g])
            issue.append(0.0 if no_kernel else host)   # (a view or a variable launches nothing; step_clock agrees)
            inputs.append(self._inputs(op))
        n = len(self.devices)
        links = [[self.model.link(s, d) if s != d else (0.0, math.inf) for d in range(n)] for s in range(n)]
        return schedulers.Dag(cost=cost, inputs=inputs, group=group, allowed=allowed, memory=memory,
                              capacity=[self.model.capacity(k) for k in range(n)],
                              latency=[[lat for lat, _ in row] for row in links],
                              bandwidth=[[bw for _, bw in row] for row in links],
                              host=host, issue=issue,
                              kept=[kept.get(g, 0) for g in range(len(allowed))], output=output)

    def _group_of(self, op, placed, allowed, memory) -> int:
        group = self.groups[op]
        g = self.group_id.get(id(group))
        if g is None:
            g = self.group_id[id(group)] = len(allowed)
            self.group_ops.append(group)
            fixed = placed.get(op)
            choices = [fixed] if fixed is not None else self.candidates.get(id(group)) or [fixed]
            allowed.append(tuple(self.index[d.name] for d in choices if d is not None))
            memory.append(0)
        elif op in placed and allowed[g] != (self.index[placed[op].name],):
            allowed[g] = (self.index[placed[op].name],)
        return g

    def _inputs(self, op) -> list:
        edges = []
        for tensor in op.inputs:
            src = self.node_of.get(tensor.op)
            if src is not None and src < self.node_of[op]:
                edges.append((src, (src, tensor.value_index), cost_model.tensor_bytes(tensor)))
        for control in op.control_inputs:
            src = self.node_of.get(control)
            if src is not None and src < self.node_of[op]:
                edges.append((src, None, 0))
        return edges

    def solve(self) -> tuple:
        """The chosen Schedule and the record of this placement for the report."""
        dag = self.dag
        found = schedulers.run(dag, ALGORITHMS + (FALLBACK,))
        if any(s.memory_bound for s in found.values()):   # memory held some group back: try lifetimes
            found.update(self._by_lifetimes())
        fallback = found[FALLBACK]
        best = min((s for name, s in found.items() if name != FALLBACK), key=lambda s: s.predicted,
                   default=fallback)
        chosen = best if best.predicted < fallback.predicted * (1 - TIE) else fallback   # a tie: no spreading
        run = report.PlacerRun(NAME, chosen.name, chosen.predicted, schedulers.lower_bound(dag),
                               {name: s.predicted for name, s in found.items()}, dict(self.model.assumed))
        self._fallback = fallback
        return chosen, run

    def _by_lifetimes(self) -> dict:
        """Schedules made counting only what groups keep for the whole step (variables), kept where each device's
        peak, with every output freed after its last reader as the executor frees it, stays within its room."""
        dag = self.dag
        dag.memory, conservative = list(dag.kept), dag.memory
        try:
            found = schedulers.run(dag, ALGORITHMS + (FALLBACK,))
        finally:
            dag.memory = conservative
        kept = {}
        for name, schedule in found.items():
            if schedulers.fits_by_lifetimes(dag, schedule):
                schedule.name = f"{name} (by lifetimes)"
                kept[schedule.name] = schedule
        return kept

    def device_of(self, op, chosen):
        """The runtime device the schedule gives `op`."""
        return self.devices[chosen.device[self.dag.group[self.node_of[op]]]]

    def reason(self, op, chosen) -> tuple:
        """(reason, detail) of `op`'s device for the placement report."""
        group = self.groups[op]
        g = self.dag.group[self.node_of[op]]
        if group.reason[0] != "default":
            return group.reason   # pinned, assigned, soft or kernel fallback: the simple placer's words
        first = next(m for m in group.members if m in self.node_of)
        if first is not op:
            return ("colocation", f"with {first.name}")
        device = self.devices[chosen.device[g]].short_name
        if g in chosen.memory_bound:
            return ("memory", f"{chosen.name}: faster devices lacked room for its "
                              f"{self.dag.memory[g] / 2**20:.1f} MiB; earliest finish on {device}")
        if chosen.name == FALLBACK:
            return ("fastest device", f"no schedule beat the fastest single device ({device})")
        ends = chosen.finish[self.node_of[op]]
        return ("earliest finish", f"{chosen.name}: ends at {ends * 1e6:.1f} us of a "
                                   f"{chosen.predicted * 1e6:.1f} us step")


def _device_list(devices, candidates, placed, nodes) -> list:
    """The context's devices and any other device (another task's) a candidate list or placement names."""
    found = {d.name: d for d in devices}
    for choices in candidates.values():
        for d in choices:
            found.setdefault(d.name, d)
    for op in nodes:
        if op in placed:
            found.setdefault(placed[op].name, placed[op])
    return list(found.values())


def _topological(nodes) -> list:
    """`nodes` in a topological order (creation order where it is one; Kahn's order otherwise)."""
    position = {op: k for k, op in enumerate(nodes)}
    if all(position.get(t.op, -1) < k for k, op in enumerate(nodes) for t in op.inputs) and \
            all(position.get(c, -1) < k for k, op in enumerate(nodes) for c in op.control_inputs):
        return nodes
    waiting = {op: 0 for op in nodes}
    users: dict = {}
    for op in nodes:
        for src in {t.op for t in op.inputs} | set(op.control_inputs):
            if src in position:
                waiting[op] += 1
                users.setdefault(src, []).append(op)
    ready = [op for op in nodes if not waiting[op]]
    order = []
    while ready:
        op = ready.pop()
        order.append(op)
        for user in users.get(op, ()):
            waiting[user] -= 1
            if not waiting[user]:
                ready.append(user)
    seen = set(order)
    return order + [op for op in nodes if op not in seen]   # a cycle: the rest in creation order
