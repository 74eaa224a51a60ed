"""Constant folding (Grappler's, in small): cheap stateless ops whose inputs are known when a plan is
built run once then, and become constants of the plan.

An input counts as known when it comes from a constant, or when the op only reads its shape and
dtype (`OnesLike(x)`, `_ReduceGrad(g, like)`) and the graph knows that shape. This removes, for
example, a gradient's seed `OnesLike(loss)` and the loss-scaling chain behind it from every step.
"""

from __future__ import annotations

import numpy as np

from ..ops.registry import op_def

MAX_ELEMENTS = 1 << 16


def fold(node, op, nodes) -> bool:
    """Turn kernel `node` (made from `op`, its inputs among `nodes`) into a constant when it can be."""
    definition = op_def(op.type)
    if not definition.foldable or op.control_inputs or not _small(op):
        return False
    args = []
    for position, (index, port) in enumerate(node.inputs):
        value = _known_input(op, position, position in definition.shape_only_inputs, nodes[index], port, node.device)
        if value is None:
            return False
        args.append(value)
    try:
        value = node.call(*args)
    except Exception:  # noqa: BLE001 - left to run (and fail with the node's name) when the step runs
        return False
    node.kind, node.call, node.value, node.inputs, node.expensive = "const", None, value, [], False
    return True


def _small(op) -> bool:
    shape = op.outputs[0].shape if len(op.outputs) == 1 else None
    return shape is not None and None not in shape and int(np.prod(shape, dtype=np.int64)) <= MAX_ELEMENTS


def _known_input(op, position, shape_only, source, port, device):
    if source.kind == "const" and source.ref is None:
        return source.value if port is None else source.value[port]
    if shape_only:
        tensor = op.inputs[position]
        if tensor.shape is not None and None not in tensor.shape and tensor.dtype is not None:
            with device.activate():
                return device.xp.zeros(tuple(tensor.shape), dtype=tensor.dtype.numpy_dtype)
    return None
