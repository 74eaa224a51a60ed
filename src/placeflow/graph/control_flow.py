"""Control flow in graphs: branch and loop bodies traced into their own graphs, run by the If and While ops.

A body is traced once into a `BodyGraph`. Tensors of the enclosing graph that it uses are captured:
each becomes a placeholder of the body and an input of the If/While op, so the enclosing plan computes
them first. In a branch, a variable read before the branch writes it is read by the enclosing graph and
captured the same way (so a GradientTape sees the read and gradients reach the variable); a loop body
reads its variables itself (each iteration must see the last one's writes). Bodies run on the host
through their own plans, placed like any function (device scopes included).
"""

from __future__ import annotations

import numpy as np

from ..config import context as context_module
from ..eager import tape
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable
from ..framework import graph_mode, nest
from ..runtime import registry
from ..runtime.shape_only import is_shape_only
from ..runtime.transfer import host_copy, to_host
from ..ops.debug import SIDE_EFFECT_OPS
from . import pipeline
from .build import as_graph_tensor
from .function import ConcreteFunction, FuncGraph, encloses, out_of_scope
from .graph import Tensor
from .variables import order_stateful

HOST = "/job:localhost/replica:0/task:0/device:CPU:0"


class BodyGraph(FuncGraph):
    """The graph of one branch or loop body, capturing what it uses from `outer`."""

    def __init__(self, name: str, outer, hoist_reads: bool):
        super().__init__(name)
        self.outer, self.hoist_reads = outer, hoist_reads
        self.first_trace = getattr(outer, "first_trace", True)
        self.captures: list = []      # [(outer tensor, placeholder)]
        self._captured: dict = {}     # id(outer tensor) -> placeholder
        self.written: set = set()     # ids of variables the body writes
        self.hoisted: dict = {}       # id(variable) -> its read in the enclosing graph (branches)

    def capture(self, tensor):
        """This body's placeholder for `tensor` of an enclosing graph (captured once)."""
        if tensor.op.graph is self:
            return tensor
        if encloses(self, tensor.op.graph):   # made in a body nested in this one, which has ended
            raise out_of_scope(tensor, self)
        if tensor.op.graph is not self.outer and isinstance(self.outer, BodyGraph):
            tensor = self.outer.capture(tensor)
        found = self._captured.get(id(tensor))
        if found is None:
            found = self.create_op("_Arg", [], {"_pinned_device": HOST}, tensor.dtype, "capture",
                                   [(tensor.dtype, tensor.shape)]).outputs[0]
            self._captured[id(tensor)] = found
            self.captures.append((tensor, found))
        return found

    def create_op(self, op_type, inputs, attrs=None, dtype=None, name=None, outputs=(), resource=None):
        if op_type == "ReadVariableOp" and self.hoist_reads and id(resource) not in self.written \
                and isinstance(resource, Variable):
            outer_read = self.hoisted.get(id(resource))
            if outer_read is None:
                with self.outer.as_default():  # read where the branch is used (tapes see it: gradients reach it)
                    outer_read = self.hoisted[id(resource)] = resource._as_tensor()
            op = super().create_op("Identity", [self.capture(outer_read)], {}, dtype, name or "read", outputs)
            if tape.active_count:  # the read is the enclosing tensor to tapes (they differentiate through it)
                tape.record("Identity", {}, [outer_read], list(op.outputs))
            return op
        inputs = [self.capture(t) if t.op.graph is not self else t for t in inputs]
        if resource is not None and op_type != "ReadVariableOp":
            self.written.add(id(resource))
        for value in (attrs or {}).values():  # a nested branch or loop writes what its bodies write
            if isinstance(value, Body):
                self.written |= value.graph.written
        return super().create_op(op_type, inputs, attrs, dtype, name, outputs, resource)


class Body:
    """A traced body: call it with host arrays (its inputs, then its captures) to get host arrays back."""

    def __init__(self, graph: BodyGraph, inputs: list, outputs_structure, leaves: list):
        self.graph, self.inputs, self.structure, self.leaves = graph, inputs, outputs_structure, leaves
        self._function = None
        self._on_host = None   # per output: made on a CPU (passed on as it is) or another device (copied)

    def finalize(self, captured_order) -> None:
        """Fix the placeholder order: the explicit inputs, then one per tensor of `captured_order` (the op's
        captured inputs, shared by all its bodies; a body that does not use one gets an unused placeholder)."""
        arguments = self.inputs + [self.graph.capture(tensor) for tensor in captured_order]
        self._function = ConcreteFunction(self.graph.name, self.graph, arguments, self.structure, self.leaves)

    def __call__(self, *arrays) -> tuple:
        function = self._function
        plan = function._plan
        if plan is None or plan.parallel:  # first call (builds the plan), or a parallel plan
            host = _host_device()
            outputs = function._call_flat([EagerTensor(a, host) for a in arrays])
            if outputs is None:
                return ()
            return tuple(host_copy(leaf._value) if is_shape_only(leaf._value) else np.asarray(leaf.numpy())
                         for leaf in nest.flatten(outputs, True))  # 0-d stays an array
        values = pipeline.run(plan, list(arrays), 0, 0)  # a loop body runs many times: straight to its plan
        if self._on_host is None:
            self._on_host = [plan.nodes[i].device.device_type == "CPU" for i, _ in plan.fetches]
        # a host value is passed on as it is (nothing writes a buffer that is held); another device's is copied
        # to the host, as a transfer does (a simulated GPU's array would otherwise stay charged to the GPU)
        return tuple((v if is_shape_only(v) else np.asarray(v)) if host else
                     (host_copy(v) if is_shape_only(v) else np.array(to_host(v), copy=True))
                     for v, host in zip(values, self._on_host))

    @property
    def stateful(self) -> bool:
        """Whether running the body writes a variable or has a side effect."""
        return any((op.resource is not None and op.type != "ReadVariableOp") or op.type in SIDE_EFFECT_OPS or
                   op.attrs.get("_stateful") for op in self.graph.get_operations())


