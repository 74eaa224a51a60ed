"""Ctrl-C during a step that writes variables: the step lands on every device, then KeyboardInterrupt."""

import os
import signal
import threading

import numpy as np
import pytest

import placeflow as tf
from placeflow.graph import interrupts, partition


@pytest.fixture(autouse=True)
def ctrl_c_raises():
    """Python's own SIGINT handler for each test: a process started in the background by a non-interactive
    shell (nohup ... &) inherits SIGINT ignored, and then Ctrl-C raises nothing, placeflow or not."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def _interrupt_at_first_write(monkeypatch):
    real = partition.write_variable
    sent = []

    def write_then_interrupt(*args):
        if not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)
        return real(*args)
    monkeypatch.setattr(partition, "write_variable", write_then_interrupt)
    return sent


def test_a_traced_mirrored_step_is_applied_to_every_replica_before_the_interrupt(make_context, monkeypatch):
    make_context(PLACEFLOW_SIMULATED_GPUS=2)
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        weights = tf.Variable(np.zeros(4, np.float32))
        steps = tf.Variable(0.0)

    @tf.function
    def step():
        weights.assign_add(tf.ones([4]))
        steps.assign_add(1.0)

    sent = _interrupt_at_first_write(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        step()
    assert sent
    assert [c.numpy().tolist() for c in weights.values] == [[1.0] * 4, [1.0] * 4]
    assert [float(c.numpy()) for c in steps.values] == [1.0, 1.0]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # handler restored


def test_a_second_interrupt_stops_at_once_and_errors_in_the_step_are_not_masked(capsys):
    with pytest.raises(KeyboardInterrupt):
        with interrupts.step_finishes_first():
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)
            pytest.fail("the second Ctrl-C should have stopped the block")
    assert "interrupted again before the step finished" in capsys.readouterr().err
    with pytest.raises(ValueError, match="step failed"):
        with interrupts.step_finishes_first():
            raise ValueError("step failed")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_other_threads_and_user_handlers_are_left_alone():
    outcome = []
    thread = threading.Thread(target=lambda: outcome.append(_run_block()))
    thread.start()
    thread.join()
    assert outcome == [signal.default_int_handler]  # a worker thread cannot and does not install a handler
    previous = signal.signal(signal.SIGINT, lambda *a: None)
    try:
        with interrupts.step_finishes_first():
            assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
            custom = signal.getsignal(signal.SIGINT)
        assert signal.getsignal(signal.SIGINT) is custom
    finally:
        signal.signal(signal.SIGINT, previous)


def _run_block():
    with interrupts.step_finishes_first():
        return signal.getsignal(signal.SIGINT)
