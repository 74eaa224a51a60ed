"""Where and how the workers of a cluster meet before their collectives: the chief's store, and the rounds.

Store: torch's TCPStore, served by the chief (or worker 0) at its own TF_CONFIG address on a socket bound to
exactly that address; the other workers ping it in its own protocol before making torch's client (which
would wait forever on a port held by another program).

Rounds: each time a worker forms a group it counts one join in the store (`joins/<rank>`). A round is the
tuple of every rank's join count; a rank marks the round it sees and the group forms once every rank has
marked the same round, and the engine (gloo) connects under that round's keys. A worker that dies anywhere in
formation and is restarted (a new process, or a new strategy in the same one) joins again, which changes the
tuple: the others see it at their next poll (or, while gloo connects, the thread watching the round does)
and meet it in the new round, whatever the counts were. A chief that dies takes its store with it: the
others reach its successor's store and join there. Every wait polls against one deadline (the rendezvous
timeout); a group that still has not formed then is a DeadlineExceededError naming the tasks waited for.
"""

from __future__ import annotations

import datetime
import errno
import logging
import os
import socket
import struct
import threading
import time

from ..framework import errors
from .cluster import split_address

PREFIX = "placeflow"
POLL_S = 0.05

log = logging.getLogger("placeflow.distribute")
_stores: dict = {}  # (host, port) -> TCPStore (the master's own store in the chief, a client elsewhere)
_lock = threading.Lock()


def torch_distributed():
    """(torch, torch.distributed) with gloo, or an ImportError naming the extra to install."""
    try:
        import torch
        import torch.distributed as dist
    except ImportError:
        raise ImportError(
            "MultiWorkerMirroredStrategy runs its CPU collectives on gloo through torch.distributed, which is not "
            "installed. Install it with: pip install 'placeflow[distributed]' (or torch)") from None
    if not dist.is_available() or not dist.is_gloo_available():
        raise ImportError("This torch build has no torch.distributed gloo backend; install a CPU build of torch.")
    return torch, dist


# -- the chief's store ------------------------------------------------------------------------------------
def rendezvous_store(address: str, is_master: bool, timeout_s: float, deadline=None):
    """The store at `address`: served here when `is_master` (bound to exactly that address), else a client.
    Waits until `deadline` (time.monotonic(); default now + timeout_s) for the port to be free (master) or
    for the chief's store to answer (client), then raises UnavailableError."""
    _, dist = torch_distributed()
    host, port = split_address(address)
    deadline = time.monotonic() + timeout_s if deadline is None else deadline
    listener = None
    if _cached_store(host, port) is None:
        if is_master:
            listener = _listen(host, port, address, timeout_s, deadline)
        else:
            _probe_rendezvous(host, port, timeout_s, deadline)  # outside the lock: an in-process chief may start
    with _lock:
        store = _cached_store(host, port)
        if store is not None:
            if listener is not None:
                listener.close()
            return store
        timeout = datetime.timedelta(seconds=max(deadline - time.monotonic(), 1.0))
        try:
            if is_master:
                store = dist.TCPStore(host, port, None, is_master=True, timeout=timeout, wait_for_workers=False,
                                      master_listen_fd=listener.detach())
            else:
                store = dist.TCPStore(host, port, None, is_master=False, timeout=timeout)
        except (OSError, RuntimeError) as exc:
            role = "serve" if is_master else "reach"
            raise errors.UnavailableError(None, None, (
                f"Could not {role} the cluster's rendezvous at {address!r} within {timeout_s:.0f} s: {exc}. "
                "Check that TF_CONFIG lists this address for the chief (or worker 0) and that every worker "
                "started.")) from None
        _stores[(host, port)] = store
        return store


def forget_store(address: str, store) -> None:
    """Drop `store` from this process's cache (its server went away: the next call makes a new client)."""
    with _lock:
        key = split_address(address)
        if _stores.get(key) is store:
            del _stores[key]


