"""The MirroredStrategy programs of seeds 000 and 002, and the demo's data-parallel run, as users run them."""

from tests.helpers import run_example

GPU = "/job:localhost/replica:0/task:0/device:GPU:{}"


def test_seed_mirrored_strategy_builds_one_copy_per_gpu_and_trains():
    out, err = run_example("seed_mirrored_strategy.py", gpus="4")
    devices = tuple(GPU.format(i) for i in range(4))
    assert "\n".join(err).count(f"INFO:placeflow:Using MirroredStrategy with devices {devices}") == 2
    for i in range(4):  # seed 002's log: each variable copy is made on its GPU
        assert f"Executing op VarHandleOp in device {GPU.format(i)}" in err
    lines = out.splitlines()
    assert lines[0] == "replicas: 4"
    first, last = (float(v) for v in lines[1][len("loss: "):].split(" -> "))
    assert first > 0.1 and last < 1e-4  # the seed's Dense(1) is unseeded: only the fall is fixed
    assert lines[2] == "y = 3.000 x + 1.000"
    assert lines[3] == f"kernel copies: {list(devices)}"
    assert lines[4] == "copies identical: True"


def test_seed_mirrored_strategy_on_two_gpus():
    out, err = run_example("seed_mirrored_strategy.py", gpus="2")
    assert f"Using MirroredStrategy with devices ('{GPU.format(0)}', '{GPU.format(1)}')" in "\n".join(err)
    assert "replicas: 2" in out and "copies identical: True" in out


def test_data_parallel_training_shows_the_loss_falling():
    out, err = run_example("data_parallel_training.py", gpus="4")
    assert out.startswith("4 replicas, all-reduce: HierarchicalCopyAllReduce\nEpoch 1/4\n")
    losses = [float(v) for v in out.split("loss per epoch: ")[1].splitlines()[0].split(" -> ")]
    assert len(losses) == 4 and losses == sorted(losses, reverse=True) and losses[-1] < 0.75 * losses[0]
    assert "time per step: " in out and "all-reduce" in out
