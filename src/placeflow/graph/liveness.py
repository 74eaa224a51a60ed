"""Liveness of a plan's values: where each value is read for the last time, so runners drop it there.

TensorFlow's executor releases a tensor as soon as its last consumer has run; placeflow's runners
do the same with Python references (a value's buffer goes back to its device when the last
reference dies). For a straight-line program (the inline step, a device's program) the analysis
is static: `dying_after(plan, order)` names, per node, the values whose last reader it is. A value
nothing reads (and that is not fetched) dies right after the node that makes it. The dataflow
runner counts readers down at run time instead (`reader_counts`).

A `_Send` is not a value of its own: its readers read its input. Constants live in the plan;
fetched values live until the step returns them.
"""

from __future__ import annotations

from .schedule import inline_order

NO_VALUE_KINDS = ("const", "noop")


def source_of(nodes, index: int) -> int:
    """The node whose value node `index` passes on (through `_Send`s)."""
    while nodes[index].kind == "send":
        index = nodes[index].inputs[0][0]
    return index


def dying_after(plan, order, fetched=None, sends_read=False) -> dict:
    """{node index: [value node indices whose last reader (in `order`) it is]}; values no node in
    `order` reads die after the node that makes them. `fetched` values never die (default: the plan's
    fetches). `sends_read`: a `_Send` reads its input (traced programs list it with its value)."""
    nodes = plan.nodes
    keep = {source_of(nodes, i) for i, _ in plan.fetches} if fetched is None else set(fetched)
    last: dict = {}
    for index in order:
        node = nodes[index]
        if node.kind in NO_VALUE_KINDS:
            continue
        if node.kind == "send":
            if sends_read:
                last[source_of(nodes, index)] = index
            continue
        last.setdefault(index, index)
        for source, _ in node.inputs:
            value = source_of(nodes, source)
            if nodes[value].kind not in NO_VALUE_KINDS:
                last[value] = index
    dying: dict = {}
    for value, reader in last.items():
        if value not in keep:
            dying.setdefault(reader, []).append(value)
    return dying


def reader_counts(plan) -> list:
    """Per node, how many nodes read its value (a `_Send` reads its input and is read by its `_Recv`s),
    plus one if it is fetched: the dataflow runner drops a value when its count reaches zero."""
    nodes = plan.nodes
    counts = [0] * len(nodes)
    for node in nodes:
        if node.kind in NO_VALUE_KINDS:
            continue
        for source in {s for s, _ in node.inputs}:
            counts[source] += 1
    for index, _ in plan.fetches:
        counts[index] += 1
    return counts


def forwarded_into(node, dying) -> tuple:
    """The input positions a node may write its output into: positions its kernel can forward (partition's
    `node.forward`) whose value dies at this node (`dying`: the values it reads last)."""
    if node.forward is None or node.kind != "kernel" or not dying:
        return ()
    _, positions = node.forward
    return tuple(p for p in positions if node.inputs[p][1] is None and node.inputs[p][0] in dying)


def static_peaks(plan, output_bytes) -> dict:
    """{memory: the most bytes of node outputs alive at once} over one inline run of the plan, where
    `output_bytes(node)` gives (memory, bytes) for the nodes to count (None for the others). A node
    that forwards an input made by a counted node of the same memory allocates nothing."""
    nodes = plan.nodes
    order = inline_order(plan)
    dying = dying_after(plan, order)
    counted, live, peaks = {}, {}, {}
    for node in (nodes[i] for i in order):
        entry = output_bytes(node)
        dies = dying.get(node.index, ())
        if entry is not None:
            memory, nbytes = entry
            if any(counted.get(node.inputs[p][0], (None, 0))[0] is memory for p in forwarded_into(node, dies)):
                nbytes = 0  # the output takes over a dying input's buffer
            counted[node.index] = (memory, nbytes)
            live[memory] = live.get(memory, 0) + nbytes
            peaks[memory] = max(peaks.get(memory, 0), live[memory])
        for value in dies:
            if value in counted:
                memory, nbytes = counted.pop(value)
                live[memory] -= nbytes
    return peaks
