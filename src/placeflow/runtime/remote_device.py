"""A device of another task of the cluster (`/job:worker/replica:0/task:1/device:CPU:0`), seen from a client.

Its kernels run in that task: `run` sends the op and its input values over the task's channel and returns
the outputs' values, which the client keeps (so a remote eager tensor reads without another call). Graph
plans never run its nodes one by one: the plan ships each task's part once and calls it once per step
(graph/remote_segments.py). The channel (distribute/remote) owns the connection.
"""

from __future__ import annotations

import numpy as np

from ..framework.device_spec import DeviceSpec
from .device import Device


class RemoteDevice(Device):
    """A device of task `task` of job `job`, reached through `channel`."""

    __slots__ = ("channel", "local_name", "job", "task")
    remote = True

    def __init__(self, job: str, task: int, device_type: str, index: int, channel, host):
        self.info = None
        self.job, self.task, self.channel = job, task, channel
        self.name = f"/job:{job}/replica:0/task:{task}/device:{device_type}:{index}"
        self.short_name = f"{device_type}:{index}"
        self.local_name = f"/device:{device_type}:{index}"  # the same device as its own task names it
        self.device_type, self.index = device_type, index
        self.spec = DeviceSpec.from_string(self.name)
        self.memory, self.charge = host.memory, host.charge  # the values kept here count to this host's memory

    def run(self, op: str, fn, args, attrs=None, name=None, presize=None, dtype=None):
        """Run `op` in the device's task on `args` (values): its outputs' values, kept here."""
        out = self.channel.run_op(self.local_name, op, [np.asarray(a) for a in args], attrs or {}, name)
        return tuple(self.charge(o) for o in out) if isinstance(out, tuple) else self.charge(out)

    def node_call(self, op: str, fn, attrs, presize=None, name=None, dtype=None):
        """Refused: plans run a remote task's nodes as one shipped segment, never node by node."""
        raise NotImplementedError(f"{op} on {self.name} must run in a shipped segment (graph/remote_segments).")

    def __repr__(self) -> str:
        return f"<RemoteDevice {self.name}>"
