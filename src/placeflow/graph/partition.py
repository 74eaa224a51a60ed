"""From a placed graph to an execution plan: pruned nodes in order, split per device with copies between.

Every data edge between two devices gets a `_Send` node on the source device and a `_Recv` node
on the destination (one pair per tensor and destination device, shared by all consumers there).
Constants are materialized on the device that uses them once, when the plan is built.

Every node that computes something has one callable, `node.call(*inputs) -> output`: a kernel
made by its device's `node_call` (activation, memory charge), a copy, a variable read or write.
Constants and feeds have values instead, and a `_Send` passes its input on. Runners interpret
nothing else.
"""

from __future__ import annotations

import functools

import numpy as np

from ..config import context as context_module
from ..framework import errors
from ..ops.collective import COLLECTIVE_OPS
from ..ops.registry import BY_SIZE, HEAVY, find_kernel, op_def
from ..perf import models as perf_models, op_costs
from ..placement import report
from ..placement.cost_model import numpy_dtype, static_shape
from ..runtime import registry
from ..runtime.transfer import copy_array
from . import constant_folding, intra_op, liveness, remote_segments
from .schedule import WRITE_KINDS, output_bytes
from .state import current_value, write_variable

RUN_KINDS = frozenset({"kernel", "read_var", "write_var", "assign_ref"})
HEAVY_ELEMENTS = 1 << 16
# Outputs smaller than this are not forwarded: NumPy's small-array cache makes allocating them nearly free,
# while the forwarding check costs about a microsecond in Python (benchmarks/graph.py, the 8x8 chain).
FORWARD_MIN_BYTES = 1 << 16
REF_CONSUMERS = {"Assign": "assign", "AssignAdd": "assign_add", "AssignSub": "assign_sub"}


class Node:
    """One step of a plan: how to compute it, on which device, from which earlier nodes."""

    __slots__ = ("index", "name", "type", "device", "kind", "call", "attrs", "inputs", "controls",
                 "consumers", "value", "op", "expensive", "feed_index", "ref", "resource", "input_names", "forward")

    def __init__(self, index, name, op_type, device, kind, op=None):
        self.index, self.name, self.type, self.device, self.kind, self.op = index, name, op_type, device, kind, op
        self.call = self.value = self.ref = self.resource = None
        self.forward = None         # (kernel, input positions) it may write into when they die here
        self.attrs: dict = {}
        self.inputs: list = []      # (source node index, output port or None)
        self.controls: list = []    # source node indices
        self.consumers: list = []   # node indices waiting on this one (data and control)
        self.expensive = False
        self.feed_index = None
        self.input_names: tuple = ()  # the producers' names (step stats: the timeline's dataflow arrows)

    def __repr__(self) -> str:
        return f"<Node {self.index} {self.name} ({self.type}) on {self.device.short_name} [{self.kind}]>"


class Plan:
    """The nodes of one (fetches, feeds) signature, in an order where inputs come first."""

    def __init__(self):
        self.nodes: list = []
        self.fetches: list = []     # (node index, port)
        self.feeds: list = []       # graph tensors, in feed order
        self.parallel = False
        self.per_device = False     # parallel only across devices: one straight-line program per device
        self.has_collectives = False  # collective nodes: always per-device programs
        self.writes_state = False   # writes variables: Ctrl-C waits for the step to finish (interrupts)
        self.width = 1              # how many expensive nodes can run at once
        self.one_blas_thread = False  # every BLAS call small, on this host's CPU: run it with one BLAS thread
        self.pending: list = []     # per node: inputs still to come once constants and feeds are in
        self.readers = None         # per node: nodes reading its value (+1 if fetched), for the dataflow runner
        self.order = None           # the inline step's node order (schedule.inline_order)
        self.devices = None         # the devices its nodes run on (pipeline.run: their lanes)
        self.roots: list = []       # nodes ready when a step starts
        self.inline = None          # generated single-thread step function (codegen)
        self.inline_traced = None   # the same with step statistics
        self.device_programs: dict = {}  # (traced, host threads) -> compiled per-device programs
        self.forwarding_calls: dict = {}  # (node index, dying inputs) -> the dataflow runner's forwarding callable
        self.host_transients: list = []  # (host memory, bytes its kernel nodes make per step)
        self.record = None               # the placement report's record of this plan's ops


def needed_ops(fetch_ops, fed_ops) -> list:
    """Every op the fetches depend on (data and control), stopping at fed ops; in creation order."""
    seen, stack = set(), list(fetch_ops)
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if op in fed_ops:
            continue
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return sorted(seen, key=lambda op: op._id)