def trace_body(fn, name: str, input_specs=(), hoist_reads=True, hoisted=None) -> Body:
    """Trace fn(*placeholders of input_specs [(dtype, shape)]) into a Body of the graph being built;
    `hoisted` reuses enclosing reads of variables ({id(variable): read})."""
    outer = graph_mode.active()
    graph = BodyGraph(name, outer, hoist_reads)
    graph.hoisted.update(hoisted or {})
    with graph.as_default():
        placeholders = [graph.create_op("_Arg", [], {"_pinned_device": HOST}, dtype, f"{name}_input",
                                        [(dtype, shape)]).outputs[0] for dtype, shape in input_specs]
        result = fn(*placeholders)
        leaves = [] if result is None else [_as_output(graph, leaf) for leaf in nest.flatten(result, True)]
    structure = None if result is None else nest.pack_as(result, leaves, True)  # None: run for its effects
    return Body(graph, placeholders, structure, leaves)


def replay(body: Body, values: list) -> list:
    """`body`'s outputs (flat) with its traced ops emitted again into the graph being built, its inputs bound
    to `values` and its captures to the tensors they captured; active tapes record each op. A gradient
    loop uses this rather than calling the Python body again: that code may hand back tensors it cached
    while it was traced (Keras's RNN cells cache their dropout masks), which belong to the first trace."""
    graph = graph_mode.active()
    mapping = {_key(p): v for p, v in zip(body.inputs, values)}  # (op, output index) -> tensor of this graph
    mapping.update((_key(placeholder), outer) for outer, placeholder in body.graph.captures)
    made = {}
    for op in _topological(body.graph.get_operations()):
        if op.type == "_Arg":
            continue
        inputs = [mapping[_key(t)] for t in op.inputs]
        fresh = graph.create_op(op.type, inputs, dict(op.attrs), op.dtype, op.name.rsplit("/", 1)[-1],
                                [(t.dtype, t.shape) for t in op.outputs], op.resource)
        fresh.control_inputs.extend(made[id(c)] for c in op.control_inputs if id(c) in made)
        made[id(op)] = fresh
        if tape.active_count:
            tape.record(op.type, fresh.attrs, inputs, list(fresh.outputs))
        mapping.update(((id(op), index), new) for index, new in enumerate(fresh.outputs))
    return [mapping[_key(leaf)] for leaf in body.leaves]


def _key(tensor) -> tuple:
    return id(tensor.op), tensor.value_index


def _topological(ops) -> list:
    """`ops` with every op after its inputs' and control inputs' ops (creation order where it already is:
    graph passes may have rewired an op to an op made after it)."""
    order, done = [], set()
    for root in ops:
        stack = [(root, False)]
        while stack:
            op, expanded = stack.pop()
            if id(op) in done:
                continue
            if expanded:
                done.add(id(op))
                order.append(op)
                continue
            stack.append((op, True))
            stack.extend((before, False) for before in reversed([t.op for t in op.inputs] + op.control_inputs)
                         if id(before) not in done and before.graph is op.graph)
    return order


def _as_output(graph, leaf):
    if isinstance(leaf, Tensor):
        return leaf if leaf.op.graph is graph else graph.capture(leaf)
    if isinstance(leaf, Variable):
        return leaf._as_tensor()
    if leaf is None:
        raise ValueError("A branch or loop body returned None; every output must be a tensor (or a value "
                         "convertible to one).")
    return as_graph_tensor(graph, leaf)


def _host_device():
    ctx = context_module._context or context_module.context()
    return registry.find(ctx, HOST)


def captured_union(bodies) -> list:
    """The enclosing-graph tensors any of the bodies captured, each once, in first-capture order."""
    seen, order = set(), []
    for body in bodies:
        for tensor, _ in body.graph.captures:
            if id(tensor) not in seen:
                seen.add(id(tensor))
                order.append(tensor)
    return order


def output_specs(bodies) -> list:
    """[(dtype, shape)] of the bodies' outputs: dtypes must agree; shapes merge (None where they differ)."""
    first = bodies[0].leaves
    specs = []
    for index, leaf in enumerate(first):
        shapes = [tuple(b.leaves[index].shape) if b.leaves[index].shape is not None else None for b in bodies]
        dtypes = {b.leaves[index].dtype for b in bodies}
        if len(dtypes) != 1:
            raise TypeError(f"Output {index} has different dtypes in the branches: {sorted(t.name for t in dtypes)}; "
                            f"cast them to one dtype.")
        shape = shapes[0] if all(s == shapes[0] for s in shapes) else (
            tuple(a if a == b else None for a, b in zip(*shapes[:2])) if all(
                s is not None and len(s) == len(shapes[0]) for s in shapes) else None)
        specs.append((leaf.dtype, shape))
    return specs


def run_stateful_order(graph, op, bodies) -> None:
    """Order the op after earlier uses of the variables its bodies write (and later uses after it)."""
    seen = set()
    for body in bodies:
        for inner in body.graph.get_operations():
            var = inner.resource
            if var is not None and id(var) not in seen and isinstance(var, Variable):
                seen.add(id(var))
                order_stateful(graph, var, op, write=True)
