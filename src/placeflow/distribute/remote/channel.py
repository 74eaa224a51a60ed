"""The connection between a client and one task server: requests and replies over Python's
multiprocessing.connection (length-prefixed pickles on a TCP socket, with its HMAC challenge when the cluster
has a key).

Authentication: set PLACEFLOW_CLUSTER_KEY to the same secret in every task and client; without it the
servers accept anyone who can reach their address (as TensorFlow's gRPC servers do) — see docs/security.md.
Liveness: TCP keepalive probes an idle connection after 5 s, every 1 s, 3 times, and a request left
unacknowledged for 8 s (TCP_USER_TIMEOUT) closes the connection: a partitioned peer fails the waiting call
with UnavailableError after about 8 s; a dead one (connection reset) at once.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import struct
from multiprocessing.connection import AuthenticationError, Client, answer_challenge, deliver_challenge

from ...framework import errors
from ..cluster import split_address

KEY_VARIABLE = "PLACEFLOW_CLUSTER_KEY"
CONNECT_TIMEOUT_S = 30.0
HANDSHAKE_TIMEOUT_S = 10.0  # a peer that does not finish the key challenge within this is dropped
KEEPALIVE = tuple((getattr(socket, name), value) for name, value in
                  (("TCP_KEEPIDLE", 5), ("TCP_KEEPINTVL", 1), ("TCP_KEEPCNT", 3), ("TCP_USER_TIMEOUT", 8000))
                  if hasattr(socket, name))


def cluster_key():
    """The cluster's shared key (bytes) from PLACEFLOW_CLUSTER_KEY, or None."""
    key = os.environ.get(KEY_VARIABLE, "")
    return key.encode() if key else None


def set_io_deadline(connection, seconds: float) -> None:
    """Make a blocking send or receive on `connection` fail (OSError) after `seconds` (0: wait forever)."""
    sock = socket.socket(fileno=os.dup(connection.fileno()))
    try:
        value = struct.pack("ll", int(seconds), int((seconds % 1) * 1e6))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, value)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, value)
    finally:
        sock.close()


def handshake(connection, key, server: bool, seconds: float | None = None) -> None:
    """multiprocessing's mutual HMAC challenge on `connection` (when the cluster has a key) within `seconds`:
    AuthenticationError for a wrong key, OSError or EOFError for a peer that stalls or leaves."""
    if key is None:
        return
    set_io_deadline(connection, HANDSHAKE_TIMEOUT_S if seconds is None else seconds)
    if server:
        deliver_challenge(connection, key)
        answer_challenge(connection, key)
    else:
        answer_challenge(connection, key)
        deliver_challenge(connection, key)
    set_io_deadline(connection, 0)


def keep_alive(connection) -> None:
    """Turn on TCP keepalive for `connection`'s socket (detects a silent, partitioned peer)."""
    sock = socket.socket(fileno=os.dup(connection.fileno()))
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for option, value in KEEPALIVE:
            sock.setsockopt(socket.IPPROTO_TCP, option, value)
    finally:
        sock.close()


class TaskChannel:
    """Requests to task `task` of `job` at `address`, one at a time (a lock serializes callers)."""

    def __init__(self, job: str, task: int, address: str, timeout_s: float = CONNECT_TIMEOUT_S):
        self.job, self.task, self.address = job, task, address
        self.name = f"/job:{job}/replica:0/task:{task}"
        self._lock = threading.Lock()
        self._conn = self._connect(timeout_s)

    def _connect(self, timeout_s: float):
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                connection = Client(split_address(self.address), family="AF_INET", authkey=None)
                try:
                    handshake(connection, cluster_key(), server=False)
                except (EOFError, OSError):
                    connection.close()
                    raise errors.UnavailableError(None, None, (
                        f"Task {self.name} at {self.address} did not complete the key challenge within "
                        f"{HANDSHAKE_TIMEOUT_S:.0f} s (is it a placeflow server, and is it overloaded?).")) from None
                keep_alive(connection)
                return connection
            except AuthenticationError:
                raise errors.UnauthenticatedError(None, None, (
                    f"Task {self.name} at {self.address} refused this client's key. Set {KEY_VARIABLE} to the "
                    "same secret in every task and client (or unset it everywhere).")) from None
            except OSError as exc:
                if time.monotonic() > deadline:
                    raise errors.UnavailableError(None, None, (
                        f"Could not connect to task {self.name} at {self.address} within {timeout_s:.0f} s: "
                        f"{exc}. Start its tf.distribute.Server first (and check TF_CONFIG's address).")) from None
                time.sleep(0.1)

    def request(self, *message):
        """Send `message` and return the task's reply; the task's error is raised here."""
        with self._lock:
            try:
                self._conn.send(message)
                status, value = self._conn.recv()
            except (EOFError, OSError) as exc:
                raise errors.UnavailableError(None, None, (
                    f"Task {self.name} at {self.address} is unreachable ({type(exc).__name__}: {exc}): it stopped, "
                    "crashed or the network failed. Restart it and connect again.")) from None
        if status == "error":
            raise value
        return value

    # -- what a client asks ----------------------------------------------------------------------
    def devices(self) -> list:
        """[(device type, index)] of the task's devices."""
        return self.request("devices")

    def run_op(self, device: str, op: str, args, attrs, name):
        """`op` run eagerly on the task's `device`; its outputs' values."""
        return self.request("op", device, op, args, attrs, name)

    def ship_segment(self, key: str, payload: bytes) -> None:
        """Send a plan segment's ops to the task, once."""
        self.request("ship", key, payload)

    def run_segment(self, key: str, values) -> list:
        """Run a shipped segment on `values`; its outputs' values."""
        return self.request("run", key, values)

    def close(self) -> None:
        """Close the connection (the task forgets this client's segments)."""
        try:
            self._conn.close()
        except OSError:
            pass
