"""Device names with `/job:` and `/task:` resolved against the cluster this process belongs to or reaches.

- This process's own task (set when it serves a task, or joins a MultiWorkerMirroredStrategy): names of
  that job and task mean this process's devices, e.g. '/job:worker/task:1/device:CPU:0' in task 1.
- Other tasks (after `tf.config.experimental_connect_to_cluster`): their remote devices join the
  candidates of a request naming a job; unqualified names still mean this process's devices, as TF's.
The distribute layer registers both (it owns the cluster and the connections).
"""

from __future__ import annotations

import threading

from ..framework.device_spec import LOCAL_JOB, DeviceSpec

_lock = threading.Lock()
_identity = None          # (job, task) of this process in its cluster
_remote: list = []        # RemoteDevice objects of the connected tasks


def set_identity(job, task) -> None:
    """This process serves task `task` of `job` (None, None: it has no place in a cluster)."""
    global _identity
    with _lock:
        _identity = None if job is None else (str(job), int(task or 0))


def identity():
    """(job, task) of this process, or None."""
    return _identity


def set_remote_devices(devices) -> None:
    """The devices of every connected remote task (replacing earlier connections')."""
    global _remote
    with _lock:
        _remote = list(devices)


def remote_devices() -> list:
    """The connected remote tasks' devices."""
    return list(_remote)


def resolve(spec: DeviceSpec):
    """(spec, extra candidate devices): this task's job and task dropped from `spec`; the remote devices
    added when `spec` names another job or task."""
    if spec.job is None or spec.job == LOCAL_JOB and spec.task in (None, 0):
        return spec, ()
    if _identity is not None and (spec.job, spec.task if spec.task is not None else 0) == _identity:
        return spec.replace(job=None, replica=None, task=None), ()
    return spec, tuple(d for d in _remote if d.spec.job == spec.job)
