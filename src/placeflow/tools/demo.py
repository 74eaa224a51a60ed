"""`placeflow demo`: the seed walkthrough, each example in a fresh process (configuration freezes)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ..config import physical
from ..config.simulated import ENV_VAR

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
SECTIONS = [
    ("Device names", "device_names.py", {}),
    ("Two logical GPUs of 1024 MB on one GPU (seed 002; CUDA_VISIBLE_DEVICES=0)", "virtual_gpus.py",
     {"CUDA_VISIBLE_DEVICES": "0"}),
    ("Only the first GPU visible (seed 002)", "visible_devices.py", {}),
    ("Memory growth, and configuration frozen after initialization (seed 002)", "memory_growth.py", {}),
    ("Memory limits: 1024 MB logical GPUs refuse 1.5 GB, take 0.5 GB (seed 002)", "memory_limits.py",
     {"CUDA_VISIBLE_DEVICES": "0"}),
    ("A per-process memory fraction: config.gpu and GPUOptions (seeds 000, 001, 004)", "seed_memory_fraction.py",
     {}),
    ("Logging device placement: MatMul prefers GPU:0 (seeds 000, 002)", "seed_log_placement.py", {}),
    ("Constants pinned to the CPU, MatMul on the GPU, copies counted (seeds 000, 002)",
     "seed_manual_placement.py", {}),
    ("A GPU that does not exist, without and with soft placement (seeds 000, 002)", "seed_unknown_gpu.py", {}),
    ("Manual replication over GPUs, AddN on the CPU (seeds 000, 002)", "seed_manual_replication.py", {}),
    ("Ops without GPU kernels, and device functions (seeds 002, 003)", "seed_kernels_and_variables.py", {}),
    ("Use the GPU if one is available (seed 004)", "seed_gpu_if_available.py", {}),
    ("Graphs and Sessions: the Device mapping and each node's device (seed 001)", "session_log_placement.py", {}),
    ("A Session with constants on the CPU and MatMul on GPU:0 (seed 001)", "session_manual_placement.py", {}),
    ("A Session asking for GPU:2 on a two-GPU machine, then with soft placement (seed 001)",
     "session_unknown_gpu.py", {"PLACEFLOW_SIMULATED_GPUS": "2"}),
    ("Towers on GPU:2 and GPU:3, AddN on the CPU (seed 001)", "session_multi_tower.py",
     {"PLACEFLOW_SIMULATED_GPUS": "4"}),
    ("Session memory options: allow_growth, a 40% fraction (seeds 001, 003, 004)", "session_memory_options.py", {}),
    ("The simple placer: pins, device functions, soft placement (seed 003)", "session_simple_placer.py", {}),
    ("A graph on '/gpu:0' if available, fed through a placeholder (seed 004)", "session_gpu_if_available.py", {}),
    ("A Keras model under MirroredStrategy, one copy per GPU (seeds 000, 002)", "seed_mirrored_strategy.py", {}),
    ("Data-parallel training: the loss falls, the weights stay in sync", "data_parallel_training.py", {}),
]


def _environment(simulated_gpus: int) -> tuple[dict, str]:
    env = dict(os.environ)
    if env.get(ENV_VAR):
        return env, f"Using simulated GPUs, as {ENV_VAR}={env[ENV_VAR]} asks."
    infos, reason = physical.discover(env)
    if any(i.kind == "cuda" for i in infos):
        return env, f"Running on real GPUs: {reason}."
    env[ENV_VAR] = str(simulated_gpus)
    return env, (f"No usable CUDA GPU here ({reason}).\nUsing {simulated_gpus} SIMULATED GPUs "
                 f"({ENV_VAR}={simulated_gpus}): NumPy kernels, separate memory, GPU placement rules.")


def _banner(title: str) -> None:
    print(f"\n=== {title} " + "=" * max(3, 74 - len(title)))


def run_demo(simulated_gpus: int = 4) -> int:
    """Run every demo section; return a process exit code."""
    env, note = _environment(simulated_gpus)
    env["PYTHONUNBUFFERED"] = "1"  # keep printed values and placement lines in order
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[2]), env.get("PYTHONPATH")]))
    print("placeflow demo\n" + note)
    _banner("placeflow devices")
    subprocess.run([sys.executable, "-m", "placeflow", "devices"], env=env, check=False)
    failures = 0
    for title, script, extra_env in SECTIONS:
        _banner(title)
        settings = "".join(f"{k}={v} " for k, v in extra_env.items())
        print(f"$ {settings}python examples/{script}")
        sys.stdout.flush()
        result = subprocess.run([sys.executable, str(EXAMPLES / script)], env={**env, **extra_env}, check=False,
                                stderr=subprocess.STDOUT)
        failures += result.returncode != 0
    print(f"\n{len(SECTIONS) - failures} of {len(SECTIONS)} demo sections ran cleanly.")
    return 1 if failures else 0
