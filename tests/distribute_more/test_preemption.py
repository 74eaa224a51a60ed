"""PreemptionCheckpointHandler: a SIGTERM sent to a training child process makes it save a checkpoint and exit
with code 42 (TensorFlow 2.21's), and the restarted program resumes from it; a TerminationConfig's watcher,
exit function, grace period and save function are used in-process. Every wait is bounded."""

import importlib.util
import os
import pathlib
import select
import signal
import subprocess
import sys
import time

import pytest

import placeflow as tf
from placeflow.distribute import preemption
from tests.distribute import loopback

PROGRAM = pathlib.Path(__file__).with_name("preemption_program.py")
WAIT_S = 120


def _line(process, prefix: str) -> str:
    """The child's first output line starting with `prefix` (within WAIT_S)."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        line = process.stdout.readline()
        if not line:
            break
        if line.startswith(prefix):
            return line.strip()
    process.kill()
    raise AssertionError(f"the child printed no {prefix!r} line; stderr: {process.stderr.read()[-2000:]}")


def _start(directory, last_step):
    env = dict(os.environ, PYTHONPATH=str(PROGRAM.parents[2]))
    env.pop("TF_CONFIG", None)
    return subprocess.Popen([sys.executable, str(PROGRAM), str(directory), str(last_step)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def test_sigterm_saves_exits_with_42_and_the_restart_resumes(tmp_path):
    directory = tmp_path / "preemption"
    child = _start(directory, 10 ** 6)
    try:
        assert _line(child, "ready") == "ready 0 0"
        time.sleep(1.0)  # some steps
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=WAIT_S) == 42
    finally:
        child.kill()
    assert (directory / "checkpoint").exists() and (directory / "ckpt-1.index").exists()
    saved = int(tf.train.load_checkpoint(str(directory / "ckpt-1")).get_tensor("step/.ATTRIBUTES/VARIABLE_VALUE"))
    assert saved > 0
    restarted = _start(directory, saved + 5)
    try:
        assert _line(restarted, "ready") == f"ready {saved} {saved}"  # the step and the run count came back
        assert _line(restarted, "done") == f"done {saved + 5}"
        assert restarted.wait(timeout=WAIT_S) == 0
    finally:
        restarted.kill()


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs torch.distributed (gloo)")
def test_one_worker_signalled_stops_every_worker_at_the_same_step(tmp_path):
    ports = loopback.free_ports(2)
    workers = [loopback.start(PROGRAM, [str(tmp_path), str(10 ** 6), "report"],
                              loopback.worker_env(loopback.tf_config(ports, i))) for i in range(2)]
    try:
        for worker in workers:
            assert _line(worker, "ready") == "ready 0 0"
        time.sleep(1.0)
        workers[1].send_signal(signal.SIGTERM)  # only the second worker is told
        exits = [_line(worker, "exit") for worker in workers]
        assert [worker.wait(timeout=WAIT_S) for worker in workers] == [42, 42]
    finally:
        for worker in workers:
            worker.kill()
    assert exits[0] == exits[1]  # the same step everywhere
    saved = tf.train.load_checkpoint(str(tmp_path / "ckpt-1")).get_tensor("step/.ATTRIBUTES/VARIABLE_VALUE")
    assert f"exit {int(saved)}" == exits[0]  # written by the chief (worker 0) at that step


@pytest.fixture
def fast_watch(monkeypatch):
    monkeypatch.setattr(preemption, "WATCH_INTERVAL_S", 0.01)


def _wait_for(condition):
    deadline = time.monotonic() + 30
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert condition()


def test_a_watcher_and_exit_function_replace_the_signal(tmp_path, fast_watch):
    notice, exits = [], []
    config = tf.distribute.experimental.TerminationConfig(termination_watcher_fn=lambda: bool(notice),
                                                          exit_fn=lambda: exits.append(True))
    step = tf.Variable(0)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(step=step), str(tmp_path), max_to_keep=2)
    handler = tf.distribute.experimental.PreemptionCheckpointHandler(None, manager, termination_config=config)
    assert handler.run(lambda a, b=1: a + b, 3, b=4) == 7 and not exits and manager.latest_checkpoint is None
    notice.append(True)
    _wait_for(lambda: handler._notice_time is not None)
    step.assign(5)
    handler.run(lambda: None)
    assert exits == [True] and manager.latest_checkpoint.endswith("ckpt-1")
    assert handler.total_run_calls == 2
    handler.save_checkpoint_if_preempted()  # the notice was handled: nothing more
    assert exits == [True]


def test_the_grace_period_keeps_training_and_save_fn_replaces_the_save(tmp_path, fast_watch):
    saves, exits = [], []
    config = tf.distribute.experimental.TerminationConfig(termination_watcher_fn=lambda: True, grace_period=0.3,
                                                          exit_fn=lambda: exits.append(True),
                                                          save_fn=lambda: saves.append(True))
    checkpoint = tf.train.Checkpoint(step=tf.Variable(0))
    handler = tf.distribute.experimental.PreemptionCheckpointHandler(None, checkpoint, str(tmp_path / "c"),
                                                                     termination_config=config)
    _wait_for(lambda: handler._notice_time is not None)
    handler.run(lambda: None)
    assert not exits  # still inside the grace period
    time.sleep(0.35)
    with handler.watch_preemption_scope():
        pass
    assert saves == [True] and exits == [True] and not (tmp_path / "c").exists()


def test_bad_arguments_are_refused(tmp_path):
    experimental = tf.distribute.experimental
    with pytest.raises(tf.errors.InvalidArgumentError, match="checkpoint_dir"):
        experimental.PreemptionCheckpointHandler(None, tf.train.Checkpoint())
    with pytest.raises(TypeError, match="tf.train.Checkpoint"):
        experimental.PreemptionCheckpointHandler(None, "checkpoint", str(tmp_path))
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(), str(tmp_path / "a"), max_to_keep=1)
    with pytest.raises(ValueError, match="differs"):
        experimental.PreemptionCheckpointHandler(None, manager, str(tmp_path / "b"))
    with pytest.raises(ValueError, match="grace_period"):
        experimental.TerminationConfig(grace_period=-1)
    with pytest.raises(TypeError, match="exit_fn"):
        experimental.TerminationConfig(exit_fn=3)
    with pytest.raises(NotImplementedError, match="PreemptionWatcher"):
        experimental.PreemptionWatcher()