def _listen(host: str, port: int, address: str, timeout_s: float, deadline: float):
    """A socket listening on exactly host:port. A port still held (a chief being restarted while its
    predecessor exits) is retried until `deadline`; then UnavailableError."""
    warned = False
    while True:
        try:
            return socket.create_server((host, port), reuse_port=False, backlog=128)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE and not warned:
                log.warning("The cluster's rendezvous address %s is in use (a previous chief still exiting?); "
                            "waiting up to %.0f s for it.", address, max(deadline - time.monotonic(), 0))
                warned = True
            if exc.errno != errno.EADDRINUSE or time.monotonic() >= deadline:
                raise errors.UnavailableError(None, None, (
                    f"Could not serve the cluster's rendezvous at {address!r} within {timeout_s:.0f} s: {exc}. "
                    "Another process listens there: a previous chief still running, or another program. Stop "
                    "it, or give the chief a free port in TF_CONFIG.")) from None
            time.sleep(min(0.2, max(deadline - time.monotonic(), 0)))


def _cached_store(host: str, port: int):
    """This process's live store for host:port, if it has one."""
    store = _stores.get((host, port))
    return store if store is not None and alive(store) else None


# torch's TCPStore wire protocol (torch/csrc/distributed/c10d/TCPStoreBackend.hpp): a query byte, then its data
_VALIDATE, _PING, _MAGIC = 0, 13, 0x3C85F7CE


def _probe_rendezvous(host: str, port: int, timeout_s: float, deadline=None) -> None:
    """Wait (until `deadline`, default now + `timeout_s`) for the chief's store to answer a ping at host:port.
    torch's client ignores its timeout while it waits for an answer, so a port held by another program would
    hang the worker forever; here that is an UnavailableError naming the address once the deadline passes."""
    deadline = time.monotonic() + timeout_s if deadline is None else deadline
    nonce = int.from_bytes(os.urandom(4), "little")
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise errors.UnavailableError(None, None, (
                f"Could not reach the cluster's rendezvous at {host}:{port} within {timeout_s:.0f} s: nothing "
                f"there answered as the chief's store (is the chief started, and is that port free of other "
                f"programs?)."))
        try:
            with socket.create_connection((host, port), timeout=min(left, 5.0)) as probe:
                probe.settimeout(max(deadline - time.monotonic(), 0.01))
                probe.sendall(struct.pack("<BI", _VALIDATE, _MAGIC) + struct.pack("<BI", _PING, nonce))
                reply = _receive(probe, 4)
            if reply == struct.pack("<I", nonce):
                return
        except OSError:  # refused (the chief is not up yet), reset, or no answer before the deadline
            pass
        time.sleep(min(0.2, max(deadline - time.monotonic(), 0)))


def _receive(connection, count: int) -> bytes:
    data = b""
    while len(data) < count:
        part = connection.recv(count - len(data))
        if not part:
            break
        data += part
    return data


def alive(store) -> bool:
    """Whether `store`'s server still answers."""
    try:
        store.add(f"{PREFIX}/ping", 0)
        return True
    except Exception:  # noqa: BLE001 - a store whose server went away: make a new client
        return False


def close_stores() -> None:
    """Forget every store (at exit)."""
    with _lock:
        _stores.clear()


# -- rounds ----------------------------------------------------------------------------------------------
class Formed:
    """A formed group: its store, key prefix, every rank's hello (rank order) and the engine's group."""

    def __init__(self, store, prefix: str, hellos: list, engine):
        self.store, self.prefix, self.hellos, self.engine = store, prefix, hellos, engine


def form(address: str, rank: int, size: int, timeout_s: float, connect, hello: str = "", names=None) -> Formed:
    """Meet the other `size - 1` ranks at the chief's store at `address` (rank 0 serves it) within `timeout_s`
    seconds, then `connect(store, prefix, seconds)` makes the engine's group on a client of that store. It may
    fail, or be abandoned when a rank joins again meanwhile (one that died after marking the round): the ranks
    then meet in a new round. `hello` is this rank's text that every rank receives (Formed.hellos); `names`
    names the ranks in errors (default 'rank <i>')."""
    names = names or [f"rank {r}" for r in range(size)]
    deadline = time.monotonic() + timeout_s
    token = f"{os.getpid()}-{os.urandom(6).hex()}"  # this call's identity: a later process of this rank wins
    owner, last_error = f"{PREFIX}/owner/{rank}", None
    while True:
        store = rendezvous_store(address, rank == 0, timeout_s, deadline)
        try:
            if last_error is not None and store.check([owner]) and store.get(owner).decode() != token:
                raise _replaced(names[rank])
            store.set(owner, token)
            attempt = store.add(f"{PREFIX}/joins/{rank}", 1)
            key, hellos = _meet(store, rank, size, attempt, hello, deadline, timeout_s, names, last_error)
            prefix = f"{PREFIX}/round/{key}"
            engine = _connect_watched(address, store, size, key, connect, prefix, deadline)
            return Formed(store, prefix, hellos, engine)
        except RuntimeError as exc:  # torch: the chief's store went away, or the engine could not connect
            last_error = str(exc).splitlines()[0]
            if rank != 0 and not alive(store):
                forget_store(address, store)  # the chief died: meet at its successor's store
            if time.monotonic() >= deadline:
                raise _late(size, names, timeout_s, [], last_error) from None
            time.sleep(POLL_S)


