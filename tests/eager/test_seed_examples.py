"""Every eager seed program under examples/ runs with simulated GPUs and prints what the seeds print."""

import pytest

from tests.helpers import run_example

FULL = "/job:localhost/replica:0/task:0/device:"
MATMUL_22 = "tf.Tensor(\n[[22. 28.]\n [49. 64.]], shape=(2, 2), dtype=float32)\n"


def test_log_placement_on_gpu():
    stdout, log = run_example("seed_log_placement.py")
    assert stdout == MATMUL_22
    assert log == [f"Executing op _EagerConst in device {FULL}GPU:0"] * 2 + [f"Executing op MatMul in device {FULL}GPU:0"]


def test_log_placement_on_a_cpu_only_machine():
    stdout, log = run_example("seed_log_placement.py", gpus="0")
    assert stdout == MATMUL_22
    assert log[-1] == f"Executing op MatMul in device {FULL}CPU:0"  # seed 000's line


def test_cpu_pinned_constants_and_gpu_matmul():
    stdout, log = run_example("seed_manual_placement.py")
    assert stdout.startswith(MATMUL_22)
    assert log == [f"Executing op _EagerConst in device {FULL}CPU:0"] * 2 + [f"Executing op MatMul in device {FULL}GPU:0"]
    assert "CPU:0 -> GPU:0                          2  48" in stdout  # the two inputs were copied


def test_unknown_gpu_fails_without_soft_placement_and_falls_back_with_it():
    stdout, log = run_example("seed_unknown_gpu.py")
    first, fix = stdout.splitlines()[:2]
    assert first.startswith(f"Could not satisfy device specification '{FULL}GPU:7'. enable_soft_placement=0. "
                            "Supported device types [GPU, CPU]. All available devices "
                            f"[{FULL}CPU:0, {FULL}GPU:0, {FULL}GPU:1, {FULL}GPU:2, {FULL}GPU:3]. [Op:_EagerConst] name: ")
    assert fix.startswith("placeflow: no device GPU:7 exists") and "set_soft_device_placement(True)" in fix
    assert stdout.endswith(MATMUL_22)
    assert log == ["_EagerConst fell back from GPU:7 to GPU:0: no device GPU:7 exists.",
                   f"Executing op _EagerConst in device {FULL}GPU:0", f"Executing op _EagerConst in device {FULL}GPU:0",
                   "MatMul fell back from GPU:7 to GPU:0: no device GPU:7 exists.",
                   f"Executing op MatMul in device {FULL}GPU:0"]


def test_manual_replication_with_add_n_on_the_cpu():
    stdout, log = run_example("seed_manual_replication.py")
    assert stdout == ("tf.Tensor(\n[[ 44.  56.]\n [ 98. 128.]], shape=(2, 2), dtype=float32)\n"
                      "tf.Tensor(\n[[ 88. 112.]\n [196. 256.]], shape=(2, 2), dtype=float32)\n")
    ops = [line for line in log if "MatMul" in line or "AddN" in line]
    assert ops[:3] == [f"Executing op MatMul in device {FULL}GPU:2", f"Executing op MatMul in device {FULL}GPU:3",
                       f"Executing op AddN in device {FULL}CPU:0"]
    assert ops[3:] == [f"Executing op MatMul in device {FULL}GPU:{i}" for i in range(4)] + \
        [f"Executing op AddN in device {FULL}CPU:0"]


def test_kernel_fallbacks_and_device_functions():
    stdout, log = run_example("seed_kernels_and_variables.py")
    lines = stdout.splitlines()
    assert lines[0] == "tf.Tensor(12.0, shape=(), dtype=float32)"
    assert lines[1] == f"{FULL}CPU:0"  # int32 variable: no GPU kernel
    assert lines[2] == f"{FULL}CPU:0"  # Cast: no GPU kernel
    assert lines[3].startswith("[('CPU', [")
    assert lines[4] == f"{FULL}CPU:0 {FULL}GPU:0"  # device function: variable on CPU, constant on GPU
    assert f"Executing op Mul in device {FULL}GPU:0" in log
    assert "VarHandleOp fell back from GPU:0 to CPU:0: no GPU kernel for VarHandleOp with int32." in log
    assert "Cast fell back from GPU:0 to CPU:0: no GPU kernel for Cast with int32." in log


@pytest.mark.parametrize("gpus,expected", [("2", "/gpu:0 " + FULL + "GPU:0"), ("0", "/cpu:0 " + FULL + "CPU:0")])
def test_gpu_if_available(gpus, expected):
    stdout, _ = run_example("seed_gpu_if_available.py", gpus=gpus)
    assert stdout.splitlines()[0] == expected
