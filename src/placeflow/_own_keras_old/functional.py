"""The functional API's graph: KerasTensors made by layers from other KerasTensors, ordered so a model can
run its layers on real tensors (several inputs and outputs, merges, arithmetic on KerasTensors)."""

from __future__ import annotations

from ..framework import nest


def flat_keras_tensors(structure) -> list:
    """The KerasTensors of a structure (a KerasTensor, or lists/tuples/dicts of them)."""
    return nest.flatten(structure)


def topological_nodes(inputs, outputs) -> list:
    """Every KerasTensor between `inputs` and `outputs`, each after the ones it is computed from; ValueError
    when an output does not come from the inputs."""
    sources = {id(t) for t in flat_keras_tensors(inputs)}
    order, state = [], {}

    def visit(tensor):
        mark = state.get(id(tensor))
        if mark == "done":
            return
        if mark == "visiting":
            raise ValueError(f"The functional graph has a cycle through {tensor!r}.")
        state[id(tensor)] = "visiting"
        if id(tensor) not in sources:
            if tensor.inputs is None:
                raise ValueError(f"Graph disconnected: cannot obtain value for {tensor!r}: it is not computed from "
                                 f"the model's inputs {inputs!r}.")
            for parent in flat_keras_tensors(tensor.inputs):
                visit(parent)
        state[id(tensor)] = "done"
        order.append(tensor)

    for output in flat_keras_tensors(outputs):
        visit(output)
    return order


def run(nodes, inputs, outputs, values, training=None):
    """The outputs' structure computed from `values` (real tensors for the inputs, in their structure)."""
    known = {}
    for tensor, value in zip(flat_keras_tensors(inputs), nest.flatten(values)):
        known[id(tensor)] = value
    for node in nodes:
        if id(node) in known:
            continue
        arguments = nest.pack_as(node.inputs, [known[id(t)] for t in flat_keras_tensors(node.inputs)])
        known[id(node)] = node.layer._call_on_values(arguments, node.kwargs, training)
    return nest.pack_as(outputs, [known[id(t)] for t in flat_keras_tensors(outputs)])
