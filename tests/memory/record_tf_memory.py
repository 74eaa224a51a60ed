"""Record TensorFlow 2.21's own memory figures for every program in memory_programs.py into tf_2_21_memory.json.

Run it in a scratch virtual environment that has TensorFlow (never a dependency of placeflow):
    python3 -m venv /tmp/placeflow-tf-venv && /tmp/placeflow-tf-venv/bin/pip install tensorflow-cpu==2.21.0
    /tmp/placeflow-tf-venv/bin/python tests/memory/record_tf_memory.py          (a few minutes on 2 cores)
Then compare placeflow's figures (the current tree, simulated GPUs) with the recording:
    python3 tests/memory/memory_programs.py compare

Each program runs in a fresh subprocess (so allocator states never mix) with TF_CPU_ALLOCATOR_USE_BFC=true
(TensorFlow's CPU allocator becomes a BFC allocator, whose statistics get_memory_info('CPU:0') reads) and
TF_CPP_MIN_LOG_LEVEL=3, and is measured by memory_programs.measure: two warm-up steps, then one step whose
peak above the resident bytes, bytes held with its result, and bytes left after dropping it are recorded.

Each program runs REPEATS times with TensorFlow's defaults (oneDNN on, as TF ships on x86-64 Linux) into
"programs", and REPEATS times with TF_ENABLE_ONEDNN_OPTS=0 (plain Eigen kernels) into "programs_onednn_off".
A program's figures are the medians over its runs (each figure on its own); `<figure>_runs` lists every run's
value, because TF's figures can move between runs: its executor runs independent ops on several threads, and
its BFC allocator counts a whole chunk as in use when it does not split it (a chunk under twice the request is
handed out whole), so which free chunk a request lands in changes `current` and `peak` by up to that chunk.
"""

import json
import os
import pathlib
import platform
import statistics
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, str(pathlib.Path(__file__).parent))

import memory_programs  # noqa: E402

REPEATS = 5
VARIANTS = {"programs": {}, "programs_onednn_off": {"TF_ENABLE_ONEDNN_OPTS": "0"}}


def merge(runs: list) -> dict:
    """Each figure's median over the runs, with `<figure>_runs` listing each run's value (per device where
    there are several)."""
    first = runs[0]
    if "peak_above_resident" not in first:  # {device: figures}
        return {device: merge([run[device] for run in runs]) for device in first}
    merged = {}
    for key in first:
        values = [run[key] for run in runs]
        merged[key] = int(statistics.median_low(values))
        if key != "result_bytes":
            merged[f"{key}_runs"] = values
    return merged


def main() -> None:
    import tensorflow as tf  # only for its version; each program runs in its own process
    if not tf.__version__.startswith("2.21."):
        print(f"warning: recording TensorFlow {tf.__version__} into a file named for 2.21", file=sys.stderr)
    recording = {
        "tensorflow": tf.__version__,
        "device": "CPU:0",
        "environment": {"TF_CPU_ALLOCATOR_USE_BFC": "true", "TF_CPP_MIN_LOG_LEVEL": "3",
                        "machine": platform.machine(), "cpu_count": os.cpu_count(), "repeats": REPEATS},
        "notes": {
            "units": "bytes; every figure but `resident` is relative to `resident`, the bytes in use before "
                     "the measured step; each is the median_low of the runs listed in `<figure>_runs`",
            "chunks": "TF's BFC counts the whole chunk a request gets (it splits a free chunk only when the chunk "
                      "is at least twice the rounded request), so in-use figures include that slack and can differ "
                      "by up to a chunk between runs. In adam_step_function the bytes in use between steps move by "
                      "1-3 MiB from step to step (14.0 to 17.0 MiB over 7 steps in one process), so its "
                      "`left_after_step` can be negative.",
            "resident": "`resident` varies between fresh processes for programs whose inputs are tf.constant(NumPy) "
                        "(matmul_chain_function: 24-32 MiB for 36 MiB of constants): some of those conversions did "
                        "not show in the BFC's `current`; the step figures are unaffected.",
            "mirrored_step": "2 logical CPUs made with set_logical_device_configuration share the one process-wide "
                             "CPU allocator, so get_memory_info('CPU:0') and ('CPU:1') both report the total of "
                             "both replicas (identical numbers), not each replica's share; the step's local "
                             "results both report device CPU:0, so result_bytes is counted under CPU:0 only.",
            "cnn_step_function": "TF's CPU Conv2D and its backprop kernels allocate scratch (im2col / oneDNN "
                                 "buffers) through the allocator; with oneDNN off the Eigen path's scratch is "
                                 "much larger.",
            "session_train_step": "`resident` (168169472) is twice the variables' 84082728 bytes: inferred to be "
                                  "the variables plus the Const ops holding their initial values (a Const kernel "
                                  "keeps its tensor).",
        },
    }
    for variant, extra in VARIANTS.items():
        recording[variant] = {}
        for name in memory_programs.PROGRAMS:
            runs = [memory_programs.run_fresh(name, "tensorflow", extra_env=extra) for _ in range(REPEATS)]
            recording[variant][name] = merge(runs)
            print(f"{variant:20} {name:28} {json.dumps(recording[variant][name], sort_keys=True)}", flush=True)
    path = pathlib.Path(__file__).with_name("tf_2_21_memory.json")
    path.write_text(json.dumps(recording, indent=1, sort_keys=True) + "\n")
    print(f"recorded {len(memory_programs.PROGRAMS)} programs from TensorFlow {tf.__version__} into {path}")


if __name__ == "__main__":
    main()
