"""The placement report: where ops ran and why, and the bytes copied between devices."""

from __future__ import annotations

import threading
from collections import defaultdict

_lock = threading.Lock()
_decisions: list = []     # every Decision ever made; each counts its own executions
_plans: list = []         # a PlanRecord per graph plan (function or Session): its ops, counted per step
_copies: dict = defaultdict(lambda: [0, 0])  # (src, dst) -> [count, bytes]
_placer_runs: list = []   # a PlacerRun per placement made by a placer other than "simple"


def remember(decision) -> None:
    """Keep a new placement decision for the report."""
    with _lock:
        _decisions.append(decision)


class PlanRecord:
    """The placed ops of one plan, as (op, device name, reason, detail) rows, and how often it ran."""

    __slots__ = ("rows", "runs", "_lock")

    def __init__(self, rows):
        self.rows, self.runs, self._lock = rows, 0, threading.Lock()

    def ran(self) -> None:
        """Count one step of the plan."""
        with self._lock:
            self.runs += 1


def remember_plan(rows: list) -> PlanRecord:
    """Keep a new plan's placed ops for the report; the plan counts its steps on the returned record."""
    record = PlanRecord(rows)
    with _lock:
        _plans.append(record)
    return record


class PlacerRun:
    """One placement by a planning placer: which algorithm won, its predicted step time, the lower bound,
    every algorithm's prediction, the placer's wall time, and (op, type, device, reason, detail) rows."""

    __slots__ = ("placer", "algorithm", "predicted", "lower_bound", "candidates", "assumed", "wall", "rows")

    def __init__(self, placer, algorithm, predicted, lower_bound, candidates, assumed):
        self.placer, self.algorithm, self.predicted, self.lower_bound = placer, algorithm, predicted, lower_bound
        self.candidates, self.assumed, self.wall, self.rows = candidates, assumed, 0.0, []

    def __str__(self) -> str:
        head = (f"  {self.placer} placer: {self.algorithm}, predicted step {self.predicted * 1e6:.1f} us, lower "
                f"bound {self.lower_bound * 1e6:.1f} us, placed {len(self.rows)} ops in {self.wall * 1e3:.1f} ms")
        tried = ", ".join(f"{name} {t * 1e6:.1f} us" for name, t in self.candidates.items())
        lines = [head, f"    tried: {tried}"]
        if self.assumed:
            lines.append("    no performance model (preset assumed): "
                         + ", ".join(f"{d}={m}" for d, m in self.assumed.items()))
        lines += [f"    {name:24} {_short(device):8} {reason}" + (f": {detail}" if detail else "")
                  for name, _type, device, reason, detail in self.rows]
        return "\n".join(lines)


def remember_placer_run(run: PlacerRun) -> None:
    """Keep a planning placer's record of one placement for the report."""
    with _lock:
        _placer_runs.append(run)


def count_copy(src: str, dst: str, nbytes: int) -> None:
    """Record one copy of `nbytes` from device `src` to device `dst`."""
    with _lock:
        entry = _copies[(src, dst)]
        entry[0] += 1
        entry[1] += nbytes


def reset() -> None:
    """Forget every count (decisions stay cached, their counts restart at zero)."""
    with _lock:
        for decision in _decisions:
            decision.count = 0
        for record in _plans:
            record.runs = 0
        _copies.clear()
        _placer_runs.clear()


class PlacementReport:
    """Op counts per (op, device, reason) and copies per (source, destination)."""

    def __init__(self, ops: list, copies: list, placements: list = ()):
        self.ops = ops          # dicts: op, device, reason, detail, count
        self.copies = copies    # dicts: source, destination, count, bytes
        self.placements = list(placements)   # PlacerRun of each placement by a planning placer

    def __str__(self) -> str:
        lines = ["Placement report", f"  {'OP':24} {'DEVICE':8} {'COUNT':>7}  WHY"]
        for row in self.ops:
            lines.append(f"  {row['op']:24} {row['device']:8} {row['count']:7d}  {row['reason']}"
                         + (f": {row['detail']}" if row["detail"] else ""))
        lines.append(f"  {'COPY':33} {'COUNT':>7}  BYTES")
        for row in self.copies:
            lines.append(f"  {row['source'] + ' -> ' + row['destination']:33} {row['count']:7d}  {row['bytes']}")
        if not self.copies:
            lines.append("  (no copies between devices)")
        lines += [str(run) for run in self.placements]
        return "\n".join(lines)

    __repr__ = __str__


def _short(name: str) -> str:
    """'CPU:0' for this process's devices; '/job:worker/task:1/CPU:0' for another task's."""
    head, _, device = name.rpartition("/device:")
    if head.startswith("/job:") and not head.startswith("/job:localhost/"):
        job, _, rest = head[len("/job:"):].partition("/")
        return f"/job:{job}/task:{rest.rpartition('task:')[2]}/{device}"
    return device


def placement_report() -> PlacementReport:
    """A snapshot of where ops ran and why, and of the copies between devices."""
    merged: dict = defaultdict(int)
    with _lock:
        for d in _decisions:
            if d.count:
                merged[(d.op, _short(d.device.name), d.reason, d.detail)] += d.count
        for record in _plans:
            if record.runs:
                for op, device, reason, detail in record.rows:
                    merged[(op, _short(device), reason, detail)] += record.runs
        copies = [{"source": _short(s), "destination": _short(t), "count": c, "bytes": b}
                  for (s, t), (c, b) in sorted(_copies.items())]
        placements = list(_placer_runs)
    ops = [{"op": op, "device": dev, "reason": reason, "detail": detail, "count": count}
           for (op, dev, reason, detail), count in sorted(merged.items())]
    return PlacementReport(ops, copies, placements)
