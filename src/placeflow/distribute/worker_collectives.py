"""Collectives between worker processes (MultiWorkerMirroredStrategy), on existing engines.

- Host arrays (CPUs, simulated GPUs): gloo through torch.distributed (the optional `distributed` extra).
- CUDA arrays: NCCL through CuPy (`cupy.cuda.nccl`), its unique id exchanged through the same store.

Rendezvous: a key-value store (torch's TCPStore) served by the chief (or worker 0) at its own TF_CONFIG
address, on a socket bound to that host and port only. Each time the workers form a group, every rank
counts its joins in the store, so a group re-formed after a failure (or with a restarted worker) gets a
fresh key prefix and never meets the stale addresses of the last one.

Faults: every collective has a deadline (10 s unless configured; gloo's own default is 30 minutes). A
peer that dies closes its connections and the survivors' collective raises UnavailableError at once; a
peer that stops answering raises it at the deadline. A failed group stays failed: form a new one.
"""

from __future__ import annotations

import atexit
import datetime
import os
import socket
import struct
import threading
import time

import numpy as np

from ..framework import errors
from .cluster import split_address

DEFAULT_TIMEOUT_S = 10.0
RENDEZVOUS_TIMEOUT_S = 60.0
_PREFIX = "placeflow"

_stores: dict = {}       # (host, port) -> TCPStore (the master's own store in the chief, a client elsewhere)
_live_groups: list = []  # every WorkerGroup not yet shut down (closed at exit: gloo aborts the process otherwise)
_lock = threading.Lock()


def timeout_from_env(name: str, default: float) -> float:
    """A timeout in seconds from environment variable `name` (default when unset)."""
    text = os.environ.get(name, "")
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name}={text!r} is not a number of seconds; set it like {name}=10.") from None
    if value <= 0:
        raise ValueError(f"{name}={text!r} must be a positive number of seconds.")
    return value


def _torch_distributed():
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


def rendezvous_store(address: str, is_master: bool, timeout_s: float):
    """The store at `address`: served here when `is_master` (bound to exactly that address), else a client."""
    _, dist = _torch_distributed()
    host, port = split_address(address)
    if not is_master and _cached_store(host, port) is None:
        _probe_rendezvous(host, port, timeout_s)  # outside the lock: torch's client would wait forever on a held port
    with _lock:
        store = _cached_store(host, port)
        if store is not None:
            return store
        timeout = datetime.timedelta(seconds=timeout_s)
        try:
            if is_master:
                listener = socket.create_server((host, port), reuse_port=False, backlog=128)
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


def _cached_store(host: str, port: int):
    """This process's live store for host:port, if it has one."""
    store = _stores.get((host, port))
    return store if store is not None and _alive(store) else None


# torch's TCPStore wire protocol (torch/csrc/distributed/c10d/TCPStoreBackend.hpp): a query byte, then its data
_VALIDATE, _PING, _MAGIC = 0, 13, 0x3C85F7CE


def _probe_rendezvous(host: str, port: int, timeout_s: float) -> None:
    """Wait (up to `timeout_s`) for the chief's store to answer a ping at host:port. torch's client ignores its
    timeout while it waits for an answer, so a port held by another program would hang the worker forever;
    here that is an UnavailableError naming the address once the deadline passes."""
    deadline = time.monotonic() + timeout_s
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


def _alive(store) -> bool:
    try:
        store.add(f"{_PREFIX}/ping", 0)
        return True
    except Exception:  # noqa: BLE001 - a store whose server went away: make a new client
        return False


