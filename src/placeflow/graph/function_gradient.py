"""Gradients through a `function` call made under an eager GradientTape.

The call is one entry on the active tapes, with the call's tensor arguments and the trainable variables
its graph reads as inputs. Its gradient is another traced function: the ops the outputs depend on emitted
again into a new trace (replayed, not the Python body: it ran once, at trace time) under a tape, then that
tape's gradient of the outputs with the upstream gradients. What the outputs do not depend on (variable
updates such as BatchNormalization's moving statistics, prints) is not replayed; an output that depends on
a variable the graph also writes is refused by name (its replayed read could see the other value)."""

from __future__ import annotations

from ..eager import tape
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable
from .control_flow import _key, _topological

_NOT_REPLAYED = frozenset({"PrintV2", "Assert", "_AssertCompare", "WriteFile", "NoOp"})


def record_call(concrete, tensors: list, outputs: list) -> None:
    """Record the call of `concrete` on `tensors` (which returned the output leaves `outputs`) on the active
    tapes."""
    leaves = [leaf for leaf in outputs if isinstance(leaf, EagerTensor)]
    if not leaves:
        return
    variables = _read_variables(concrete.graph)
    reads = [v.read_value() for v in variables]  # read where the caller's tapes see it: gradients reach v
    inputs = list(tensors)
    _refuse_unregistered_gradients(concrete, inputs)
    cache: dict = {}

    def gradient(entry, *upstream):
        present = tuple(i for i, g in enumerate(upstream) if g is not None)
        backward = cache.get(present)
        if backward is None:
            backward = cache[present] = _Backward(concrete, variables, len(inputs), present)
        result = backward(inputs, [upstream[i] for i in present])
        # which inputs no present output depends on: reverse mode gives them zeros (TF's call op connects every
        # input), forward mode no tangent (eager/forward_accumulator.py reads this)
        gradient.unconnected = list(backward._unconnected)
        return result

    tape.record_custom(inputs + reads, leaves, gradient)


def _refuse_unregistered_gradients(concrete, inputs: list) -> None:
    """TF builds a call's gradient when a GradientTape watching one of its arguments records it: an op between
    that argument and an output with no registered gradient (RandomPoissonV2) raises LookupError at the call, as
    TF's does (placeflow would otherwise raise it from tape.gradient)."""
    watched = [i for i, x in enumerate(inputs) if any(
        isinstance(t, tape.GradientTape) and t._recording and t._key_of(x) is not None for t in tape._stack())]
    if not watched:
        return
    found = getattr(concrete, "_unregistered_gradients", None)
    if found is None:
        found = concrete._unregistered_gradients = _unregistered_by_argument(concrete)
    for i in watched:
        op = found.get(i)
        if op is not None:
            raise LookupError(
                f"No gradient defined for operation'{op.name}' (op type: {op.type}). In general every operation "
                f"must have an associated `@tf.RegisterGradient` for correct autodiff, which this op is lacking. If "
                f"you want to pretend this operation is a constant in your program, you may insert "
                f"`tf.stop_gradient`.")


def _unregistered_by_argument(concrete) -> dict:
    """{argument index: the first op on a path from it to an output whose gradient TF registers none}."""
    from ..ops.registry import op_def
    needed = _ancestors([leaf.op for leaf in concrete._leaves if leaf is not None and hasattr(leaf, "op")])
    operations = [op for op in concrete.graph.get_operations() if id(op) in needed]
    found = {}
    for index, argument in enumerate(concrete.inputs):
        reached = {id(argument.op)}
        for op in operations:
            if id(op) not in reached and not any(id(t.op) in reached for t in op.inputs):
                continue
            reached.add(id(op))
            definition = op_def(op.type)
            if definition is not None and getattr(definition.gradient, "unregistered", False):
                found[index] = op
                break
    return found


def _read_variables(graph) -> list:
    seen, out = set(), []
    for op in graph.get_operations():
        var = op.resource
        if op.type == "ReadVariableOp" and isinstance(var, Variable) and var.trainable and id(var) not in seen:
            seen.add(id(var))
            out.append(var)
    return out


