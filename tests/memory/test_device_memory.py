"""Device memory end to end on simulated GPUs: limits, growth, stats, out of memory, release, fractions."""

import gc
import re
import threading

import numpy as np
import pytest

import placeflow as tf
from placeflow.config.context import context
from placeflow.runtime import registry

from ..helpers import run_python
from .test_bfc import check_invariants

MIB = 1 << 20
experimental = tf.config.experimental


def split_gpu(make_context, limits=(1024, 1024), gpus="1"):
    make_context(PLACEFLOW_SIMULATED_GPUS=gpus)
    gpu = tf.config.list_physical_devices("GPU")[0]
    tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=m)
                                                     for m in limits])


def allocator(name):
    return experimental.memory_stats(name)


def test_two_1024_mb_logical_gpus_refuse_1_5_gb_and_accept_0_5_gb(make_context):
    split_gpu(make_context)
    for name in ("GPU:0", "GPU:1"):
        with tf.device(name):
            with pytest.raises(tf.errors.ResourceExhaustedError) as caught:
                tf.zeros([384, 1024, 1024])  # 1.5 GiB of float32
            half = tf.zeros([128, 1024, 1024])  # 0.5 GiB
        assert half.device.endswith(name)
        assert experimental.get_memory_info(name) == {"current": 512 * MIB, "peak": 512 * MIB}
        index = name[-1]
        assert str(caught.value).splitlines()[0] == (
            f"OOM when allocating tensor with shape[384,1024,1024] and type float on "
            f"/job:localhost/replica:0/task:0/device:GPU:{index} by allocator GPU_{index}_bfc [Op:Fill] name: ")
        del half


