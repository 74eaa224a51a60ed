"""The graph pipeline, one owner for Session steps, `function` traces and control-flow bodies:

    place   every op on a device (the current placer: placement/placers.py; TensorFlow's by default)
    prune   to the ops the fetches and the stateful ops need, stopping at fed tensors
    plan    nodes in order, constants folded, cross-device copies, remote segments (partition.py)
    order   and liveness, when a runner compiles the plan (schedule.py, liveness.py)
    run     inline, per-device programs or the dataflow runner, on the devices' lanes (executor.py)

Session, ConcreteFunction and loop or branch bodies call these three functions and nothing below them.
"""

from __future__ import annotations

import threading

from ..eager import execute as _eager_execute
from ..placement import placers
from ..runtime import step_clock
from . import executor, intra_op, lanes, partition
from .graph import Tensor


_running = threading.local()  # per thread: how many parallel plan runs it is inside


def place(operations, placed: dict, ctx, soft: bool, log_placement: bool, reasons: dict | None = None) -> dict:
    """Assign a device to every operation not in `placed` (kept across calls); `reasons` gets the placer's
    reason per op for the placement report."""
    return placers.place(operations, placed, ctx, soft, log_placement, reasons)


def plan(fetches, feeds, placed: dict, targets=(), store=None, reasons=None):
    """The Plan computing `fetches` (tensors or operations) and running `targets` (operations) from `feeds`."""
    fetch_ops = [f.op if isinstance(f, Tensor) else f for f in fetches] + list(targets)
    operations = partition.needed_ops(fetch_ops, {t.op for t in feeds})
    return partition.build_plan(operations, placed, fetches, feeds, store, reasons)


def run(plan, feed_values, inter_threads: int, intra_threads: int, collector=None, own_lanes=None) -> list:
    """One step of `plan`: in the caller's thread when it has no parallel work (or `inter_threads` < 0, as
    TensorFlow's negative inter-op count), else on the devices' lanes with BLAS threads shared out."""
    if _eager_execute.numerics_check is not None:
        raise NotImplementedError("tf.debugging.enable_check_numerics covers eager ops only in placeflow: a "
                                  "placeflow.function, Session step or graph loop cannot run while it is on. Call "
                                  "placeflow.debugging.disable_check_numerics() first, or run functions eagerly "
                                  "(placeflow.config.run_functions_eagerly(True)).")
    if plan.nodes and plan.nodes[0].device.estimating and not lanes.in_worker():   # a top-level step of shape-only estimation: its modelled time
        step_clock.begin_step(plan_call=True)
        try:
            with step_clock.in_plan():
                return _run(plan, feed_values, inter_threads, intra_threads, collector, own_lanes)
        finally:
            step_clock.end_step()
    return _run(plan, feed_values, inter_threads, intra_threads, collector, own_lanes)


def _run(plan, feed_values, inter_threads, intra_threads, collector, own_lanes) -> list:
    if not plan.parallel or inter_threads < 0:
        if inter_threads < 0 and plan.parallel:
            plan.parallel = False
        if plan.one_blas_thread and intra_threads <= 0:
            with intra_op.one_blas_thread():
                return executor.run(plan, feed_values, None, collector)
        return executor.run(plan, feed_values, None, collector)
    if plan.devices is None:
        plan.devices = list({n.device.name: n.device for n in plan.nodes}.values())
    nested = getattr(_running, "depth", 0) > 0 or lanes.in_worker()  # e.g. a loop body run by an outer step
    pools = lanes.lanes_for(plan.devices, inter_threads, lanes.private_pools() if nested else own_lanes)
    _running.depth = getattr(_running, "depth", 0) + 1
    try:
        with intra_op.limited_for(plan.width, intra_threads):
            return executor.run(plan, feed_values, pools, collector, lanes.worker_budget(inter_threads))
    finally:
        _running.depth -= 1
