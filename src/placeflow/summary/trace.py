"""tf.summary.graph, trace_on / trace_off / trace_export and experimental.write_raw_pb.

Graphs are written as TensorFlow's GraphDef protocol buffer, encoded by hand from placeflow's graphs: each node's
name, op, inputs (control inputs as '^name'), requested device, and the attributes that are numbers, strings,
booleans, dtypes or lists of those (constants' values, nested functions and shapes are left out: TensorBoard draws
the graph without them). `trace_on(graph=True)` records the graph of each placeflow.function trace that runs until
`trace_export`, which writes them as TensorBoard's graph_run_metadata_graph summary (a RunMetadata whose
function_graphs hold each trace as its pre_optimization_graph). Profiler traces are not implemented."""

from __future__ import annotations

import logging
import struct
import sys
import threading
import time

import numpy as np

from ..framework import dtypes, errors
from ..framework.protobuf_wire import field_bytes, field_double, field_packed_varints, field_varint, fields
from ..framework.version import GRAPH_DEF_VERSION
from ..graph import step_stats
from ..graph.function import ConcreteFunction
from ..graph.graph import Graph
from . import records

log = logging.getLogger("placeflow.summary")


# -- GraphDef --------------------------------------------------------------------------------------------------------


def _attr_value(value) -> bytes | None:
    """An AttrValue of a number, string, bool, dtype or list of those; None for what a GraphDef here leaves out."""
    if isinstance(value, dtypes.DType):
        return field_varint(6, dtypes.datatype_enum(value))
    if isinstance(value, (bool, np.bool_)):
        return field_varint(5, int(value))
    if isinstance(value, (int, np.integer)):
        return field_varint(3, int(value))
    if isinstance(value, (float, np.floating)):
        return _float_field(4, float(value))
    if isinstance(value, (str, bytes)):
        return field_bytes(2, value)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (int, np.integer)) and not isinstance(
            v, bool) for v in value):
        return field_bytes(1, field_packed_varints(3, value))
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (str, bytes)) for v in value):
        return field_bytes(1, b"".join(field_bytes(2, v) for v in value))
    return None


def _float_field(number: int, value: float) -> bytes:
    """A 32-bit float field (AttrValue.f)."""
    return bytes([(number << 3) | 5]) + struct.pack("<f", value)


def _node_def(op) -> bytes:
    node = op.node_def
    out = field_bytes(1, node["name"]) + field_bytes(2, node["op"])
    out += b"".join(field_bytes(3, name[:-2] if name.endswith(":0") else name) for name in node["input"])
    out += field_bytes(4, node["device"]) if node["device"] else b""
    attrs = dict(node["attr"])
    if op.dtype is not None and "T" not in attrs and "dtype" not in attrs:
        attrs["T"] = op.dtype
    for key in sorted(attrs):
        encoded = _attr_value(attrs[key])
        if encoded is not None:
            out += field_bytes(5, field_bytes(1, str(key)) + field_bytes(2, encoded))
    return out


def graph_def(graph) -> bytes:
    """The serialized GraphDef of a placeflow Graph (see the module docstring for what it holds)."""
    nodes = b"".join(field_bytes(1, _node_def(op)) for op in graph.get_operations())
    return nodes + field_bytes(4, field_varint(1, GRAPH_DEF_VERSION))


def _graph_of(graph_data):
    if isinstance(graph_data, Graph):
        return graph_data
    if isinstance(graph_data, ConcreteFunction):
        return graph_data.graph
    raise ValueError(f"Argument 'graph_data' is not tf.Graph or tf.compat.v1.GraphDef. Received "
                     f"graph_data={graph_data!r} of type {type(graph_data).__name__}. placeflow writes its own "
                     "Graphs (e.g. a ConcreteFunction's .graph); it has no GraphDef protos to read.")


def graph(graph_data) -> bool:
    """Write `graph_data` (a placeflow Graph, or a ConcreteFunction's) as the run's GraphDef, for TensorBoard's
    graph dashboard; False without a default writer."""
    from . import _host, _stack, should_record_summaries
    graph = _graph_of(graph_data)
    _host(0)  # refused inside a traced function, as every summary
    if not should_record_summaries():
        return False
    event = field_double(1, time.time()) + field_varint(2, 0) + field_bytes(4, graph_def(graph))
    _stack()[-1]._append(event)
    return True


