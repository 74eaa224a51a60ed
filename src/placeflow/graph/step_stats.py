"""RunOptions, RunMetadata and step stats: what ran where and when, during one traced step."""

from __future__ import annotations

import threading
import time


class NodeExecStats:
    """One node's execution: name, op, thread, start and end (µs since the epoch), output bytes."""

    __slots__ = ("node_name", "op", "device", "thread_id", "all_start_micros", "all_end_rel_micros", "output_bytes",
                 "inputs")

    def __init__(self, node_name, op, device, thread_id, start_micros, duration_micros, output_bytes, inputs=()):
        self.node_name, self.op, self.device, self.thread_id = node_name, op, device, thread_id
        self.all_start_micros, self.all_end_rel_micros = start_micros, duration_micros
        self.output_bytes = output_bytes
        self.inputs = tuple(inputs)  # the names of the nodes whose outputs this one read

    @classmethod
    def of(cls, node, thread, start_ns, end_ns, output):
        """Stats of `node`, timed with perf_counter_ns (converted to wall-clock microseconds)."""
        outputs = output if isinstance(output, (tuple, list)) else (output,)
        nbytes = [int(getattr(o, "nbytes", 0)) for o in outputs if o is not None]
        start_us = (start_ns + _WALL_OFFSET_NS) / 1000.0
        return cls(node.name, node.type, node.device.name, thread, start_us, (end_ns - start_ns) / 1000.0, nbytes,
                   getattr(node, "input_names", ()))

    @property
    def all_end_micros(self) -> float:
        """End time (µs since the epoch)."""
        return self.all_start_micros + self.all_end_rel_micros

    @property
    def timeline_label(self) -> str:
        """'name = Op(...)', as TensorFlow labels nodes."""
        return f"{self.node_name} = {self.op}()"

    def __repr__(self) -> str:
        return (f"<NodeExecStats {self.node_name} ({self.op}) on {self.device} thread={self.thread_id} "
                f"{self.all_end_rel_micros:.1f}us>")


_WALL_OFFSET_NS = time.time_ns() - time.perf_counter_ns()


class DeviceStepStats:
    """The node stats of one device."""

    def __init__(self, device: str):
        self.device = device
        self.node_stats: list = []


class StepStats:
    """Per-device node stats of one step (RunMetadata.step_stats)."""

    def __init__(self):
        self.dev_stats: list = []

    def device(self, name: str) -> DeviceStepStats:
        """The DeviceStepStats of `name` (created when missing)."""
        for entry in self.dev_stats:
            if entry.device == name:
                return entry
        entry = DeviceStepStats(name)
        self.dev_stats.append(entry)
        return entry

    def all_nodes(self) -> list:
        """Every NodeExecStats of the step, by start time."""
        return sorted((n for d in self.dev_stats for n in d.node_stats), key=lambda n: n.all_start_micros)


class StepStatsCollector:
    """Thread-safe gathering of NodeExecStats during a step."""

    def __init__(self, step_stats: StepStats):
        self.step_stats = step_stats
        self._lock = threading.Lock()

    def record(self, stats: NodeExecStats) -> None:
        """Add one node's stats under its device."""
        with self._lock:
            self.step_stats.device(stats.device).node_stats.append(stats)


class RunOptions:
    """Options of one Session.run: trace_level (NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE)."""

    NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE = 0, 1, 2, 3

    def __init__(self, trace_level=0, timeout_in_ms=0, inter_op_thread_pool=0, output_partition_graphs=False):
        if trace_level not in (0, 1, 2, 3):
            raise ValueError(f"trace_level must be one of RunOptions.NO_TRACE..FULL_TRACE (0-3), got {trace_level!r}.")
        self.trace_level, self.timeout_in_ms = trace_level, timeout_in_ms
        self.inter_op_thread_pool, self.output_partition_graphs = inter_op_thread_pool, output_partition_graphs


class RunMetadata:
    """Filled by a traced Session.run: step_stats, and partition_graphs when asked for."""

    def __init__(self):
        self.step_stats = StepStats()
        self.partition_graphs: list = []


function_step_listeners: list = []  # callables given the StepStats of every placeflow.function call


class listen_to_function_steps:
    """While active, every placeflow.function call is traced and its StepStats passed to `listener`."""

    def __init__(self, listener):
        self._listener = listener

    def __enter__(self):
        function_step_listeners.append(self._listener)
        return self

    def __exit__(self, *exc):
        function_step_listeners.remove(self._listener)
        return False
