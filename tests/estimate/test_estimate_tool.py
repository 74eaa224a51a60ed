"""`placeflow estimate` and its Python API: peaks, the first OOM, the largest batch that fits and the memory plot,
each checked against the same program run for real on simulated GPUs."""

import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

import placeflow as tf
from placeflow.tools import estimate as estimate_tool

from ..memory import memory_programs

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "src")


def _real_peak(make_context, gpus, build, steps):
    make_context(PLACEFLOW_SIMULATED_GPUS=gpus)
    step = build()
    for _ in range(steps):
        step()
    return tf.config.experimental.get_memory_info("GPU:0")["peak"]


def test_the_api_predicts_the_real_runs_peak_and_models_a_step(make_context):
    build = lambda: memory_programs.program_mlp_train_step_function(tf)  # noqa: E731
    real = _real_peak(make_context, "1", build, 3)
    result = estimate_tool.estimate(build, gpus="1:4GiB:H100", steps=3)
    assert result.fits and result.devices[0].peak == real
    assert result.devices[0].limit == 4 << 30
    assert len(result.step_seconds) == 3 and result.step_seconds[-1] > 0
    assert set(result.step_phases) == {"compute", "copies", "all-reduce"}
    biggest = result.devices[0].at_peak[0]
    assert biggest["bytes"] == 4096 * 4096 * 4 and biggest["shape"] == [4096, 4096]


def test_the_first_oom_names_the_op_the_device_and_the_bytes(make_context):
    build = lambda: memory_programs.program_mlp_train_step_function(tf)  # noqa: E731
    make_context(PLACEFLOW_SIMULATED_GPUS="1:150MiB")
    with pytest.raises(tf.errors.ResourceExhaustedError) as real:
        _real_peak(make_context, "1:150MiB", build, 3)
    result = estimate_tool.estimate(build, gpus="1:150MiB", steps=3)
    assert not result.fits
    oom = result.first_oom
    assert oom["device"].endswith("GPU:0") and oom["bytes_asked"] > oom["bytes_free"]
    assert oom["name"] in real.value.message


SCRIPT = textwrap.dedent("""
    import os
    import numpy as np
    import tensorflow as tf
    batch = int(os.environ["PLACEFLOW_BATCH"]) if "PLACEFLOW_BATCH" in os.environ else 64
    model = tf.keras.Sequential([tf.keras.Input((512,)), tf.keras.layers.Dense(2048, activation="relu"),
                                 tf.keras.layers.Dense(10)])
    model.compile(optimizer="sgd", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x, y = np.ones((batch * 2, 512), np.float32), np.zeros(batch * 2, np.int32)
    model.fit(x, y, batch_size=batch, epochs=1, verbose=0)
    print("peak", tf.config.experimental.get_memory_info("GPU:0")["peak"])
""")


def _run(args, env):
    return subprocess.run([sys.executable, "-m", "placeflow", *args], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=SRC, PLACEFLOW_DISABLE_CUDA="1", **env))


