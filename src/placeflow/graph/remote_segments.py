"""The parts of a plan that run in other tasks of the cluster: each shipped once, called once per step.

`split` groups the ops placed on remote devices into segments, one task each, convex: no path leaves a
segment and comes back into it, so one call computes the whole segment from its inputs. The plan then
has one `_RemoteCall` node per segment (on the host CPU) in place of the segment's ops; its call sends
the input values and gets the output values back. A segment's ops travel once, as records (name, type,
attributes, inputs, device), on its first call; the task rebuilds them into a graph (`rebuild`) and runs
it with a Session of its own, so placement, kernels and errors are the task's.
"""

from __future__ import annotations

import heapq
import itertools
import pickle
import threading

_keys = itertools.count(1)


class Segment:
    """Ops of one remote task, run by one call: inputs and outputs are tensors crossing its border."""

    def __init__(self, task_key, index):
        self.task_key, self.index = task_key, index
        self.ops: list = []
        self.devices: dict = {}   # op -> its RemoteDevice (a task's segment may span its CPU and GPUs)
        self.device = None        # the first op's device: its channel runs the segment
        self.payload = b""        # the pickled records, made when the plan is built
        self.inputs: list = []    # outside tensors the segment reads, in first-use order
        self.outputs: list = []   # segment tensors read outside (or fetched)
        self.controls: list = []  # outside ops the segment must run after
        self.key = f"segment-{next(_keys)}"
        self._shipped = False
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        """The plan node's name: the task and the segment's index."""
        job, task = self.task_key
        return f"_RemoteCall/{job}/task_{task}/{self.index}"

    def records(self) -> bytes:
        """The segment's ops as a pickled list of records (refusing ops that cannot leave this process)."""
        members = {op: i for i, op in enumerate(self.ops)}
        feeds = {(t.op, t.value_index): i for i, t in enumerate(self.inputs)}
        records = []
        for op in self.ops:
            _check_shippable(op, self.devices[op])
            inputs = [("op", members[t.op], t.value_index) if t.op in members else
                      ("feed", feeds[(t.op, t.value_index)], None) for t in op.inputs]
            records.append({"name": op.name, "type": op.type, "attrs": op.attrs, "dtype": op.dtype,
                            "inputs": inputs, "controls": [members[c] for c in op.control_inputs if c in members],
                            "outputs": [(t.dtype, t._shape) for t in op.outputs],
                            "device": self.devices[op].local_name})
        payload = {"records": records, "feeds": [(t.dtype, t._shape) for t in self.inputs],
                   "fetches": [(members[t.op], t.value_index) for t in self.outputs]}
        try:
            return pickle.dumps(payload)
        except Exception as exc:  # noqa: BLE001 - an attribute that cannot travel
            raise NotImplementedError(f"A segment for {self.device.name} holds an op whose attributes cannot be "
                                      f"sent to another task ({exc}). Keep that op on this task.") from None

    def call(self, *values):
        """Run the segment in its task on `values` (one per input); the outputs' values, as a tuple."""
        with self._lock:
            if not self._shipped:
                self.device.channel.ship_segment(self.key, self.payload)
                self._shipped = True
        return tuple(self.device.channel.run_segment(self.key, list(values)))


def _check_shippable(op, device) -> None:
    if op.resource is not None or op.type in ("VariableV2", "Placeholder", "_Arg"):
        raise NotImplementedError(
            f"{op.type} op {op.name!r} is placed on {device.name}, but placeflow keeps variables and inputs in the "
            "task that made them: create variables on this task (or in the remote task's own program) and let "
            "their values flow to the remote ops.")


def split(ops, placed, fetches, fed) -> tuple:
    """(units, segments): `ops` with each remote task's ops grouped into convex segments, in an order where
    every unit's inputs come first; a unit is an op or a Segment. Segments is empty when nothing is remote."""
    task_of = {op: (placed[op].job, placed[op].task) for op in ops
               if getattr(placed[op], "remote", False) and op not in fed}
    if not task_of:
        return list(ops), []
    where = _segment_indices(ops, task_of)
    segments: dict = {}
    for op in ops:
        if op in where:
            segment = segments.setdefault(where[op], Segment(*where[op]))
            segment.ops.append(op)
            segment.devices[op] = placed[op]
            segment.device = segment.device or placed[op]
    unit_of = {op: segments[where[op]] if op in where else op for op in ops}
    for segment in segments.values():
        _border(segment, unit_of, ops, fetches)
        segment.payload = segment.records()  # refuses ops that cannot run in another task now, not mid-step
    return _ordered(ops, unit_of), list(segments.values())


