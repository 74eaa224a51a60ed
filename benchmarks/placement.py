"""The cost-model placer against its baselines, by predicted step time, and its own speed.

    PYTHONPATH=src python3 benchmarks/placement.py

(a) For each benchmark graph (tests/placement_cost/graphs.py: a chain, wide branches, a 4-layer LSTM
    unrolled 32 steps, Inception-style blocks, a transformer layer stack, a model too large for one small
    GPU) on 1, 2, 4 and 8 simulated H100s (each with the host CPU: 1 GPU is the CPU+GPU case), the
    predicted step time of what the "cost_model" placer keeps, of each of its algorithms, and of the
    baselines (single device, round robin, layer by layer), with the lower bound. "single device" is what
    TensorFlow's simple placer does with these graphs: every op has a GPU kernel, so every op goes to GPU:0. The too-large model runs
    on GPUs of 64 MiB. Ratios: cost_model / best baseline (geometric mean per graph) and / single device.
(b) Wall time of the placer placing graphs of 100, 1,000 and 10,000 ops on 8 GPUs (the best of 3).

Times are predictions of placeflow.perf's models (H100 SXM datasheet numbers) and of placeflow's host cost per op
(runtime/step_clock.py HOST_SECONDS, measured on an H100 machine), not measurements; (a') repeats (a) with a host
that costs nothing, the regime where the devices bound the step.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

import placeflow as tf  # noqa: E402
from placeflow.config.context import context, reset_context  # noqa: E402
from placeflow.placement import cost_model_placer, schedulers  # noqa: E402
from tests.placement_cost import graphs  # noqa: E402

GPU_COUNTS = (1, 2, 4, 8)
BASELINES = tuple(schedulers.BASELINES)
ALGORITHMS = cost_model_placer.ALGORITHMS


def _context(gpus: int, memory: str = "80GiB") -> None:
    reset_context({"PLACEFLOW_DISABLE_CUDA": "1", "PLACEFLOW_SIMULATED_GPUS": f"{gpus}:{memory}:H100"})


def _graph(build) -> list:
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        build()
    return graph.get_operations()


def evaluate(name, build, gpus) -> dict:
    """Predicted step times (us) of every algorithm and baseline, what cost_model keeps, the lower bound."""
    _context(gpus, "64MiB" if name == "too large" else "80GiB")
    found, bound = cost_model_placer.evaluate(_graph(build), context(), ALGORITHMS + BASELINES)
    best_algorithm = min(found[a] for a in ALGORITHMS if a in found)
    kept = min(best_algorithm, found["single device"])   # the placer's rule: never worse than one device
    return {**{k: v * 1e6 for k, v in found.items()}, "cost_model": kept * 1e6, "lower bound": bound * 1e6}


def table_a() -> None:
    columns = ("cost_model",) + ALGORITHMS + BASELINES + ("lower bound",)
    print("(a) predicted step time, microseconds (H100 models; every configuration also has the host CPU)")
    print(f"{'graph':15} {'GPUs':>4} " + " ".join(f"{c[:14]:>14}" for c in columns) + "  vs best base  vs single")
    for name, build in graphs.GRAPHS.items():
        ratios = []
        for gpus in GPU_COUNTS:
            row = evaluate(name, build, gpus)
            best_base = min(row[b] for b in BASELINES)
            ratios.append(row["cost_model"] / best_base)
            cells = " ".join(f"{row[c]:14.1f}" if c in row else f"{'-':>14}" for c in columns)
            print(f"{name:15} {gpus:4d} {cells}  {ratios[-1]:11.3f}  {row['cost_model'] / row['single device']:9.3f}")
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"{name:15} geometric mean of cost_model / best baseline: {geomean:.3f}")


def _many_ops(count=10_000, width=16):
    """`count` ops: `width` chains of small matmul/add/tanh ops, crossing every few steps."""
    x = tf.compat.v1.placeholder(tf.float32, [64, 64], name="x")
    lanes = [x] * width
    made = 1
    while made < count:
        for k in range(width):
            other = lanes[(k + 1) % width]
            lanes[k] = tf.tanh(tf.matmul(lanes[k], other) + lanes[k])
        made += 3 * width
    return lanes


def table_b() -> None:
    _context(8)
    tf.config.experimental.set_placer("cost_model")
    print("\n(b) the placer's own wall time (best of 3), 8 GPUs + CPU")
    for count in (100, 1_000, 10_000):
        ops = _graph(lambda: _many_ops(count))
        best = math.inf
        for _ in range(3):
            placed: dict = {}
            start = time.perf_counter()
            cost_model_placer.place(ops, placed, context(), soft=True, log_placement=False)
            best = min(best, time.perf_counter() - start)
        run = tf.experimental.placement_report().placements[-1]
        print(f"{len(ops):>7} ops: {best:.3f} s; kept {run.algorithm}, predicted {run.predicted * 1e6:.0f} us, "
              f"lower bound {run.lower_bound * 1e6:.0f} us")


if __name__ == "__main__":
    from placeflow.runtime import step_clock
    table_a()
    print(f"\n(a') the same with a host that issues ops at no cost (placeflow's issues each op in "
          f"{step_clock.host_seconds('plan_op') * 1e6:.0f} us, one after another, which bounds every graph above "
          "by the host: a faster executor, or larger ops, would see this)")
    step_clock._host_costs = dict.fromkeys(step_clock.HOST_SECONDS, 0.0)
    table_a()
    step_clock._host_costs = None
    table_b()