class WorkerGroup:
    """`size` worker processes, this one `rank`, meeting for all-reduce, broadcast and all-gather."""

    def __init__(self, store, rank: int, size: int, host: str, timeout_s: float = DEFAULT_TIMEOUT_S,
                 rendezvous_timeout_s: float = RENDEZVOUS_TIMEOUT_S, use_nccl: bool = False):
        self.rank, self.size, self.timeout_s, self.use_nccl = rank, size, timeout_s, use_nccl
        self._store, self._host = store, host
        self._failure = None
        self._nccl = {}
        self._op_lock = threading.Lock()  # one collective at a time per process (their order is the plans')
        store.set_timeout(datetime.timedelta(seconds=rendezvous_timeout_s))
        try:
            generation = store.add(f"{_PREFIX}/joins/{rank}", 1)
        except RuntimeError as exc:
            raise self._unavailable("joining the rendezvous", exc, rendezvous_timeout_s) from None
        self.prefix = f"{_PREFIX}/gen{generation}"
        self._gloo = self._connect(rendezvous_timeout_s) if size > 1 else None
        store.set_timeout(datetime.timedelta(seconds=timeout_s))
        with _lock:
            _live_groups.append(self)

    def _connect(self, rendezvous_timeout_s: float):
        _, dist = _torch_distributed()
        options = dist.ProcessGroupGloo._Options()
        # forming the group waits for late workers up to the rendezvous timeout; collectives then have their own
        options._timeout = datetime.timedelta(seconds=max(rendezvous_timeout_s, self.timeout_s))
        options._devices = [dist.ProcessGroupGloo.create_device(hostname=self._host)]
        try:
            group = dist.ProcessGroupGloo(dist.PrefixStore(f"{self.prefix}/gloo", self._store), self.rank,
                                          self.size, options)
        except RuntimeError as exc:
            raise self._unavailable("forming the group", exc, rendezvous_timeout_s) from None
        group._set_default_timeout(datetime.timedelta(seconds=self.timeout_s))
        return group

    # -- exchanges of small Python values through the store (set-up, checks) -----------------------
    def exchange(self, key: str, text: str) -> list:
        """Every rank's `text` for `key`, in rank order (each rank publishes its own)."""
        self._check()
        try:
            self._store.set(f"{self.prefix}/{key}/{self.rank}", text)
            return [self._store.get(f"{self.prefix}/{key}/{r}").decode() for r in range(self.size)]
        except RuntimeError as exc:
            raise self._fail(f"exchanging {key!r}", exc) from None

    # -- collectives on arrays -----------------------------------------------------------------
    def all_reduce(self, array, reduce_op: str = "SUM"):
        """The elementwise sum (or mean) of every rank's `array`, as a new array."""
        if self.size == 1:
            return array.copy()
        if _is_cuda(array) and not self.use_nccl:  # RING on GPUs: through the host, as TF's ring over gRPC
            return _like(array, self.all_reduce(_to_host(array), reduce_op))
        out = _contiguous_copy(array)
        if _is_cuda(out):
            self._nccl_all_reduce(out)
        else:
            torch, _ = _torch_distributed()
            self._run("all-reduce", lambda: self._gloo.allreduce([_as_torch(torch, out)]))
        if reduce_op == "MEAN":
            out /= self.size
        return out

    def broadcast(self, array, root: int = 0):
        """Rank `root`'s `array` on every rank (a new array)."""
        if self.size == 1:
            return array.copy()
        if _is_cuda(array) and not self.use_nccl:
            return _like(array, self.broadcast(_to_host(array), root))
        out = _contiguous_copy(array)
        if _is_cuda(out):
            self._nccl_broadcast(out, root)
        else:
            torch, _ = _torch_distributed()
            self._run("broadcast", lambda: self._gloo.broadcast(_as_torch(torch, out), root))
        return out

    def all_gather(self, array) -> list:
        """Every rank's `array` (same shape on every rank), in rank order, as host arrays."""
        host = _to_host(array)
        if self.size == 1:
            return [host.copy()]
        torch, _ = _torch_distributed()
        outs = [np.empty_like(host) for _ in range(self.size)]
        source = _contiguous_copy(host)
        self._run("all-gather", lambda: self._gloo.allgather([[_as_torch(torch, o) for o in outs]],
                                                             [_as_torch(torch, source)]))
        return outs

    def _run(self, what: str, start) -> None:
        self._check()
        with self._op_lock:
            try:
                start().wait()
            except RuntimeError as exc:
                raise self._fail(what, exc) from None

    # -- NCCL for CUDA arrays (CuPy) ------------------------------------------------------------
    def _communicator(self, device_id: int):
        comm = self._nccl.get(device_id)
        if comm is None:
            from cupy.cuda import nccl
            key = f"nccl/{device_id}"
            if self.rank == 0:
                uid = bytes(b % 256 for b in nccl.get_unique_id())
                self._store.set(f"{self.prefix}/{key}", uid)
            uid = tuple(self._store.get(f"{self.prefix}/{key}"))
            uid = tuple(b - 256 if b > 127 else b for b in uid)  # NCCL's id is a tuple of C chars
            comm = self._nccl[device_id] = nccl.NcclCommunicator(self.size, uid, self.rank)
        return comm

    def _nccl_all_reduce(self, out) -> None:
        import cupy
        from cupy.cuda import nccl
        self._check()
        with self._op_lock, cupy.cuda.Device(out.device.id):
            comm = self._communicator(out.device.id)
            stream = cupy.cuda.get_current_stream()
            comm.allReduce(out.data.ptr, out.data.ptr, out.size, _nccl_dtype(out.dtype), nccl.NCCL_SUM, stream.ptr)
            stream.synchronize()

    def _nccl_broadcast(self, out, root: int) -> None:
        import cupy
        self._check()
        with self._op_lock, cupy.cuda.Device(out.device.id):
            comm = self._communicator(out.device.id)
            stream = cupy.cuda.get_current_stream()
            comm.broadcast(out.data.ptr, out.data.ptr, out.size, _nccl_dtype(out.dtype), root, stream.ptr)
            stream.synchronize()

    # -- failures ------------------------------------------------------------------------------
    def _check(self) -> None:
        if self._failure is not None:
            raise errors.UnavailableError(None, None, (
                f"The collective group of {self.size} workers failed earlier ({self._failure}); its collectives "
                "cannot run again. Form a new cluster: create a new MultiWorkerMirroredStrategy once every "
                "worker is back."))

    def _fail(self, what: str, exc) -> errors.UnavailableError:
        self._failure = str(exc).splitlines()[0]
        return self._unavailable(what, exc, self.timeout_s)

    def _unavailable(self, what: str, exc, timeout_s: float) -> errors.UnavailableError:
        text = str(exc).splitlines()[0]
        cause = (f"a worker did not answer within {timeout_s:g} s" if "imed out" in text else
                 "a worker's connection closed (it crashed or was killed)" if "closed" in text or "reset" in text
                 else "the engine failed")
        return errors.UnavailableError(None, None, (
            f"Collective {what} among {self.size} workers failed on rank {self.rank}: {cause}. Engine: {text} "
            "Restart the failed worker and create a new MultiWorkerMirroredStrategy in every worker."))

    def shutdown(self) -> None:
        """Close this group's connections (idempotent)."""
        with _lock:
            if self in _live_groups:
                _live_groups.remove(self)
        gloo, self._gloo = self._gloo, None
        if gloo is not None:
            try:
                gloo.shutdown()
            except Exception:  # noqa: BLE001 - closing a group whose peers are gone
                pass
        self._failure = self._failure or "shut down"