def build_plan(ops, placed, fetches, feeds, store=None, reasons=None) -> Plan:
    """Compile `ops` (placed, in creation order) into a Plan computing `fetches` from `feeds`; `reasons`
    (the placer's, per op) go to the placement report with the plan's ops."""
    builder = _Builder(placed, {t.op: i for i, t in enumerate(feeds)}, store)
    units, segments = remote_segments.split(ops, placed, fetches, builder.fed)
    for unit in units:
        if isinstance(unit, remote_segments.Segment):
            builder.add_segment(unit)
        else:
            builder.add(unit)
    plan = builder.plan
    plan.feeds = list(feeds)
    plan.fetches = [builder.output_of(t, builder.device_of(t.op)) if hasattr(t, "value_index") else
                    (builder.index[t], None) for t in fetches]
    _link_consumers(plan)
    plan.host_transients = _host_transients(plan)
    plan.record = report.remember_plan(_report_rows(plan, reasons or {}) + _segment_rows(segments, placed, reasons))
    plan.width = _useful_width(plan)
    plan.one_blas_thread = _small_blas_calls_only(plan)
    # collective nodes block until every device's node arrives: they need one thread per device lane
    plan.writes_state = any(n.kind in WRITE_KINDS for n in plan.nodes)
    plan.has_collectives = any(n.type in COLLECTIVE_OPS for n in plan.nodes)
    plan.parallel = plan.width > 1 or plan.has_collectives
    # a collective node blocks its lane until its peers arrive, so work queued behind it on the dataflow
    # runner could never run: collective plans always run as per-device programs, one step at a time
    plan.per_device = plan.parallel and (plan.has_collectives or _parallel_only_across_devices(plan))
    return plan


