"""Step stats as a Chrome trace (chrome://tracing, Perfetto): one process per device, copies on their own track."""

from __future__ import annotations

import json

COPY_OPS = frozenset({"_Send", "_Recv"})


class Timeline:
    """TensorFlow's timeline.Timeline: `Timeline(run_metadata.step_stats).generate_chrome_trace_format()`."""

    def __init__(self, step_stats, graph=None):
        self._step_stats = step_stats

    def generate_chrome_trace_format(self, show_dataflow=True, show_memory=False) -> str:
        """The trace as a JSON string; write it to a .json file and open it in Perfetto. show_dataflow draws
        an arrow from each node to the nodes that read its output, as TensorFlow's timeline does."""
        if show_memory:
            raise NotImplementedError("Timeline(show_memory=True) is not implemented in placeflow: the memory "
                                      "tracks are not drawn. Use placeflow.experimental.memory_summary() or "
                                      "get_memory_info for memory.")
        return json.dumps(self.trace_events(show_dataflow), indent=None)

    def trace_events(self, show_dataflow=False) -> dict:
        """The trace as a dict {'traceEvents': [...], 'displayTimeUnit': 'ms'} (with flow arrows if asked)."""
        events = []
        devices = sorted({d.device for d in self._step_stats.dev_stats})
        for pid, device in enumerate(devices):
            events.append({"ph": "M", "name": "process_name", "pid": pid, "args": {"name": device}})
            events.append({"ph": "M", "name": "process_sort_index", "pid": pid, "args": {"sort_index": pid}})
        threads: dict = {}
        for node in self._step_stats.all_nodes():
            pid = devices.index(node.device)
            track = "copies" if node.op in COPY_OPS else node.thread_id
            tid = threads.setdefault((pid, track), len(threads))
            if tid == len(threads) - 1 and not any(e.get("tid") == tid and e["ph"] == "M" for e in events):
                events.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": track}})
            events.append({"ph": "X", "cat": "copy" if node.op in COPY_OPS else "Op", "name": node.op, "pid": pid,
                           "tid": tid, "ts": node.all_start_micros, "dur": max(node.all_end_rel_micros, 0.001),
                           "args": {"name": node.node_name, "op": node.op, "output_bytes": node.output_bytes}})
        if show_dataflow:
            events.extend(_flows([e for e in events if e["ph"] == "X"], self._step_stats.all_nodes()))
        return {"traceEvents": events, "displayTimeUnit": "ms"}


def _flows(slices, nodes) -> list:
    """Chrome flow events: from the end of each producer's slice to the start of each consumer's."""
    by_name = {e["args"]["name"]: e for e in slices}
    flows = []
    for node in nodes:
        consumer = by_name.get(node.node_name)
        for name in getattr(node, "inputs", ()):
            producer = by_name.get(name)
            if producer is None or consumer is None:
                continue
            flow_id = len(flows) // 2
            flows.append({"ph": "s", "cat": "DataFlow", "name": name, "id": flow_id, "pid": producer["pid"],
                          "tid": producer["tid"], "ts": producer["ts"] + producer["dur"]})
            flows.append({"ph": "f", "bp": "e", "cat": "DataFlow", "name": name, "id": flow_id,
                          "pid": consumer["pid"], "tid": consumer["tid"], "ts": consumer["ts"]})
    return flows


def write_chrome_trace(step_stats, path: str) -> str:
    """Write `step_stats` as a Chrome trace JSON file at `path`; returns the path."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(Timeline(step_stats).generate_chrome_trace_format())
    return path
