"""The rounds in which workers meet at the chief's store (distribute/rendezvous.py), in one process: ranks are
threads, the engine's connect step is a stand-in, and a dead task is a join that nothing follows."""

import importlib.util
import socket
import threading

import pytest

from placeflow.distribute import rendezvous
from placeflow.framework import errors

from . import loopback

needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                 reason="torch (placeflow[distributed]) is not installed")


@pytest.fixture
def address():
    """A free loopback address whose store (served by rank 0 in this process) is dropped afterwards."""
    address = f"127.0.0.1:{loopback.free_ports(1)[0]}"
    yield address
    with rendezvous._lock:
        rendezvous._stores.pop(rendezvous.split_address(address), None)


def _connect(store, prefix, seconds):
    return prefix


def _form_in_thread(address, rank, size=2, timeout=10.0, hello="", connect=_connect):
    box = {}

    def run():
        try:
            box["formed"] = rendezvous.form(address, rank, size, timeout, connect, hello)
        except Exception as error:  # noqa: BLE001 - the error is the result
            box["error"] = error
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, box


@needs_torch
def test_a_rank_that_joined_and_died_is_met_again_in_a_new_round_with_its_restart(address):
    store = rendezvous.rendezvous_store(address, True, 10)
    store.add(f"{rendezvous.PREFIX}/joins/1", 1)  # rank 1 joined, then died before the group connected
    chief, chief_box = _form_in_thread(address, 0, hello="chief")
    restarted, restarted_box = _form_in_thread(address, 1, hello="worker")
    chief.join(15)
    restarted.join(15)
    assert not chief.is_alive() and not restarted.is_alive(), "a rank still waits: the round never formed"
    assert "error" not in chief_box and "error" not in restarted_box, (chief_box, restarted_box)
    assert chief_box["formed"].prefix == restarted_box["formed"].prefix == f"{rendezvous.PREFIX}/round/1.2"
    assert chief_box["formed"].hellos == restarted_box["formed"].hellos == ["chief", "worker"]


@needs_torch
def test_a_later_process_of_the_same_rank_replaces_the_earlier_one(address):
    rendezvous.rendezvous_store(address, True, 10)
    earlier, earlier_box = _form_in_thread(address, 1)
    while not rendezvous._stores[rendezvous.split_address(address)].check([f"{rendezvous.PREFIX}/joins/1"]):
        earlier.join(0.01)
    later, later_box = _form_in_thread(address, 1)
    earlier.join(15)
    assert isinstance(earlier_box.get("error"), errors.UnavailableError), earlier_box
    assert "Another process joined the cluster as rank 1" in str(earlier_box["error"])
    chief, chief_box = _form_in_thread(address, 0)
    chief.join(15)
    later.join(15)
    assert chief_box["formed"].prefix == later_box["formed"].prefix, (chief_box, later_box)


@needs_torch
def test_a_task_that_never_comes_is_a_deadline_exceeded_error_naming_it(address):
    box = {}
    try:
        rendezvous.form(address, 0, 2, 0.5, _connect, names=["task ('chief', 0)", "task ('worker', 0)"])
    except errors.DeadlineExceededError as error:
        box["error"] = error
    assert "did not form within 0.5 s" in str(box["error"]) and "waiting for: task ('worker', 0)" in str(box["error"])


@needs_torch
def test_a_round_whose_engine_cannot_connect_is_retried_until_the_deadline(address):
    attempts = []

    def refuse(store, prefix, seconds):
        attempts.append(prefix)
        raise RuntimeError("Connection refused (a stand-in for gloo)")
    rendezvous.rendezvous_store(address, True, 10)
    worker, worker_box = _form_in_thread(address, 1, timeout=1.0, connect=refuse)
    # (what the error lists last depends on where the deadline falls: the stand-in's error, the store client's
    # timeout inside a connection attempt, or the other rank, itself out of time, as missing)
    with pytest.raises(errors.DeadlineExceededError, match="did not form within 1 s"):
        rendezvous.form(address, 0, 2, 1.0, refuse)
    worker.join(15)
    assert isinstance(worker_box.get("error"), errors.DeadlineExceededError), worker_box
    assert len(set(attempts)) >= 4  # both ranks, in at least two rounds: each failed connection began a new one


@needs_torch
def test_a_chief_whose_port_is_still_held_waits_for_it_until_the_deadline(address):
    host, port = rendezvous.split_address(address)
    held = socket.create_server((host, port))  # a predecessor still exiting
    threading.Timer(0.3, held.close).start()
    store = rendezvous.rendezvous_store(address, True, 10)
    store.set("placeflow/held-port-test", "ok")
    assert store.get("placeflow/held-port-test") == b"ok"


@needs_torch
def test_a_chief_whose_port_stays_held_is_unavailable_at_the_deadline(address):
    held = socket.create_server(rendezvous.split_address(address))
    try:
        with pytest.raises(errors.UnavailableError, match="Another process listens there"):
            rendezvous.rendezvous_store(address, True, 0.5)
    finally:
        held.close()
