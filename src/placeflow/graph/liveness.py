"""Liveness of a plan's values: where each value is read for the last time, so runners drop it there.

TensorFlow's executor releases a tensor as soon as its last consumer has run; placeflow's runners
do the same with Python references (a value's buffer goes back to its device when the last
reference dies). For a straight-line program (the inline step, a device's program) the analysis
is static: `dying_after(plan, order)` names, per node, the values whose last reader it is. A value
nothing reads (and that is not fetched) dies right after the node that makes it. The dataflow
runner counts readers at run time instead (`reader_counts`).

A `_Send` is not a value of its own: its readers read its input. Constants live in the plan;
fetched values live until the step returns them.
"""

from __future__ import annotations

NO_VALUE_KINDS = ("const", "noop")


def source_of(nodes, index: int) -> int:
    """The node whose value node `index` passes on (through `_Send`s)."""
    while nodes[index].kind == "send":
        index = nodes[index].inputs[0][0]
    return index


def dying_after(plan, order, fetched=None) -> dict:
    """{node index: [value node indices whose last reader (in `order`) it is]}; values no node in
    `order` reads die after the node that makes them. `fetched` values never die (default: the plan's
    fetches)."""
    nodes = plan.nodes
    keep = {source_of(nodes, i) for i, _ in plan.fetches} if fetched is None else set(fetched)
    last: dict = {}
    for index in order:
        node = nodes[index]
        if node.kind in NO_VALUE_KINDS or node.kind == "send":
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
    """Per node, how many computed nodes read its value (through `_Send`s), plus one if it is fetched:
    the dataflow runner drops a value when its count reaches zero."""
    nodes = plan.nodes
    counts = [0] * len(nodes)
    for node in nodes:
        if node.kind in NO_VALUE_KINDS or node.kind == "send":
            continue
        for source in {source_of(nodes, s) for s, _ in node.inputs}:
            counts[source] += 1
    for index, _ in plan.fetches:
        counts[source_of(nodes, index)] += 1
    return counts
