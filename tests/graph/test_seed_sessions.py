"""Every Session/ConfigProto program of seeds 001, 003 and 004 under examples/: values and placement lines."""

from tests.helpers import run_example

FULL = "/job:localhost/replica:0/task:0/device:"
MATMUL_22 = "[[22. 28.]\n [49. 64.]]\n"


def placements(log):
    return [line for line in log if ": (" in line]


def test_log_placement():
    stdout, log = run_example("session_log_placement.py")
    assert stdout == MATMUL_22
    assert log[0] == "Device mapping:" and log[1].startswith(f"{FULL}GPU:0 -> device: 0, name: ")
    assert placements(log) == [f"MatMul: (MatMul): {FULL}GPU:0", f"a: (Const): {FULL}GPU:0",
                               f"b: (Const): {FULL}GPU:0"]


def test_log_placement_without_gpus():
    stdout, log = run_example("session_log_placement.py", gpus="0")
    assert stdout == MATMUL_22 and log[0] == "Device mapping: no known devices."
    assert placements(log)[0] == f"MatMul: (MatMul): {FULL}CPU:0"


def test_manual_placement():
    stdout, log = run_example("session_manual_placement.py")
    assert stdout == MATMUL_22
    assert placements(log) == [f"MatMul: (MatMul): {FULL}GPU:0", f"a: (Const): {FULL}CPU:0",
                               f"b: (Const): {FULL}CPU:0"]


def test_unknown_gpu_then_soft_placement():
    stdout, log = run_example("session_unknown_gpu.py", gpus="2")
    first, rest = stdout.split("\n", 1)
    assert first == ("InvalidArgumentError: Cannot assign a device for operation MatMul: Could not satisfy explicit "
                     "device specification '/device:GPU:2' because no devices matching that specification are "
                     f"registered in this process; available devices: {FULL}CPU:0, {FULL}GPU:0, {FULL}GPU:1")
    assert rest == MATMUL_22
    assert placements(log) == [f"MatMul: (MatMul): {FULL}GPU:0", f"a: (Const): {FULL}GPU:0",
                               f"b: (Const): {FULL}GPU:0"]


def test_multi_tower():
    stdout, log = run_example("session_multi_tower.py")
    assert stdout == "[[ 44.  56.]\n [ 98. 128.]]\n"
    assert placements(log) == [f"MatMul: (MatMul): {FULL}GPU:2", f"MatMul_1: (MatMul): {FULL}GPU:3",
                               f"AddN: (AddN): {FULL}CPU:0", f"Const: (Const): {FULL}GPU:2",
                               f"Const_1: (Const): {FULL}GPU:2", f"Const_2: (Const): {FULL}GPU:3",
                               f"Const_3: (Const): {FULL}GPU:3"]


def test_memory_options():
    stdout, _ = run_example("session_memory_options.py")
    assert stdout == ("allow_growth: reserved 0 bytes of a 4096 MiB limit\n"
                      "per_process_gpu_memory_fraction=0.4: limit 1638 MiB\n")


def test_simple_placer():
    stdout, log = run_example("session_simple_placer.py")
    sections = stdout.split("--- ")[1:]
    assert sections[0].endswith("\n12.0\n") and sections[1].endswith("\n12.0\n")
    assert sections[2].splitlines()[1:] == [
        "InvalidArgumentError: Cannot assign a device for operation Variable: Could not satisfy explicit device "
        "specification '/device:GPU:0' because no supported kernel for GPU devices is available.", "3"]
    lines = placements(log)
    assert lines[:6] == [f"a: (VariableV2): {FULL}CPU:0", f"a/Assign: (Assign): {FULL}CPU:0",
                         f"a/read: (Identity): {FULL}CPU:0", f"mul: (Mul): {FULL}GPU:0",
                         f"a/initial_value: (Const): {FULL}CPU:0", f"b: (Const): {FULL}CPU:0"]
    assert lines[6:10] == [f"a: (VariableV2): {FULL}CPU:0", f"a/Assign: (Assign): {FULL}CPU:0",
                           f"a/read: (Identity): {FULL}CPU:0", f"mul: (Mul): {FULL}GPU:0"]
    assert any("Variable (VariableV2) fell back from /device:GPU:0 to CPU:0" in line for line in log)


def test_gpu_if_available():
    stdout, log = run_example("session_gpu_if_available.py")
    assert stdout == "/gpu:0 [12. 30.]\n"
    assert f"x: (Placeholder): {FULL}GPU:0" in log
    stdout, _ = run_example("session_gpu_if_available.py", gpus="0")
    assert stdout == "/cpu:0 [12. 30.]\n"