def _segment_indices(ops, task_of) -> dict:
    """op -> (task, k): a remote op joins the k-th segment of its task, after every segment it depends on
    through ops outside its task (so no path leaves a segment and re-enters it)."""
    reached: dict = {}  # op -> {task: the highest segment index of that task it depends on}
    where: dict = {}
    for op in ops:
        sources = [t.op for t in op.inputs] + list(op.control_inputs)
        depends: dict = {}
        for source in sources:
            for task, k in reached.get(source, {}).items():
                depends[task] = max(depends.get(task, -1), k)
        task = task_of.get(op)
        if task is not None:
            k = 0
            for source in sources:
                same = where.get(source, (None, 0))
                k = max(k, same[1] if same[0] == task else reached.get(source, {}).get(task, -1) + 1)
            where[op] = (task, k)
            depends[task] = max(depends.get(task, -1), k)
        reached[op] = depends
    return where


def _border(segment, unit_of, ops, fetches) -> None:
    """The tensors entering and leaving `segment`, and the outside ops it must follow."""
    inside = set(segment.ops)
    seen_inputs, seen_controls = set(), set()
    for op in segment.ops:
        for tensor in op.inputs:
            key = (tensor.op, tensor.value_index)
            if tensor.op not in inside and key not in seen_inputs:
                seen_inputs.add(key)
                segment.inputs.append(tensor)
        for control in op.control_inputs:
            if control not in inside and control in unit_of and control not in seen_controls:
                seen_controls.add(control)
                segment.controls.append(control)
    leaving = set()
    for op in ops:
        if op not in inside:
            leaving.update((t.op, t.value_index) for t in op.inputs if t.op in inside)
    leaving.update((t.op, t.value_index) for t in fetches if hasattr(t, "value_index") and t.op in inside)
    segment.outputs = [t for op in segment.ops for t in op.outputs if (op, t.value_index) in leaving]


def _ordered(ops, unit_of) -> list:
    """The units in dependency order, each as early as its first op allows (Kahn's algorithm)."""
    first = {}
    for position, op in enumerate(ops):
        first.setdefault(id(unit_of[op]), (position, unit_of[op]))
    needs: dict = {key: set() for key in first}
    users: dict = {key: set() for key in first}
    for op in ops:
        unit = id(unit_of[op])
        for source in [t.op for t in op.inputs] + list(op.control_inputs):
            if source in unit_of and id(unit_of[source]) != unit:
                needs[unit].add(id(unit_of[source]))
                users[id(unit_of[source])].add(unit)
    ready = [(first[k][0], k) for k, n in needs.items() if not n]
    heapq.heapify(ready)
    order = []
    while ready:
        _, key = heapq.heappop(ready)
        order.append(first[key][1])
        for user in users[key]:
            needs[user].discard(key)
            if not needs[user]:
                heapq.heappush(ready, (first[user][0], user))
    return order


def rebuild(payload: bytes):
    """In the remote task: (graph, feed placeholders, fetch tensors) of a shipped segment."""
    from .graph import Graph
    data = pickle.loads(payload)
    graph = Graph()
    with graph.as_default():
        feeds = [graph.create_op("Placeholder", [], {"dtype": dtype, "shape": _dims(shape)}, dtype,
                                 f"segment_input_{i}", [(dtype, _dims(shape))]).outputs[0]
                 for i, (dtype, shape) in enumerate(data["feeds"])]
        built = []
        for record in data["records"]:
            inputs = [built[i].outputs[port or 0] if kind == "op" else feeds[i] for kind, i, port in record["inputs"]]
            with graph.device(record["device"] or None):
                op = graph.create_op(record["type"], inputs, record["attrs"], record["dtype"], record["name"] + "/",
                                     [(dtype, _dims(shape)) for dtype, shape in record["outputs"]])
            op.control_inputs.extend(built[i] for i in record["controls"])
            built.append(op)
    fetches = [built[i].outputs[port] for i, port in data["fetches"]]
    return graph, feeds, fetches


def _dims(shape):
    return None if shape is None else tuple(shape)