def test_the_oom_message_summarizes_and_hints(make_context):
    split_gpu(make_context, limits=(64,))
    with tf.device("/GPU:0"):
        held = tf.zeros([40, MIB // 4])  # 40 MiB
        with pytest.raises(tf.errors.ResourceExhaustedError) as caught:
            tf.ones([30, MIB // 4])
    first, summary, hint = str(caught.value).splitlines()
    assert first.endswith("by allocator GPU_0_bfc [Op:Fill] name: ")
    assert summary == ("placeflow: GPU_0_bfc could not find 30.00MiB (rounded to 31457280): 64.00MiB in use of a "
                       "64.00MiB limit (64.00MiB reserved, largest free chunk 0B).")
    assert hint.startswith("Hint: live tensors hold the memory. Drop references")
    assert held.shape == [40, MIB // 4]


def test_an_oom_leaks_nothing_and_the_device_keeps_working(make_context):
    split_gpu(make_context, limits=(16,))
    with tf.device("/GPU:0"):
        x = tf.ones([MIB // 4])
        before = allocator("GPU:0")
        for _ in range(3):
            with pytest.raises(tf.errors.ResourceExhaustedError):
                tf.ones([5 * MIB])
        after = allocator("GPU:0")
        for key in ("bytes_in_use", "live_allocations"):
            assert after[key] == before[key]
        y = x + 1
    assert y.numpy()[0] == 2.0


def test_garbage_collection_runs_before_giving_up(make_context):
    split_gpu(make_context, limits=(8,))
    with tf.device("/GPU:0"):
        cycle = [tf.ones([MIB])]  # 4 MiB, kept alive only by a reference cycle
        cycle.append(cycle)
        del cycle
        gc.disable()
        try:
            again = tf.ones([MIB + MIB // 2])  # 6 MiB fits only once the cycle is collected
        finally:
            gc.enable()
    assert again.shape == [MIB + MIB // 2]


def test_dropping_tensors_returns_their_bytes(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    with tf.device("/GPU:0"):
        tensors = [tf.ones([1000]) for _ in range(10)]
        assert experimental.get_memory_info("GPU:0")["current"] == 10 * 4096
        del tensors[5:]
        assert experimental.get_memory_info("GPU:0")["current"] == 5 * 4096
        tensors.clear()
    info = experimental.get_memory_info("GPU:0")
    assert info == {"current": 0, "peak": 10 * 4096}
    experimental.reset_memory_stats("GPU:0")
    assert experimental.get_memory_info("GPU:0") == {"current": 0, "peak": 0}
    check_invariants(registry.find(context(), "/job:localhost/replica:0/task:0/device:GPU:0").memory.allocator)


def test_a_view_keeps_its_buffer_charged_until_the_last_view_dies(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    with tf.device("/GPU:0"):
        x = tf.ones([1024])
        part = tf.reshape(x, [32, 32])  # a NumPy view of x's buffer: charged once
    assert experimental.get_memory_info("GPU:0")["current"] == 4096
    raw = part._value
    del x, part
    assert experimental.get_memory_info("GPU:0")["current"] == 4096  # `raw` still sees the bytes
    with tf.device("/GPU:0"):
        other = tf.zeros([1024])
    assert not np.shares_memory(raw, other._value) and raw.sum() == 1024
    del raw
    assert experimental.get_memory_info("GPU:0")["current"] == 4096


def test_growth_and_preallocation_show_in_the_stats(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:1GiB")
    gpus = tf.config.list_physical_devices("GPU")
    for gpu in gpus:
        experimental.set_memory_growth(gpu, False)
    with tf.device("/GPU:0"):
        x = tf.ones([256])
    stats = allocator("GPU:0")
    assert stats["bytes_reserved"] == 1 << 30 and stats["num_regions"] == 1 and stats["bytes_in_use"] == 1024
    assert x.device.endswith("GPU:0")

    make_context(PLACEFLOW_SIMULATED_GPUS="2:1GiB")
    with tf.device("/GPU:0"):
        x = tf.ones([256])
        y = tf.ones([MIB])
    stats = allocator("GPU:0")
    assert stats["bytes_reserved"] == 2 * MIB + 4 * MIB and stats["num_regions"] == 2
    assert stats["bytes_in_use"] == 1024 + 4 * MIB and y.shape == [MIB]


def test_tf_force_gpu_allow_growth_false_preallocates(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:512MiB", TF_FORCE_GPU_ALLOW_GROWTH="false")
    tf.constant(1.0)
    assert allocator("GPU:0")["bytes_reserved"] == 512 * MIB


def test_release_unused_memory_gives_free_regions_back(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    with tf.device("/GPU:0"):
        small = tf.ones([1000])
        big = tf.ones([MIB])
    assert allocator("GPU:0")["bytes_reserved"] == 6 * MIB
    del big
    assert experimental.release_unused_memory("GPU:0") == 4 * MIB
    stats = allocator("GPU:0")
    assert stats["bytes_reserved"] == 2 * MIB and stats["bytes_in_use"] == 4096 and small.shape == [1000]
    assert experimental.release_unused_memory("CPU:0") == 0


def test_the_cpu_reports_its_tensors_bytes(make_context):
    make_context()
    x = tf.ones([1000])
    y = tf.reshape(x, [10, 100])
    assert experimental.get_memory_info("CPU:0") == {"current": 4000, "peak": 4000}
    stats = allocator("CPU:0")
    assert stats["allocator"] == "cpu" and stats["bytes_limit"] is None
    del x, y
    assert experimental.get_memory_info("CPU:0")["current"] == 0
    assert experimental.get_memory_usage("CPU:0") == 0


def test_tensors_dying_on_other_threads_are_accounted(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    with tf.device("/GPU:0"):
        tensors = [tf.ones([256]) for _ in range(64)]
    parts = [tensors[i::4] for i in range(4)]
    tensors.clear()
    threads = [threading.Thread(target=part.clear) for part in parts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert experimental.get_memory_info("GPU:0")["current"] == 0


@pytest.mark.parametrize("name, message", [
    ("GPU", "Failed parsing device name: 'GPU'. Note a valid device string should at least contain a device "
            "type and a device index, like \"GPU:0\"."),
    ("nonexistent", "Failed parsing device name: 'nonexistent'."),
    ("CPU:GPU", "Failed parsing device name: 'CPU:GPU'."),
    ("GPU:7", "No matching devices found for 'GPU:7'\nplaceflow: the devices are GPU:0, CPU:0."),
    ("/job:worker/device:GPU:0", "No matching devices found for '/job:worker/device:GPU:0'"),
])
def test_memory_info_names_bad_devices(make_context, name, message):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    with pytest.raises(ValueError) as caught:
        experimental.get_memory_info(name)
    assert str(caught.value).startswith(message)


def test_full_device_names_work_too(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    assert experimental.get_memory_info("/job:localhost/replica:0/task:0/device:GPU:0") == {"current": 0, "peak": 0}
    assert experimental.get_memory_info("/device:GPU:0") == {"current": 0, "peak": 0}


def test_memory_fraction_limits_every_unsplit_gpu(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:1GiB")
    tf.config.gpu.set_per_process_memory_fraction(0.25)
    assert tf.config.experimental.get_per_process_memory_fraction() == 0.25
    assert [allocator(f"GPU:{i}")["bytes_limit"] for i in (0, 1)] == [256 * MIB, 256 * MIB]
    with pytest.raises(RuntimeError, match="Physical devices cannot be modified after being initialized"):
        experimental.set_per_process_memory_fraction(0.5)


def test_config_gpu_growth_setter_from_seed_000(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2:1GiB")
    tf.config.gpu.set_per_process_memory_growth(False)
    assert tf.config.gpu.get_per_process_memory_growth() is False
    tf.config.gpu.set_per_process_memory_growth()
    assert all(experimental.get_memory_growth(g) for g in tf.config.list_physical_devices("GPU"))


def test_gpu_options_fraction_through_a_config_proto(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:1GiB")
    config = tf.compat.v1.ConfigProto()
    config.gpu_options.per_process_gpu_memory_fraction = 0.4
    config.gpu_options.allow_growth = False
    tf.compat.v1.enable_eager_execution(config=config)
    stats = allocator("GPU:0")
    assert stats["bytes_limit"] == int((1 << 30) * 0.4) & ~255 and stats["bytes_reserved"] == stats["bytes_limit"]
    options = tf.compat.v1.GPUOptions(per_process_gpu_memory_fraction=0.4)
    assert options.per_process_gpu_memory_fraction == 0.4 and options.allow_growth is None
    with pytest.raises(ValueError, match='Protocol message GPUOptions has no "allow_grwoth" field'):
        tf.compat.v1.GPUOptions(allow_grwoth=True)


@pytest.mark.parametrize("fraction, error, match", [
    (1.5, ValueError, "outside \\(0, 1\\].*unified memory"),
    (-0.1, ValueError, "outside"),
    ("half", TypeError, "must be a number"),
])
def test_bad_fractions_are_refused_and_change_nothing(make_context, fraction, error, match):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    with pytest.raises(error, match=match):
        experimental.set_per_process_memory_fraction(fraction)
    assert experimental.get_per_process_memory_fraction() is None


def test_fraction_and_virtual_devices_exclude_each_other(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    gpu = tf.config.list_physical_devices("GPU")[0]
    experimental.set_per_process_memory_fraction(0.5)
    with pytest.raises(ValueError, match="It's invalid to set per_process_gpu_memory_fraction when virtual_devices"):
        tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=100)])
    experimental.set_per_process_memory_fraction(0)
    tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=100)])
    with pytest.raises(ValueError, match="It's invalid to set per_process_gpu_memory_fraction"):
        experimental.set_per_process_memory_fraction(0.5)


def test_limits_larger_than_the_device_are_refused(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:2GiB")
    gpu = tf.config.list_physical_devices("GPU")[0]
    with pytest.raises(ValueError, match=r"ask for 3072 MB in all .* but the device has 2048 MB"):
        tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=1536)] * 2)


def test_memory_summary_lists_every_device(make_context):
    split_gpu(make_context, limits=(1024, 1024))
    with tf.device("/GPU:1"):
        x = tf.ones([MIB])
    table = tf.experimental.memory_summary()
    assert re.search(r"GPU:1 \(sim\)\s+GPU_1_bfc\s+growth\s+4.00MiB\s+4.00MiB\s+4.00MiB\s+1.00GiB\s+1\s+1\s", table)
    assert re.search(r"CPU:0\s+cpu\s+host", table)
    assert x.shape == [MIB]


def test_placeflow_memory_cli_runs_a_script_then_shows_the_table(tmp_path):
    script = tmp_path / "train.py"
    script.write_text("import placeflow as tf\nwith tf.device('/GPU:0'):\n    x = tf.ones([1024, 256])\n")
    done = run_python("", {"PLACEFLOW_SIMULATED_GPUS": "1:1GiB"}, ["-m", "placeflow", "memory", str(script)])
    assert done.returncode == 0, done.stderr
    assert re.search(r"GPU:0 \(sim\)\s+GPU_0_bfc\s+growth\s+1.00MiB\s+1.00MiB\s+2.00MiB\s+1.00GiB", done.stdout)


def test_memory_limits_example_prints_the_oom_and_the_table():
    from pathlib import Path
    example = Path(__file__).resolve().parents[2] / "examples" / "memory_limits.py"
    done = run_python("", {"PLACEFLOW_SIMULATED_GPUS": "1"}, [str(example)])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == ("OOM when allocating tensor with shape[384,1024,1024] and type float on "
                        "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc [Op:Fill] name: ")
    assert lines[1] == "/device:GPU:0 {'current': 536870912, 'peak': 536870912}"
    assert lines[3] == "/device:GPU:1 {'current': 536870912, 'peak': 536870912}"
    assert lines[-1] == "after del: {'current': 0, 'peak': 536870912}"
    assert "Allocator (GPU_1_bfc) ran out of memory trying to allocate 1.50GiB (rounded to 1610612736)" \
           "requested by op Fill" in done.stderr


def test_memory_fraction_example_from_seeds_000_001_004():
    from pathlib import Path
    example = Path(__file__).resolve().parents[2] / "examples" / "seed_memory_fraction.py"
    done = run_python("", {"PLACEFLOW_SIMULATED_GPUS": "2:1GiB"}, [str(example)])
    assert done.returncode == 0, done.stderr
    assert done.stdout == "limit: 409 MB; reserved: 4 MB; in use: 4 MB\n"