def test_the_cli_sweeps_batches_and_finds_the_largest_that_fits_as_a_real_run_does(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    plot = tmp_path / "memory.png"
    swept = _run(["estimate", "--gpus", "1:40MiB:T4", "--batch-sweep", "256,1024,4096", "--plot", str(plot),
                  str(script)], {})
    assert swept.returncode == 0, swept.stderr
    real = {batch: _run(["run", str(script)], {"PLACEFLOW_SIMULATED_GPUS": "1:40MiB", "PLACEFLOW_BATCH": str(batch)})
            for batch in (256, 1024, 4096)}
    fits = [batch for batch, done in real.items() if done.returncode == 0]
    assert fits and len(fits) < 3, {b: d.stderr[-300:] for b, d in real.items()}
    assert f"largest batch that fits: {max(fits)}" in swept.stdout, swept.stdout
    from PIL import Image
    with Image.open(plot) as image:
        assert image.format == "PNG" and image.size[0] > 100


def test_a_single_estimate_prints_peak_live_tensors_and_step_time(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    done = _run(["estimate", "--gpus", "1:1GiB:A100-80GB", str(script)], {})
    assert done.returncode == 0, done.stderr
    real = _run(["run", str(script)], {"PLACEFLOW_SIMULATED_GPUS": "1:1GiB"})
    real_peak = int(real.stdout.split("peak")[-1])
    assert "GPU:0: peak" in done.stdout and "made by" in done.stdout and "predicted step:" in done.stdout
    shown = done.stdout.splitlines()[0].split(": peak ")[1].split(" of ")[0]   # e.g. '8.8 MiB'
    value, unit = shown.split()
    estimated = float(value) * {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[unit]
    # Keras's input pipeline runs on its own thread: the real run's peak varies by about 1% from run to run
    assert estimated == pytest.approx(real_peak, rel=0.03), (done.stdout, real_peak)


def test_bad_sweeps_are_refused():
    with pytest.raises(SystemExit, match="expected comma-separated whole numbers"):
        estimate_tool._batches("32,big")
    with pytest.raises(SystemExit, match="expected positive batch sizes"):
        estimate_tool._batches("0")


def _keras_mirrored(replicas):
    def build():
        import numpy as np
        keras = tf.keras
        tf.config.threading.set_inter_op_parallelism_threads(-1)   # steps in the caller's thread: one order
        devices = [f"/gpu:{i}" for i in range(replicas)]
        strategy = tf.distribute.MirroredStrategy(devices)
        with strategy.scope():
            model = keras.Sequential([keras.Input((256,)), keras.layers.Dense(1024, activation="relu"),
                                      keras.layers.Dense(10)])
            model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        x, y = np.ones((128 * replicas * 2, 256), np.float32), np.zeros(128 * replicas * 2, np.int32)
        return lambda: model.fit(x, y, batch_size=128 * replicas, epochs=1, verbose=0)
    return build


@pytest.mark.parametrize("replicas", [2, 4])
def test_keras_fit_under_mirrored_strategy_peaks_on_every_replica_as_the_real_run(make_context, replicas):
    """Steps run in the caller's thread (inter-op threads -1) and the input pipeline too (tf.data's debug mode):
    every replica peaks exactly as the real run. Without debug mode the pipeline's worker copies each replica's
    batch to its device in its own order: real runs' peaks then moved between 8.23 and 9.33 MB on GPU:0 on a loaded
    machine, while the estimate fills the prefetch buffer in the caller's thread, the same every run (8.35 MB).
    With a thread per device program, real runs' peaks vary more still (9.0 to 10.9 MB on GPU:0)."""
    build = _keras_mirrored(replicas)
    make_context(PLACEFLOW_SIMULATED_GPUS=str(replicas))
    tf.data.experimental.enable_debug_mode()
    step = build()
    for _ in range(2):
        step()
    real = [tf.config.experimental.get_memory_info(f"GPU:{i}")["peak"] for i in range(replicas)]
    result = estimate_tool.estimate(build, gpus=f"{replicas}:4GiB:H100", steps=2)
    assert result.fits and [device.peak for device in result.devices] == real
    assert result.step_phases["all-reduce"] > 0 and result.step_phases["compute"] > result.step_phases["all-reduce"]


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs torch.distributed (gloo): `distributed`")
def test_multi_worker_mirrored_strategy_on_two_workers_peaks_as_the_real_cluster():
    from ..distribute import loopback
    script = loopback.HERE / "multi_worker_programs.py"
    real = loopback.run_cluster(script, "memory", PLACEFLOW_SIMULATED_GPUS="1")
    estimated = loopback.run_cluster(script, "memory", PLACEFLOW_SIMULATED_GPUS="1:1GiB:A100-40GB",
                                     PLACEFLOW_ESTIMATE="1")
    assert [w["peak"] for w in estimated] == [w["peak"] for w in real] and real[0]["peak"] > 8 << 20


def test_a_real_run_records_op_times_and_an_estimate_takes_them_instead_of_the_model(make_context, tmp_path):
    import json
    from placeflow.runtime import op_times, step_clock
    times = tmp_path / "times.json"
    build = lambda: memory_programs.program_matmul_chain_function(tf)  # noqa: E731
    make_context(PLACEFLOW_SIMULATED_GPUS="1", PLACEFLOW_RECORD_OP_TIMES=str(times))
    step = build()
    for _ in range(3):
        step()
    op_times.save(str(times))          # (also written when the process exits)
    recorded = json.loads(times.read_text())["op_times"]
    matmul = "MatMul|GPU|float32[1024, 1024];float32[1024, 1024]"
    assert recorded[matmul]["calls"] == 24 and recorded[matmul]["seconds"] > 0
    recorded[matmul]["seconds"] = 0.024   # 1 ms a MatMul: the estimate must take it
    times.write_text(json.dumps({"op_times": recorded}))
    result = estimate_tool.estimate(build, gpus="1:4GiB:H100", steps=2, environ={"PLACEFLOW_OP_TIMES": str(times)})
    issue = step_clock.host_seconds("plan_call")
    assert result.step_seconds[-1] == pytest.approx(8 * 0.001 + issue, rel=1e-6)
    op_times.reset()


def test_a_file_that_is_not_op_times_is_refused(make_context, tmp_path):
    from placeflow.runtime import op_times
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    make_context(PLACEFLOW_SIMULATED_GPUS="1:1GiB:H100", PLACEFLOW_ESTIMATE="1", PLACEFLOW_OP_TIMES=str(bad))
    with pytest.raises(ValueError, match="is not a file of measured op times"):
        tf.random.normal([64, 64]) @ tf.random.normal([64, 64])
    op_times.reset()


def test_a_float32_matmul_is_modelled_at_the_fp32_rate_whatever_tf32_records(make_context):
    """placeflow's kernels compute float32 in float32 (CuPy's default, no TF32): a 4096^3 float32 matmul on a
    modelled H100 takes 2 * 4096^3 / 66.9 TFLOP/s = 2.05 ms, with TF32 recorded on (TF's default) or off."""
    def build(tf32):
        def program():
            tf.config.experimental.enable_tensor_float_32_execution(tf32)
            x = tf.random.normal([4096, 4096])
            return tf.function(lambda: x @ x)
        return program
    for tf32 in (True, False):
        step = estimate_tool.estimate(build(tf32), gpus="1:80GiB:H100", steps=2).step_seconds[-1]
        assert step == pytest.approx(2 * 4096 ** 3 / 66.9e12, rel=0.05), (tf32, step)


def test_a_step_count_below_one_is_refused():
    with pytest.raises(ValueError, match="expected a whole number of steps >= 1"):
        estimate_tool.estimate(lambda: (lambda: None), steps=0)