def _contiguous_copy(array):
    if _is_cuda(array):
        import cupy
        return cupy.array(array, copy=True, order="C")
    return np.array(array, copy=True, order="C")


def _like(device_array, host_array):
    """`host_array` copied to the GPU holding `device_array`."""
    import cupy
    with cupy.cuda.Device(device_array.device.id):
        return cupy.asarray(host_array)


def _is_cuda(array) -> bool:
    return type(array).__module__.startswith("cupy")


def _to_host(array):
    return array.get() if _is_cuda(array) else np.asarray(array)


_TORCH_DTYPES = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool")


def _as_torch(torch, array):
    if str(array.dtype) not in _TORCH_DTYPES:
        raise errors.UnimplementedError(None, None, (
            f"Collectives across workers support {', '.join(_TORCH_DTYPES)}; got {array.dtype}. Cast the value "
            "first (e.g. tf.cast(x, tf.float32))."))
    return torch.from_numpy(array)


def _nccl_dtype(dtype):
    from cupy.cuda import nccl
    table = {"float16": nccl.NCCL_FLOAT16, "float32": nccl.NCCL_FLOAT32, "float64": nccl.NCCL_FLOAT64,
             "int32": nccl.NCCL_INT32, "int64": nccl.NCCL_INT64}
    if str(dtype) not in table:
        raise errors.UnimplementedError(None, None, f"NCCL collectives across workers do not support {dtype}; "
                                                    f"supported: {sorted(table)}.")
    return table[str(dtype)]


def _close_all() -> None:
    for group in list(_live_groups):
        group.shutdown()
    _stores.clear()


atexit.register(_close_all)
