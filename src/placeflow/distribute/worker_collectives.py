"""Collectives between worker processes (MultiWorkerMirroredStrategy), on existing engines.

- Host arrays (CPUs, simulated GPUs): gloo through torch.distributed (the optional `distributed` extra).
- CUDA arrays: NCCL through CuPy (`cupy.cuda.nccl`), its unique id exchanged through the same store.

Rendezvous (rendezvous.py): a key-value store (torch's TCPStore) served by the chief (or worker 0) at its own
TF_CONFIG address. The workers meet there in rounds: a worker that dies while the group forms, or is
restarted, moves everyone to a new round with fresh keys, so a restart never meets the stale addresses of
the last group; forming waits for every worker up to the rendezvous timeout (60 s unless configured).

Faults: every collective has a deadline (10 s unless configured; gloo's own default is 30 minutes). A
peer that dies closes its connections and the survivors' collective raises UnavailableError at once; a
peer that stops answering raises it at the deadline. A failed group stays failed: form a new one.
"""

from __future__ import annotations

import atexit
import datetime
import os
import threading

import numpy as np

from ..framework import errors
from . import rendezvous

DEFAULT_TIMEOUT_S = 10.0
RENDEZVOUS_TIMEOUT_S = 60.0

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


_torch_distributed = rendezvous.torch_distributed
rendezvous_store = rendezvous.rendezvous_store  # the chief's store (tests reach it here)


def form_group(address: str, rank: int, size: int, host: str, timeout_s: float = DEFAULT_TIMEOUT_S,
               rendezvous_timeout_s: float = RENDEZVOUS_TIMEOUT_S, use_nccl: bool = False, hello: str = "",
               names=None) -> "WorkerGroup":
    """The group of `size` workers meeting at the chief's `address`, this one `rank` (its gloo connections on
    `host`); waits for the others up to `rendezvous_timeout_s`. `hello`: this rank's text, which every rank
    gets in rank order (WorkerGroup.hellos); `names` name the ranks in errors."""

    def connect(store, prefix, seconds):
        return _gloo_group(store, prefix, rank, size, host, min(timeout_s, seconds), timeout_s)
    formed = rendezvous.form(address, rank, size, rendezvous_timeout_s, connect, hello, names)
    formed.store.set_timeout(datetime.timedelta(seconds=timeout_s))  # exchanges then wait as collectives do
    return WorkerGroup(formed.store, rank, size, formed.prefix, formed.engine, timeout_s, use_nccl, formed.hellos)


def _gloo_group(store, prefix: str, rank: int, size: int, host: str, connect_s: float, timeout_s: float):
    """gloo's process group under `prefix` of `store`: every rank connects within `connect_s` seconds (they
    have all marked the round, so a rank still missing then has died); its collectives' deadline timeout_s."""
    _, dist = _torch_distributed()
    options = dist.ProcessGroupGloo._Options()
    options._timeout = datetime.timedelta(seconds=connect_s)
    options._devices = [dist.ProcessGroupGloo.create_device(hostname=host)]
    store.set_timeout(datetime.timedelta(seconds=connect_s))
    group = dist.ProcessGroupGloo(dist.PrefixStore(f"{prefix}/gloo", store), rank, size, options)
    group._set_default_timeout(datetime.timedelta(seconds=timeout_s))
    return group


class WorkerGroup:
    """`size` worker processes, this one `rank`, meeting for all-reduce, broadcast and all-gather."""

    def __init__(self, store, rank: int, size: int, prefix: str, gloo, timeout_s: float = DEFAULT_TIMEOUT_S,
                 use_nccl: bool = False, hellos=None):
        self.rank, self.size, self.timeout_s, self.use_nccl = rank, size, timeout_s, use_nccl
        self._store, self.prefix, self._gloo = store, prefix, gloo
        self.hellos = list(hellos or [])
        self._failure = None
        self._nccl = {}
        self._op_lock = threading.Lock()  # one collective at a time per process (their order is the plans')
        with _lock:
            _live_groups.append(self)

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
        cause = (f"a worker did not answer within {timeout_s:g} s" if "imed out" in text or "timeout" in text else
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
    rendezvous.close_stores()


atexit.register(_close_all)