class _Builder:
    def __init__(self, placed, fed, store):
        self.placed, self.fed, self.store = placed, fed, store
        self.plan = Plan()
        self.index: dict = {}       # op -> node index
        self.derefs: dict = {}      # VariableV2 node index -> deref node index
        self.transfers: dict = {}   # (source index, port, device name) -> recv node index
        self.local_consts: dict = {}
        self.transfer_count = 0
        self.segment_outputs: dict = {}  # (op, output index) -> (_RemoteCall node index, port)

    def device_of(self, op):
        """The device the placer chose for `op`."""
        return self.placed[op]

    def new_node(self, name, op_type, device, kind, op=None) -> Node:
        """Append a node to the plan."""
        node = Node(len(self.plan.nodes), name, op_type, device, kind, op)
        self.plan.nodes.append(node)
        return node

    # -- one op ------------------------------------------------------------------------------------------
    def add(self, op) -> None:
        """Compile one op (its inputs are compiled already: ops come in creation order)."""
        device = self.placed[op]
        if op in self.fed:
            node = self.new_node(op.name, op.type, device, "feed", op)
            node.feed_index = self.fed[op]
        elif op.type in ("Placeholder", "_Arg"):
            raise _must_feed(op)
        elif op.type == "Const":
            node = self.new_node(op.name, op.type, device, "const", op)
            node.value = _materialize(op, device)
        elif op.type == "VariableV2":
            node = self.new_node(op.name, op.type, device, "const", op)
            node.value = node.ref = self.store.slot(op, device)
        else:
            node = self._computed(op, device)
        node.controls = [self.index[c] for c in op.control_inputs if c in self.index]
        self.index[op] = node.index

    def _computed(self, op, device) -> Node:
        inputs = []
        for position, tensor in enumerate(op.inputs):
            wants_ref = op.type in REF_CONSUMERS and position == 0
            inputs.append(self.input_of(tensor, device, wants_ref))
        if op.type in REF_CONSUMERS and op.inputs[0].op.type == "VariableV2":
            node = self.new_node(op.name, op.type, device, "assign_ref", op)
            node.ref = self.plan.nodes[inputs[0][0]].ref
            node.call = getattr(node.ref, REF_CONSUMERS[op.type])
            inputs = inputs[1:]
        elif op.resource is not None:
            kind = "read_var" if op.type == "ReadVariableOp" else "write_var"
            node = self.new_node(op.name, op.type, device, kind, op)
            node.resource = op.resource
            if kind == "read_var":
                node.call = functools.partial(current_value, op.resource)
            else:
                node.attrs = {k: v for k, v in op.attrs.items() if not k.startswith("_")}
                node.call = functools.partial(write_variable, op.type, op.resource, _kernel(op, device), node.attrs)
        elif op.type == "NoOp":
            node = self.new_node(op.name, op.type, device, "noop", op)
            node.call = _no_output
        else:
            node = self.new_node(op.name, op.type, device, "kernel", op)
            kernel = _kernel(op, device)
            node.attrs = {k: v for k, v in op.attrs.items() if not k.startswith("_")}
            node.call = device.node_call(op.type, kernel.fn, node.attrs, kernel.presize, op.name, op.dtype)
            node.forward = _forwardable(op, kernel)
        node.inputs = inputs
        node.expensive = _is_expensive(op)
        if node.kind == "kernel":
            constant_folding.fold(node, op, self.plan.nodes)
        return node

    def add_segment(self, segment) -> None:
        """One `_RemoteCall` node on the host CPU running a remote task's segment (remote_segments)."""
        host = _host_cpu()
        node = self.new_node(segment.name, "_RemoteCall", host, "kernel")
        node.inputs = [self.input_of(t, host) for t in segment.inputs]
        node.controls = sorted({self.index[c] for c in segment.controls if c in self.index})
        node.call, node.expensive = segment.call, True
        for port, tensor in enumerate(segment.outputs):
            self.segment_outputs[(tensor.op, tensor.value_index)] = (node.index, port)
        for op in segment.ops:
            self.index[op] = node.index

    # -- edges ----------------------------------------------------------------------------------------
    def input_of(self, tensor, device, wants_ref=False):
        """(node, port) giving `tensor` on `device`: a local constant, a variable read, or a transfer."""
        remote = self.segment_outputs.get((tensor.op, tensor.value_index))
        if remote is not None:
            source = self.plan.nodes[remote[0]]
            return remote if source.device is device else (self._transfer(source, remote[1], device), None)
        source = self.plan.nodes[self.index[tensor.op]]
        port = tensor.value_index if len(tensor.op.outputs) > 1 else None
        if source.kind == "const" and source.ref is None and source.device is not device:
            return self._local_const(source, device), None
        if source.ref is not None and not wants_ref:
            source = self.plan.nodes[self._deref(source)]
        if source.device is device or wants_ref:
            return source.index, port
        return self._transfer(source, port, device), None

    def output_of(self, tensor, device):
        """(node, port) of a fetched tensor (a variable fetch reads its value)."""
        if (tensor.op, tensor.value_index) in self.segment_outputs:
            return self.segment_outputs[(tensor.op, tensor.value_index)]
        source = self.plan.nodes[self.index[tensor.op]]
        if source.ref is not None:
            return self._deref(source), None
        return source.index, (tensor.value_index if len(tensor.op.outputs) > 1 else None)

    def _deref(self, var_node) -> int:
        if var_node.index not in self.derefs:
            node = self.new_node(var_node.name, "VariableV2", var_node.device, "deref", var_node.op)
            node.ref = var_node.ref
            node.call = var_node.ref.get
            node.controls = [var_node.index]
            self.derefs[var_node.index] = node.index
        return self.derefs[var_node.index]

    def _local_const(self, source, device) -> int:
        key = (source.index, device.name)
        if key not in self.local_consts:
            node = self.new_node(source.name, "Const", device, "const", source.op)
            node.value = copy_array(source.value, source.device, device)
            self.local_consts[key] = node.index
        return self.local_consts[key]

    def _transfer(self, source, port, device) -> int:
        key = (source.index, port, device.name)
        if key in self.transfers:
            return self.transfers[key]
        self.transfer_count += 1
        send = self.new_node(f"{source.name}/_{self.transfer_count}", "_Send", source.device, "send")
        send.inputs = [(source.index, port)]
        send.call = _pass_on
        self.transfer_count += 1
        recv = self.new_node(f"{source.name}/_{self.transfer_count}", "_Recv", device, "recv")
        recv.inputs = [(send.index, None)]
        recv.call = _copier(source.device, device)
        self.transfers[key] = recv.index
        return recv.index


def _copier(src, dst):
    def copy(value):
        """The _Recv body: copy to the destination device and count the bytes."""
        copied = copy_array(value, src, dst)
        if copied is not value:
            report.count_copy(src.name, dst.name, getattr(copied, "nbytes", 0))
        return copied
    return copy


def _materialize(op, device):
    value = op.attrs["value"]
    source = op.attrs.get("_value_device")
    if source is not None:
        return value if source is device else copy_array(value, source, device)
    return value if device.device_type == "CPU" else device.upload(value)


def _kernel(op, device):
    kernel = find_kernel(op.type, device.device_type, op.dtype)
    if kernel is None:
        raise errors.InvalidArgumentError(None, op, f"No {device.device_type} kernel for {op.type} "
                                          f"({op.name}) with dtype {op.dtype}.")
    return kernel


