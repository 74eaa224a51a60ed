"""placeflow.distribute.experimental: where a distributed step spends its time, and the multi-worker options
(CommunicationOptions, CommunicationImplementation, the older MultiWorkerMirroredStrategy signature).

`PhaseTimer` traces every placeflow.function step run while it is active and splits the busy time
of its nodes into compute, all-reduce (ops under the 'allreduce/' name scope) and copies
(`_Recv` nodes: inputs and gradients crossing devices). Times are summed over devices, so on
several devices they can add up to more than the step's wall time.
"""

from __future__ import annotations

import time

from ..graph.step_stats import listen_to_function_steps
from . import multi_worker
from .multi_worker import CollectiveCommunication, CommunicationImplementation, CommunicationOptions  # noqa: F401
from . import partitioners  # noqa: F401 - tf.distribute.experimental.partitioners
from .central_storage import CentralStorageStrategy  # noqa: F401
from .input_options import ValueContext  # noqa: F401
from .preemption import PreemptionCheckpointHandler, PreemptionWatcher, TerminationConfig  # noqa: F401

PHASES = ("compute", "all-reduce", "copies")


def phase_of(node) -> str:
    """'copies' for transfers, 'all-reduce' for ops under an allreduce scope, else 'compute'."""
    if node.op in ("_Recv", "_Send"):
        return "copies"
    if "allreduce/" in node.node_name or node.op in ("_NcclAllReduce", "CollectiveReduceV2"):
        return "all-reduce"
    return "compute"


class PhaseTimer:
    """Context manager: per-phase busy time of the traced steps run inside it (TensorFlow has no equivalent)."""

    def __init__(self):
        self.steps = 0
        self.totals_us = dict.fromkeys(PHASES, 0.0)
        self.wall_s = 0.0
        self._listen = listen_to_function_steps(self._add)

    def _add(self, stats) -> None:
        self.steps += 1
        for node in stats.all_nodes():
            self.totals_us[phase_of(node)] += node.all_end_rel_micros

    def __enter__(self):
        self._start = time.perf_counter()
        self._listen.__enter__()
        return self

    def __exit__(self, *exc):
        self._listen.__exit__(*exc)
        self.wall_s += time.perf_counter() - self._start
        return False

    def per_step_ms(self) -> dict:
        """{phase: busy milliseconds per step}."""
        steps = max(self.steps, 1)
        return {phase: total / 1000.0 / steps for phase, total in self.totals_us.items()}

    def summary(self) -> str:
        """One line: steps, and busy ms per step for each phase."""
        parts = ", ".join(f"{phase} {ms:.3f} ms" for phase, ms in self.per_step_ms().items())
        return f"{self.steps} steps; per step: {parts}"


class CollectiveHints:
    """Deprecated tf.distribute.experimental.CollectiveHints: makes the equivalent CommunicationOptions."""

    def __new__(cls, bytes_per_pack=0, timeout_seconds=None):
        if bytes_per_pack < 0:
            raise ValueError(f"Argument `bytes_per_pack` must be >=0, Received {bytes_per_pack}. Use 0 to let the "
                             "strategy choose.")
        return CommunicationOptions(bytes_per_pack=bytes_per_pack, timeout_seconds=timeout_seconds or None,
                                    implementation=CommunicationImplementation.AUTO)  # a timeout of 0: none



class MultiWorkerMirroredStrategy(multi_worker.MultiWorkerMirroredStrategy):
    """tf.distribute.experimental.MultiWorkerMirroredStrategy: the older signature with `communication`."""

    def __init__(self, communication=CommunicationImplementation.AUTO, cluster_resolver=None,
                 communication_options=None):
        options = CommunicationOptions(implementation=communication).merge(communication_options)
        super().__init__(cluster_resolver=cluster_resolver, communication_options=options)
