"""Record what real TensorFlow 2.21 computes for the multi-worker programs (2 workers on loopback, and one
process), into tf_2_21_multi_worker.json. Run with a Python that has tensorflow-cpu==2.21.0 (never part of
`make test`): `/path/to/tf-venv/bin/python tests/distribute/record_tf_multi_worker.py`."""

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import loopback  # noqa: E402

PROGRAMS = HERE / "multi_worker_programs.py"
RECORDED = ("linear", "input")


def run(program: str, workers: int) -> list:
    env = {k: v for k, v in os.environ.items() if k != "TF_CONFIG"}
    env.update(PROGRAM_LIBRARY="tensorflow", CUDA_VISIBLE_DEVICES="", TF_CPP_MIN_LOG_LEVEL="3", PYTHONUNBUFFERED="1")
    ports = loopback.free_ports(workers)
    processes = []
    for index in range(workers):
        worker_env = dict(env, TF_CONFIG=loopback.tf_config(ports, index)) if workers > 1 else env
        processes.append(subprocess.Popen([sys.executable, str(PROGRAMS), program], env=worker_env,
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    return [loopback.result(p, timeout=300) for p in processes]


if __name__ == "__main__":
    import tensorflow as tf
    recorded = {"tensorflow": tf.__version__}
    for program in RECORDED:
        recorded[program] = {"workers": run(program, 2), "alone": run(program, 1)[0]}
    (HERE / "tf_2_21_multi_worker.json").write_text(json.dumps(recorded, indent=1) + "\n")
    print(json.dumps(recorded)[:2000])
