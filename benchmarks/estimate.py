"""How long an estimate takes: a ResNet-50 (Keras's own, 25.6M parameters) trained by `fit` under MirroredStrategy
on 4 modelled GPUs at global batch 64, estimated shape-only, against the same program run for real on simulated
GPUs (NumPy) in the same run. Each runs in its own process; wall time and the process's peak host memory.

    PYTHONPATH=src python3 benchmarks/estimate.py [--gpus 4:80GiB:H100] [--batch 64] [--steps 2] [--image 224]
        [--no-real]

Target (issue 29): the estimate in at most 20 s and 1 GiB of host memory on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")


def child(batch: int, steps: int, image: int) -> dict:
    """One run of the program in this process (estimating or not, as the environment says)."""
    start = time.perf_counter()
    import numpy as np
    import placeflow as tf
    keras = tf.keras
    replicas = len(tf.config.list_logical_devices("GPU"))
    strategy = tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(replicas)])
    with strategy.scope():
        model = keras.applications.ResNet50(weights=None, input_shape=(image, image, 3), classes=1000)
        model.compile(optimizer=keras.optimizers.SGD(0.01), loss="sparse_categorical_crossentropy")
    built = time.perf_counter()
    x = np.zeros((batch * steps, image, image, 3), np.float32)
    y = np.zeros(batch * steps, np.int32)
    model.fit(x, y, batch_size=batch, epochs=1, verbose=0)
    done = time.perf_counter()
    info = tf.config.experimental.get_memory_info("GPU:0")
    return {"params": int(model.count_params()), "build_s": built - start, "fit_s": done - built,
            "total_s": done - start, "gpu0_peak": info["peak"],
            "host_peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def run(env, args) -> dict:
    command = [sys.executable, __file__, "--child", "--batch", str(args.batch), "--steps", str(args.steps),
               "--image", str(args.image)]
    path = os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")]))
    done = subprocess.run(command, env=dict(os.environ, PYTHONPATH=path, PLACEFLOW_DISABLE_CUDA="1", **env),
                          capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"child failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gpus", default="4:80GiB:H100")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--image", type=int, default=224)
    parser.add_argument("--no-real", action="store_true", help="skip the real simulated run (minutes on 2 cores)")
    parser.add_argument("--child", action="store_true")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.batch, args.steps, args.image)))
        return
    rows = [("estimate (shape-only)", run({"PLACEFLOW_SIMULATED_GPUS": args.gpus, "PLACEFLOW_ESTIMATE": "1"}, args))]
    if not args.no_real:
        count, memory = args.gpus.split(":")[:2]
        rows.append(("real run, simulated GPUs", run({"PLACEFLOW_SIMULATED_GPUS": f"{count}:{memory}"}, args)))
    print(f"ResNet-50 ({rows[0][1]['params']:,} parameters), MirroredStrategy on {args.gpus}, global batch "
          f"{args.batch}, {args.steps} fit steps, {args.image}x{args.image} images, {os.cpu_count()} cores")
    print(f"{'run':26} {'build s':>8} {'fit s':>8} {'total s':>8} {'host peak MiB':>14} {'GPU:0 peak MiB':>15}")
    for name, row in rows:
        print(f"{name:26} {row['build_s']:8.2f} {row['fit_s']:8.2f} {row['total_s']:8.2f} {row['host_peak_mib']:14.0f} "
              f"{row['gpu0_peak'] / 2**20:15.1f}")
    if len(rows) == 2:
        print(f"estimate / real: wall time {rows[0][1]['total_s'] / rows[1][1]['total_s']:.3f}, GPU:0 peak "
              f"{rows[0][1]['gpu0_peak'] / rows[1][1]['gpu0_peak']:.4f}")


if __name__ == "__main__":
    main()
