"""A non-chief worker reaches the chief's rendezvous store only after the store answers a ping: a port held by
another program (it accepts and never answers) is an UnavailableError at the rendezvous deadline, not a worker
waiting forever inside torch's client (which ignores its timeout there)."""

import importlib.util
import socket
import threading

import pytest

from placeflow.distribute import worker_collectives
from placeflow.framework import errors

needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                 reason="torch (placeflow[distributed]) is not installed")


def _in_thread(fn):
    box = {}

    def run():
        try:
            box["value"] = fn()
        except Exception as error:  # noqa: BLE001 - the error is the result
            box["error"] = error
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "the worker is still waiting: the rendezvous hung"
    return box


@needs_torch
def test_a_port_held_by_another_program_is_unavailable_at_the_deadline():
    held = socket.create_server(("127.0.0.1", 0))
    accepted = []
    threading.Thread(target=lambda: accepted.append(held.accept()), daemon=True).start()  # and never answers
    port = held.getsockname()[1]
    try:
        box = _in_thread(lambda: worker_collectives.rendezvous_store(f"127.0.0.1:{port}", False, 1.5))
    finally:
        held.close()
    assert isinstance(box.get("error"), errors.UnavailableError), box
    assert f"127.0.0.1:{port}" in str(box["error"]) and "free of other programs" in str(box["error"])


@needs_torch
def test_a_chief_that_starts_late_is_waited_for_and_then_reached():
    probe = socket.create_server(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # a free port: nothing listens until the chief starts
    address = f"127.0.0.1:{port}"
    started = threading.Event()

    def chief():
        started.wait(10)
        return worker_collectives.rendezvous_store(address, True, 10)
    chief_thread = threading.Thread(target=chief, daemon=True)
    chief_thread.start()
    timer = threading.Timer(0.5, started.set)
    timer.start()
    box = _in_thread(lambda: worker_collectives.rendezvous_store(address, False, 20))
    chief_thread.join(30)
    assert "error" not in box, box
    box["value"].set("placeflow/probe-test", "ok")
    assert box["value"].get("placeflow/probe-test") == b"ok"
