"""tf.gradients: symbolic differentiation of a graph being built (TF1 graphs, or inside `function`).

The same gradient rules as GradientTape (each op's declared gradient), applied to the graph's ops
from `ys` back to `xs`, in reverse creation order; the new ops go into the same graph.
"""

from __future__ import annotations

from ..eager.tape import Entry  # gradient rules see a graph op as they see a recorded one
from ..framework import errors, graph_mode, nest
from ..ops.emit import emit, unconnected_zeros
from ..ops.indexed_slices import densify
from ..ops.registry import NOT_DIFFERENTIABLE, differentiable_ops, op_def
from .graph import Tensor


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False, aggregation_method=None,
              stop_gradients=None, unconnected_gradients="none"):
    """d(sum of ys) / d(each x) as graph tensors (None for an x that ys do not depend on). gate_gradients
    changes only scheduling in TF; other aggregation methods than the default are refused."""
    if aggregation_method is not None:
        raise NotImplementedError(f"tf.gradients(aggregation_method={aggregation_method!r}) is not implemented in "
                                  f"placeflow: gradients are added with AddN; leave it None.")
    graph = graph_mode.active()
    if graph is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                           "instead.")
    targets = [_graph_tensor(y) for y in nest.flatten(ys)]
    sources = nest.flatten(xs)
    seeds = nest.flatten(grad_ys) if grad_ys is not None else [None] * len(targets)
    stops = {id(_graph_tensor(t)) for t in nest.flatten(stop_gradients or [])}
    grads: dict = {}
    for target, seed in zip(targets, seeds):
        _add(grads, target, emit("OnesLike", (target,), target.dtype) if seed is None else seed)
    needed = _ancestors(targets)
    for operation in reversed(graph.get_operations()):
        if id(operation) not in needed:
            continue
        upstream = [_total(grads.get(id(out))) for out in operation.outputs]
        if all(g is None for g in upstream) or any(id(out) in stops for out in operation.outputs):
            continue
        definition = op_def(operation.type)
        rule = definition.gradient if definition is not None else None
        if rule is NOT_DIFFERENTIABLE or operation.type in ("VariableV2", "ReadVariableOp", "Placeholder", "_Arg"):
            continue
        if rule is None:
            raise LookupError(f"No gradient defined for operation '{operation.name}' (op type: {operation.type}). "
                              f"placeflow defines gradients for: {', '.join(sorted(differentiable_ops()))}.")
        upstream = [g if g is not None else unconnected_zeros(out) for g, out in zip(upstream, operation.outputs)]
        entry = Entry(operation.type, operation.attrs, list(operation.inputs), list(operation.outputs))
        for tensor, grad in zip(operation.inputs, rule(entry, *upstream)):
            if grad is not None:
                _add(grads, tensor, grad)
    return [_source_gradient(graph, source, grads, unconnected_gradients) for source in sources]


def _graph_tensor(value):
    if isinstance(value, Tensor):
        return value
    element = getattr(value, "_graph_element", None)
    if element is not None:
        return element
    raise TypeError(f"tf.gradients takes graph tensors or variables; got {value!r}.")


def _ancestors(targets) -> set:
    seen, stack = set(), [t.op for t in targets]
    while stack:
        operation = stack.pop()
        if id(operation) in seen:
            continue
        seen.add(id(operation))
        stack.extend(t.op for t in operation.inputs)
        stack.extend(operation.control_inputs)
    return seen


def _add(grads, tensor, grad) -> None:
    grads.setdefault(id(tensor), []).append(grad)


def _total(parts):
    """The sum of a tensor's gradient parts (a gather's IndexedSlices made dense: tf.gradients here is dense)."""
    if not parts:
        return None
    parts = [densify(part) for part in parts]
    return parts[0] if len(parts) == 1 else emit("AddN", tuple(parts), parts[0].dtype)


def _source_gradient(graph, source, grads, unconnected):
    if isinstance(source, Tensor) or hasattr(source, "_graph_element"):
        grad = _total(grads.get(id(_graph_tensor(source))))
    elif hasattr(source, "_as_tensor") and hasattr(source, "assign"):  # an eager variable read inside a function
        reads = [op.outputs[0] for op in graph.get_operations()
                 if op.type == "ReadVariableOp" and op.resource is source]
        grad = _total([g for t in reads for g in grads.get(id(t), [])])
    else:
        raise TypeError(f"tf.gradients: xs must be tensors or variables; got {source!r}.")
    if grad is None and unconnected == "zero":
        shape = tuple(source.shape)
        return emit("Fill", (), source.dtype, {"shape": shape, "dtype": source.dtype, "value": 0})
    if grad is None and unconnected not in ("none", "zero"):
        raise errors.InvalidArgumentError(None, None, f"Unknown unconnected_gradients: {unconnected!r}")
    return grad