def _forwardable(op, kernel):
    """(kernel, input positions) whose buffer the kernel's output may take over: its forwarding kernel's
    inputs of the output's static shape (fully known) and dtype; None when there are none or the output
    is smaller than FORWARD_MIN_BYTES."""
    if kernel.forward is None or len(op.outputs) != 1:
        return None
    out = op.outputs[0]
    if out.shape is None or None in out.shape or out.dtype is None or out.dtype.numpy_dtype.kind in "OUS":
        return None
    if int(np.prod(out.shape, dtype=np.int64)) * out.dtype.numpy_dtype.itemsize < FORWARD_MIN_BYTES:
        return None
    positions = tuple(p for p in kernel.forward_inputs if p < len(op.inputs) and op.inputs[p].dtype == out.dtype
                      and op.inputs[p].shape is not None and tuple(op.inputs[p].shape) == tuple(out.shape))
    return (kernel, positions) if positions else None


def _no_output(*controls):
    return None


def _pass_on(value):
    """A _Send's body: its value goes to the _Recv as it is."""
    return value


def _host_cpu():
    ctx = context_module._context or context_module.context()
    return next(d for d in registry.devices(ctx) if d.device_type == "CPU")


def _segment_rows(segments, placed, reasons) -> list:
    """Placement report rows of the ops that run in other tasks."""
    return [(op.type, placed[op].name) + tuple((reasons or {}).get(op, ("scope", "")))
            for segment in segments for op in segment.ops]


def _report_rows(plan, reasons) -> list:
    """(op type, device, reason, detail) of every node that runs an op each step."""
    return [(n.type, n.device.name) + tuple(reasons.get(n.op, ("default", "")))
            for n in plan.nodes if n.kind in RUN_KINDS and n.op is not None]


def _host_transients(plan) -> list:
    """Per host memory, the most bytes its kernel nodes hold at once in one step (static shapes, values
    freed at their last reader, forwarded outputs taking no new bytes: liveness.static_peaks): a step
    counts them as allocated and freed, so the host's peak includes a plan's intermediates."""
    return [(memory, nbytes) for memory, nbytes in liveness.static_peaks(plan, _host_output_bytes).items() if nbytes]


def _host_output_bytes(node):
    """(host memory, bytes of a CPU kernel node's outputs from static shapes), or None."""
    if node.kind != "kernel" or node.device.device_type != "CPU" or node.op is None:
        return None
    return node.device.memory, output_bytes(node)


def _is_expensive(op) -> bool:
    """By the op's cost class: always (HEAVY), never (CHEAP), or when its output is large (BY_SIZE)."""
    cost = op_def(op.type).cost
    if cost != BY_SIZE:
        return cost == HEAVY
    shape = op.outputs[0].shape if op.outputs else None
    if shape is None or None in shape:
        return False
    return int(np.prod(shape, dtype=np.int64)) >= HEAVY_ELEMENTS


def _link_consumers(plan) -> None:
    """Consumer lists, and the pending counts and roots every parallel step starts from."""
    available = [n.kind in ("const", "feed") for n in plan.nodes]
    plan.pending = [0] * len(plan.nodes)
    for node in plan.nodes:
        node.input_names = tuple(plan.nodes[s].name for s, _ in node.inputs)
        for source in {s for s, _ in node.inputs} | set(node.controls):
            plan.nodes[source].consumers.append(node.index)
            plan.pending[node.index] += not available[source]
    plan.roots = [n.index for n in plan.nodes if not available[n.index] and plan.pending[n.index] == 0]


def _parallel_only_across_devices(plan) -> bool:
    """Whether the plan spans several devices and no device has two expensive nodes that could overlap."""
    devices = {n.device.name for n in plan.nodes if n.kind not in ("const", "feed")}
    if len(devices) < 2:
        return False
    ancestors = _ancestors(plan)
    return all(_parallel_width(plan, name, ancestors) == 1 for name in devices)


def _useful_width(plan) -> int:
    """How many expensive nodes can usefully run at once. On this host's CPU alone, while BLAS
    spreads each matmul over several cores, matmuls gain nothing from running beside each other (they would
    share the same cores, each with fewer BLAS threads, also through the stretches where only one runs): there
    only the other expensive nodes count, and a plan whose matmuls take at least as long as the rest runs
    inline (where it also forwards dying buffers: a training step's large gradients reuse warm memory)."""
    width = _parallel_width(plan)
    if width < 2 or not intra_op.blas_spreads_kernels():
        return width
    devices = {n.device for n in plan.nodes if n.kind == "kernel"}
    if len(devices) != 1 or not _computes_with_host_blas(next(iter(devices))):
        return width
    if _matmul_bound(plan):
        return 1
    return _parallel_width(plan, skip=intra_op.BLAS_SPREAD_OPS)


