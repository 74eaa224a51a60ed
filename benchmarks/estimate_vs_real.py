"""Shape-only estimates against real runs, in the same process: each program of the memory suite (tests/memory)
and a Keras MLP `fit` step, estimated (PLACEFLOW_ESTIMATE, a modelled GPU) and then run for real (the CUDA GPU
when there is one, else a simulated GPU), comparing the peak above resident and the step time.

    PYTHONPATH=src:. python3 benchmarks/estimate_vs_real.py [--model H100] [--steps 10] [--programs a,b]

The estimate's step time is the performance model's (placeflow/perf); the real one is the median wall time of
`--steps` steps, synchronised (on a simulated GPU it is NumPy's time, which the model does not predict).
Targets (issue 29, on a lent GPU): peaks within 10% and step times within 25%. With --measured, the real run also
records its op times (PLACEFLOW_RECORD_OP_TIMES) and a third estimate takes them instead of the model's.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

import placeflow as tf  # noqa: E402
from placeflow.config.context import reset_context  # noqa: E402
from placeflow.runtime import step_clock  # noqa: E402
from placeflow.runtime.shape_only import is_shape_only  # noqa: E402
from tests.memory import memory_programs  # noqa: E402


def keras_fit_program(tf):
    """Keras Sequential 1024-4096-4096-10 (relu), Adam, batch 256: one train step as fit runs it."""
    keras = tf.keras
    import numpy as np
    model = keras.Sequential([keras.Input((1024,)), keras.layers.Dense(4096, activation="relu"),
                              keras.layers.Dense(4096, activation="relu"), keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = np.random.RandomState(0).rand(256, 1024).astype(np.float32)
    y = np.zeros(256, np.int32)
    iterator = iter(tf.data.Dataset.from_tensors((x, y)).repeat())
    model.make_train_function()
    return lambda: model.train_function(iterator)


PROGRAMS = {**{name: make for name, make in memory_programs.PROGRAMS.items() if name != "mirrored_step"},
            "keras_mlp_fit_step": keras_fit_program}


def _sync(result):
    """Wait for the step's kernels: CUDA's synchronize on a GPU (no copy of the result to the host)."""
    from placeflow.framework.nest import flatten
    for leaf in flatten(result, expand_composites=True):
        value = getattr(leaf, "_value", None)
        if value is not None and not is_shape_only(value) and not isinstance(value, np.ndarray):
            import cupy
            cupy.cuda.Device().synchronize()
            return


def run(name, env, steps, estimating):
    reset_context(env)
    step = PROGRAMS[name](tf)
    info = tf.config.experimental.get_memory_info
    for _ in range(2):
        _sync(step())
    gc.collect()
    resident = info("GPU:0")["current"]
    tf.config.experimental.reset_memory_stats("GPU:0")
    times = []
    for _ in range(1 if estimating else steps):
        step_clock.reset()
        start = time.perf_counter()
        step_clock.begin_step()
        result = step()
        if not estimating:
            _sync(result)
        step_clock.end_step()
        times.append(time.perf_counter() - start)
        del result
    peak = info("GPU:0")["peak"] - resident
    seconds = step_clock.summary()["steps"][-1] if estimating else statistics.median(times)
    del step
    gc.collect()
    return peak, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="H100")
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--programs", default=None)
    parser.add_argument("--measured", action="store_true",
                        help="also estimate with the op times the real run measured (PLACEFLOW_OP_TIMES)")
    args = parser.parse_args()
    from placeflow.config.cuda_probe import probe_cuda
    cuda = bool(probe_cuda(os.environ).gpus)
    base = {k: v for k, v in os.environ.items() if k not in ("PLACEFLOW_SIMULATED_GPUS", "PLACEFLOW_ESTIMATE",
                                                              "PLACEFLOW_DISABLE_CUDA")}
    real_env = dict(base) if cuda else dict(base, PLACEFLOW_SIMULATED_GPUS="1:80GiB", PLACEFLOW_DISABLE_CUDA="1")
    estimate_env = dict(base, PLACEFLOW_SIMULATED_GPUS=f"1:80GiB:{args.model}", PLACEFLOW_ESTIMATE="1",
                        PLACEFLOW_DISABLE_CUDA="1")
    names = args.programs.split(",") if args.programs else sorted(PROGRAMS)
    print(f"real runs on {'the CUDA GPU' if cuda else 'a simulated GPU (NumPy: its step times are not a GPU model)'}"
          f"; estimates on a simulated {args.model}")
    extra = f" {'measured-op step ratio':>22}" if args.measured else ""
    print(f"{'program':28} {'est. peak MiB':>13} {'real peak MiB':>13} {'peak ratio':>10} {'est. step ms':>12} "
          f"{'real step ms':>12} {'step ratio':>10}{extra}")
    import tempfile
    from placeflow.runtime import op_times
    folder = tempfile.mkdtemp()
    for name in names:
        est_peak, est_s = run(name, estimate_env, args.steps, True)
        times = os.path.join(folder, f"{name}.json")
        real_peak, real_s = run(name, real_env, args.steps, False)
        cells = ""
        if args.measured:   # a second real run records op times (timing each op costs it its forwarding)
            op_times.reset()
            run(name, dict(real_env, PLACEFLOW_RECORD_OP_TIMES=times), 3, False)
            op_times.save(times)
            _, measured_s = run(name, dict(estimate_env, PLACEFLOW_OP_TIMES=times), args.steps, True)
            cells = f" {measured_s / real_s:22.3f}"
        print(f"{name:28} {est_peak / 2**20:13.2f} {real_peak / 2**20:13.2f} {est_peak / max(real_peak, 1):10.3f} "
              f"{est_s * 1e3:12.3f} {real_s * 1e3:12.3f} {est_s / real_s:10.3f}{cells}", flush=True)


if __name__ == "__main__":
    main()