def _meet(store, rank, size, attempt, hello, deadline, timeout_s, names, last_error) -> tuple:
    """(round key, every rank's hello) once every rank marked the same round; polls until `deadline`."""
    joins = [f"{PREFIX}/joins/{r}" for r in range(size)]
    marked = None
    while True:
        waiting_for = joins
        if store.add(joins[rank], 0) != attempt:
            raise _replaced(names[rank])
        if store.check(joins):
            counts = [int(v) for v in store.multi_get(joins)]
            key = ".".join(str(c) for c in counts)
            marks = [f"{PREFIX}/round/{key}/hello/{r}" for r in range(size)]
            if marked != key:
                store.set(marks[rank], hello)
                marked = key
            if store.check(marks):
                return key, [v.decode() for v in store.multi_get(marks)]
            waiting_for = marks
        if time.monotonic() >= deadline:
            missing = [r for r, k in enumerate(waiting_for) if not store.check([k])]
            raise _late(size, names, timeout_s, missing, last_error)
        time.sleep(POLL_S)


def _round(store, size: int) -> str:
    """The round the store shows now: every rank's join count."""
    return ".".join(v.decode() for v in store.multi_get([f"{PREFIX}/joins/{r}" for r in range(size)]))


def _connect_watched(address, store, size, key, connect, prefix, deadline):
    """connect(client, prefix, seconds) on a client of its own, in a thread, while this one watches the round:
    a rank that joins again meanwhile (the restart of a rank that died after marking it) ends the wait at
    once, rather than at the engine's connection deadline. Raises RuntimeError then."""
    host, port = split_address(address)
    _, dist = torch_distributed()
    seconds = max(deadline - time.monotonic(), 0.001)
    client = dist.TCPStore(host, port, None, is_master=False, timeout=datetime.timedelta(seconds=seconds))
    box, lock, done = {}, threading.Lock(), threading.Event()

    def run():
        try:
            engine = connect(client, prefix, seconds)
            with lock:
                if not box.get("abandoned"):
                    box["engine"] = engine
        except Exception as exc:  # noqa: BLE001 - handed to the waiting thread
            box["error"] = exc
        finally:
            done.set()
    threading.Thread(target=run, name="placeflow-group-connect", daemon=True).start()
    while not done.wait(POLL_S):
        if _round(store, size) != key:
            with lock:
                if "engine" not in box:
                    box["abandoned"] = True  # its connection fails at its deadline, unseen (the round is dead)
                    raise RuntimeError(f"round {key} superseded: a worker joined again while the group connected")
    if "error" in box:
        raise box["error"]
    return box["engine"]


def _replaced(name: str) -> errors.UnavailableError:
    return errors.UnavailableError(None, None, (
        f"Another process joined the cluster as {name} after this one, so this one stops forming the group. "
        "Run one process per task of TF_CONFIG: a restarted task replaces the old one."))


def _late(size, names, timeout_s, missing, last_error) -> errors.DeadlineExceededError:
    who = ", ".join(names[r] for r in missing) if missing else "every task arrived, but they did not connect"
    detail = f" Last engine error: {last_error}." if last_error else ""
    return errors.DeadlineExceededError(None, None, (
        f"The collective group of {size} workers did not form within {timeout_s:g} s "
        f"(PLACEFLOW_RENDEZVOUS_TIMEOUT_S); waiting for: {who}.{detail} Start (or restart) those tasks with "
        "the same TF_CONFIG cluster, or raise PLACEFLOW_RENDEZVOUS_TIMEOUT_S."))