def _computes_with_host_blas(device) -> bool:
    """Whether the device is this host's CPU (also while estimating). A simulated GPU computes with NumPy too,
    but stands for a GPU: its plans run as a GPU's would, so that its memory is what the GPU's would be."""
    return device.device_type == "CPU" and device.host_backed


SMALL_BLAS_FLOPS = 32e6   # a matmul or convolution under this (about 0.3 ms on one core) gains little from more


def _small_blas_calls_only(plan) -> bool:
    """Whether the plan runs on this host's CPU alone, while BLAS runs several threads, and each of its matmuls
    and convolutions is small (under SMALL_BLAS_FLOPS). A second BLAS thread saves little on such a call, and
    after it the BLAS workers spin, waiting for the next call, on the cores the step's other kernels need (a
    small CNN's training step took 1.4x as long as with one BLAS thread): the step runs with one."""
    if not intra_op.blas_spreads_kernels():
        return False
    devices = {n.device for n in plan.nodes if n.kind == "kernel"}
    if len(devices) != 1 or not _computes_with_host_blas(next(iter(devices))):
        return False
    flops = [cost.flops for cost in map(_cost, plan.nodes) if cost is not None and cost.matmul]
    return bool(flops) and max(flops) < SMALL_BLAS_FLOPS


def _matmul_bound(plan) -> bool:
    """Whether the plan's matmuls take at least as long as its other expensive kernels, as the host CPU's
    performance model puts them (FLOPs and bytes over its rates)."""
    model, spent = perf_models.preset("CPU"), {True: 0.0, False: 0.0}
    for node in plan.nodes:
        if node.expensive and node.op is not None:
            spent[node.type in intra_op.BLAS_SPREAD_OPS] += _modelled_seconds(node.op, model)
    return spent[True] > 0 and spent[True] >= spent[False]


def _modelled_seconds(op, model) -> float:
    try:
        cost = op_costs.op_cost(*_cost_arguments(op))
        return op_costs.op_time(model, cost, numpy_dtype(op.dtype))
    except (TypeError, ValueError, IndexError):   # attributes or (unknown-rank) shapes the rules cannot read
        return 0.0


def _cost(node):
    """The cost rules' Cost of an expensive node's op, or None (cheap, no op, or rules that cannot read it)."""
    if not node.expensive or node.op is None:
        return None
    try:
        return op_costs.op_cost(*_cost_arguments(node.op))
    except (TypeError, ValueError, IndexError):
        return None


def _cost_arguments(op) -> tuple:
    inputs = [(static_shape(t), numpy_dtype(t.dtype)) for t in op.inputs]
    outputs = [(static_shape(t), numpy_dtype(t.dtype)) for t in op.outputs]
    return op.type, inputs, outputs, {k: v for k, v in op.attrs.items() if not k.startswith("_")}


def _parallel_width(plan, device_name=None, ancestors=None, skip=frozenset()) -> int:
    """How many expensive nodes (of one device, if named) can run at the same time (a greedy independent set)."""
    heavy = [n.index for n in plan.nodes if n.expensive and device_name in (None, n.device.name) and n.type not in skip]
    if len(heavy) < 2:
        return 1
    ancestors = ancestors or _ancestors(plan)
    chosen = []
    for b in heavy:
        if all(not (ancestors[b] >> a) & 1 for a in chosen):
            chosen.append(b)
    return len(chosen)


def _ancestors(plan) -> list:
    """Per node, a bit set of every node it depends on (data and control)."""
    ancestors = [0] * len(plan.nodes)
    for node in plan.nodes:
        bits = 0
        for source in {s for s, _ in node.inputs} | set(node.controls):
            bits |= ancestors[source] | (1 << source)
        ancestors[node.index] = bits
    return ancestors


def _must_feed(op) -> errors.InvalidArgumentError:
    dtype = op.dtype.name if op.dtype is not None else "unknown"
    shape = op.outputs[0].shape
    shape_text = "unknown" if shape is None else "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"
    return errors.InvalidArgumentError(None, op, (
        f"You must feed a value for placeholder tensor '{op.name}' with dtype {dtype} and shape {shape_text}\n"
        f"\t [[{{{{node {op.name}}}}}]]\nplaceflow: pass feed_dict={{{op.name}: value}} to Session.run."))