# -- trace_on / trace_off / trace_export -----------------------------------------------------------------------------

_trace = threading.local()
_lock = threading.Lock()
_recording: dict = {"graphs": None, "listener": None}


def _record_ran_function(stats) -> None:
    """A function-step listener: keep the graph of the ConcreteFunction whose run reported `stats`."""
    frame = sys._getframe(1)
    while frame is not None and not isinstance(frame.f_locals.get("self"), ConcreteFunction):
        frame = frame.f_back
    if frame is not None:
        concrete = frame.f_locals["self"]
        with _lock:
            if _recording["graphs"] is not None:
                _recording["graphs"].setdefault(id(concrete.graph), concrete.graph)


def trace_on(graph=True, profiler=False, profiler_outdir=None) -> None:
    """Start recording the graphs of the placeflow.function traces that run (graph=True); profiler traces are
    not implemented."""
    if profiler or profiler_outdir is not None:
        raise NotImplementedError("tf.summary.trace_on(profiler=True) is not implemented in placeflow: it has no "
                                  "TensorFlow profiler. Use trace_on(graph=True), or tf.config's device placement "
                                  "log and placeflow.experimental.placement_report() for where ops ran.")
    with _lock:
        if _recording["graphs"] is not None:
            log.warning("Trace already enabled")
            return
        _recording["graphs"] = {}
        if graph:
            _recording["listener"] = _record_ran_function
            step_stats.function_step_listeners.append(_record_ran_function)


def trace_off() -> None:
    """Stop recording and drop what was recorded."""
    with _lock:
        listener = _recording["listener"]
        if listener is not None and listener in step_stats.function_step_listeners:
            step_stats.function_step_listeners.remove(listener)
        _recording["graphs"], _recording["listener"] = None, None


def _run_metadata(graphs) -> bytes:
    """A RunMetadata whose function_graphs hold each graph as its pre_optimization_graph."""
    return b"".join(field_bytes(4, field_bytes(2, graph_def(g))) for g in graphs)


def trace_export(name, step=None, profiler_outdir=None) -> None:
    """Write the graphs recorded since trace_on under `name` at `step`, then stop tracing."""
    from . import _emit
    if profiler_outdir is not None:
        raise NotImplementedError("tf.summary.trace_export(profiler_outdir=...) is not implemented in placeflow: "
                                  "it records no profiler traces.")
    with _lock:
        graphs = _recording["graphs"]
    if graphs is None:
        raise ValueError("Must enable trace before export through tf.summary.trace_on.")
    try:
        if graphs:
            tensor = records.tensor_proto(np.array(_run_metadata(list(graphs.values())), dtype=object))
            _emit(name, tensor, records.summary_metadata("graph_run_metadata_graph", content=b"1"), step)
    finally:
        trace_off()


# -- experimental.write_raw_pb ---------------------------------------------------------------------------------------


def _summaries(tensor) -> list:
    from . import _host
    values = _host(tensor)
    blobs = [v if isinstance(v, bytes) else str(v).encode() for v in np.asarray(values, dtype=object).reshape(-1)]
    for index, blob in enumerate(blobs):
        try:
            for number, wire_type, _ in fields(blob):
                if number != 1 or wire_type != 2:
                    raise errors.DataLossError(None, None, "not a Summary")
        except errors.DataLossError:
            raise errors.DataLossError(None, None, (
                f"Bad tf.compat.v1.Summary binary proto tensor string at index {index}: {blob[:40]!r}. Pass "
                "serialized tf.compat.v1.Summary messages.")) from None
    return blobs


def write_raw_pb(tensor, step=None, name=None) -> bool:
    """Write serialized tf.compat.v1.Summary protos (a string tensor, scalar or vector) as they are, at `step`."""
    from . import _stack, _target_step, should_record_summaries
    blobs = _summaries(tensor)
    if not should_record_summaries():
        return False
    at = _target_step(step)
    for blob in blobs:
        _stack()[-1]._append(field_double(1, time.time()) + field_varint(2, at) + field_bytes(5, blob))
    return True