class _Backward:
    """The traced gradient of one function for one set of present upstream gradients."""

    def __init__(self, concrete, variables, count: int, present: tuple):
        from .function import Function
        self._concrete, self._variables, self._count, self._present = concrete, variables, count, present
        self._unconnected = None
        self._function = Function(self._body, name=f"{concrete.name}_grad", autograph=False)

    def _body(self, *args):
        from ..ops.emit import zeros_like
        inputs, upstream = list(args[:self._count]), list(args[self._count:])
        with tape.GradientTape() as recorder:
            for value in inputs:
                if value.dtype.is_floating or value.dtype.is_complex:
                    recorder.watch(value)
            outputs = replay_function(self._concrete, inputs)
        targets = [outputs[i] for i in self._present]
        found = recorder.gradient(targets, inputs + self._variables, output_gradients=upstream)
        self._unconnected = [g is None for g in found]
        sources = inputs + self._variables
        return [g if g is not None else zeros_like(s) for g, s in zip(found, sources)
                if not (g is None and not (s.dtype.is_floating or s.dtype.is_complex))]

    def __call__(self, inputs: list, upstream: list) -> list:
        values = self._function(*inputs, *upstream)
        values = iter(values if isinstance(values, (list, tuple)) else [values])
        sources = inputs + self._variables
        out = []
        for unconnected, source in zip(self._unconnected, sources):
            floating = source.dtype.is_floating or source.dtype.is_complex
            if unconnected and not floating:
                out.append(None)
                continue
            out.append(next(values))  # zeros when unconnected inside: TF's call op connects every input
        return out


def _ancestors(ops) -> set:
    """ids of `ops` and every op they read from (data inputs only)."""
    seen, stack = set(), list(ops)
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        stack.extend(t.op for t in op.inputs)
    return seen


def _refuse_read_of_written(concrete, needed: set) -> None:
    operations = concrete.graph.get_operations()
    written = {id(op.resource) for op in operations if op.resource is not None and op.type != "ReadVariableOp"}
    for op in operations:
        if id(op) in needed and op.type == "ReadVariableOp" and id(op.resource) in written:
            raise LookupError(f"placeflow does not implement gradients through a call of {concrete.function_name} "
                              f"from a GradientTape outside it when its outputs depend on a variable it also writes "
                              f"('{op.resource.name}'). Put the GradientTape inside the function.")


def replay_function(concrete, inputs: list) -> list:
    """The flat outputs of `concrete` with its traced ops emitted again into the graph being built (its
    arguments bound to `inputs`, its variable reads read again so tapes see them); active tapes record."""
    from ..framework import graph_mode
    graph = graph_mode.active()
    mapping = {_key(p): v for p, v in zip(concrete.inputs, inputs)}
    needed = _ancestors([leaf.op for leaf in concrete._leaves if leaf is not None])
    _refuse_read_of_written(concrete, needed)
    made = {}
    for op in _topological([op for op in concrete.graph.get_operations() if id(op) in needed]):
        if op.type == "_Arg" or op.type in _NOT_REPLAYED:
            continue
        if op.type == "ReadVariableOp" and isinstance(op.resource, Variable):
            mapping[(id(op), 0)] = op.resource._as_tensor()
            continue
        inputs_now = [mapping[_key(t)] for t in op.inputs]
        fresh = graph.create_op(op.type, inputs_now, dict(op.attrs), op.dtype, op.name.rsplit("/", 1)[-1],
                                [(t.dtype, t.shape) for t in op.outputs], op.resource)
        fresh.control_inputs.extend(made[id(c)] for c in op.control_inputs if id(c) in made)
        made[id(op)] = fresh
        if tape.active_count:
            tape.record(op.type, fresh.attrs, inputs_now, list(fresh.outputs))
        mapping.update(((id(op), index), new) for index, new in enumerate(fresh.outputs))
    return [mapping[_key(leaf)] for leaf in concrete._leaves if leaf is not None]
