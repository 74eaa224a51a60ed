"""tf.distribute.Server: a task of a cluster serving its devices to clients at its ClusterSpec address.

Each client connection gets a thread. It answers: the task's devices; one eager op on one of them; a plan
segment to keep (graph/remote_segments rebuilds it into a graph run by a Session of this task); a run of a
kept segment. Errors travel back as the same TensorFlow error classes. The listener binds the task's own
host and port from the ClusterSpec and nothing else.
"""

from __future__ import annotations

import logging
import pickle
import socket
import threading
from multiprocessing.connection import Listener

import numpy as np

from ...config import context as context_module
from ...framework import errors
from ...graph import remote_segments
from ...graph.session import Session
from ...ops.registry import op_def
from ...placement import cluster_devices
from ...runtime import registry
from ..cluster import ClusterSpec, split_address
from .channel import KEY_VARIABLE, cluster_key, handshake, keep_alive

log = logging.getLogger("placeflow.distribute")


class Server:
    """An in-process server of task `task_index` of `job_name` in `server_or_cluster_def` (TF's signature)."""

    def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None, config=None,
                 start=True):
        if protocol not in (None, "grpc"):
            raise ValueError(f"protocol {protocol!r} is not supported; placeflow's servers speak one protocol "
                             "(accepted as 'grpc' for TensorFlow programs).")
        if config is not None:
            raise NotImplementedError("Server(config=...) is not implemented in placeflow: configure the task's "
                                      "devices with tf.config in its own process.")
        self._cluster = ClusterSpec(server_or_cluster_def)
        self._job = job_name if job_name is not None else _only(self._cluster.jobs, "job_name", "jobs")
        indices = self._cluster.task_indices(self._job)
        self._task = int(task_index) if task_index is not None else _only(indices, "task_index", "tasks")
        self._address = self._cluster.task_address(self._job, self._task)
        self._listener = None
        self._stopped = threading.Event()
        if start:
            self.start()

    @staticmethod
    def create_local_server(config=None, start=True) -> "Server":
        """A one-task server on a free port of localhost."""
        with socket.socket() as probe:
            probe.bind(("localhost", 0))
            port = probe.getsockname()[1]
        return Server({"localhost": [f"localhost:{port}"]}, protocol="grpc", config=config, start=start)

    @property
    def target(self) -> str:
        """'grpc://host:port': where clients reach this task."""
        return f"grpc://{self._address}"

    @property
    def server_def(self) -> dict:
        """The cluster, job, task and protocol this server was made with (a dict; no protocol buffers)."""
        return {"cluster": self._cluster.as_dict(), "job_name": self._job, "task_index": self._task,
                "protocol": "grpc"}

    def start(self) -> None:
        """Listen at this task's address and serve clients on background threads (idempotent)."""
        if self._listener is not None:
            return
        key = cluster_key()
        try:
            # no authkey here: Listener.accept would run the key challenge inline, so one silent connection
            # would stop every other client; each connection's own thread runs it, with a deadline
            self._listener = Listener(split_address(self._address), family="AF_INET", backlog=64, authkey=None)
            self._key = key
        except OSError as exc:
            raise errors.UnavailableError(None, None, (
                f"Could not start the server of /job:{self._job}/task:{self._task} at {self._address}: {exc}. "
                "Another process probably serves that address.")) from None
        if key is None:
            log.warning("The server of /job:%s/task:%d at %s accepts every client, as TensorFlow's do: anyone who "
                        "reaches this address can run code in this process. Set %s to a shared secret in every "
                        "task and client to require it.", self._job, self._task, self._address, KEY_VARIABLE)
        cluster_devices.set_identity(self._job, self._task)
        threading.Thread(target=self._accept, name=f"server-{self._job}-{self._task}", daemon=True).start()

    def join(self) -> None:
        """Block until the server stops (TensorFlow's servers never do: this is how a task waits forever)."""
        self._stopped.wait()

    def _stop(self) -> None:
        """Stop listening (placeflow's; TensorFlow's servers have no stop). Connected clients keep their threads."""
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
        self._stopped.set()

    def _accept(self) -> None:
        listener = self._listener
        while listener is not None and not self._stopped.is_set():
            try:
                connection = listener.accept()
            except Exception:  # noqa: BLE001 - closed listener, or a client that failed the key challenge
                if self._stopped.is_set():
                    return
                continue
            threading.Thread(target=_authenticate_and_serve, args=(connection, self._key), name="server-client",
                             daemon=True).start()

    def __repr__(self) -> str:
        return f"<tf.distribute.Server /job:{self._job}/task:{self._task} at {self._address}>"


def _only(values, argument, what):
    values = list(values)
    if len(values) != 1:
        raise ValueError(f"`{argument}` must be given when the cluster has several {what} ({values}).")
    return values[0]


def _authenticate_and_serve(connection, key) -> None:
    """The key challenge (bounded by channel.HANDSHAKE_TIMEOUT_S), then the client's requests."""
    try:
        handshake(connection, key, server=True)
    except Exception:  # noqa: BLE001 - a wrong key, a stalled or vanished peer: drop it, never the server
        connection.close()
        return
    keep_alive(connection)
    _serve(connection)


def _serve(connection) -> None:
    """Answer one client's requests until it disconnects; its segments are dropped then."""
    segments: dict = {}
    with connection:
        while True:
            try:
                message = connection.recv()
            except (EOFError, OSError):
                return
            try:
                reply = ("ok", _answer(message, segments))
            except errors.OpError as exc:
                reply = ("error", _sendable(exc))
            except Exception as exc:  # noqa: BLE001 - a malformed request: TF's class, naming the problem
                reply = ("error", errors.InvalidArgumentError(None, None, (
                    f"Malformed request to a placeflow server ({_describe(message)}): {type(exc).__name__}: {exc}")))
            try:
                connection.send(reply)
            except (OSError, ValueError):
                return


def _answer(message, segments):
    kind, *payload = message
    if kind == "devices":
        return [(d.device_type, d.index) for d in registry.devices(_context())]
    if kind == "op":
        return _run_op(*payload)
    if kind == "ship":
        key, records = payload
        graph, feeds, fetches = remote_segments.rebuild(records)
        segments[key] = (Session(graph=graph), feeds, fetches)
        return None
    if kind == "run":
        key, values = payload
        session, feeds, fetches = segments[key]
        return [np.asarray(v) for v in session.run(fetches, feed_dict=dict(zip(feeds, values)))]
    raise errors.InvalidArgumentError(None, None, f"Unknown request {kind!r} to a placeflow server.")


def _run_op(device_name, op, args, attrs, name):
    """One eager op on this task's device `device_name` (the client chose the kernel's device type)."""
    device = registry.find(_context(), f"/job:localhost/replica:0/task:0{device_name}")
    if device is None:
        raise errors.InvalidArgumentError(None, None, f"This task has no device {device_name!r}.")
    kernel = op_def(op).kernels[device.device_type]
    out = device.run(op, kernel.fn, [device.upload(a) for a in args], attrs or None, name, kernel.presize)
    if isinstance(out, tuple):
        return tuple(device.to_host(o) for o in out)
    return device.to_host(out)


def _context():
    return context_module._context or context_module.context()


def _describe(message) -> str:
    kind = message[0] if isinstance(message, tuple) and message else message
    return f"request {kind!r}"[:200]


def _sendable(exc):
    """`exc` if it pickles, else an InternalError carrying its text."""
    try:
        pickle.dumps(exc)
        return exc
    except Exception:  # noqa: BLE001
        return errors.InternalError(None, None, f"{type(exc).__name__}: {exc}")
