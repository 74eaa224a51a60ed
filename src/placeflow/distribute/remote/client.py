"""tf.config.experimental_connect_to_cluster / _to_host: make other tasks' devices usable from this process.

After connecting, '/job:worker/task:1/device:CPU:0' names a device of that task: eager ops under it run there
(one request per op; the outputs' values come back and stay readable here), and a `function` or Session
graph ships each task's ops once and runs them with one request per step. Unqualified device names keep
meaning this process's devices, as in TensorFlow.
"""

from __future__ import annotations

import threading

from ...config import api as config_api
from ...config import context as context_module
from ...config.logical import LogicalDevice
from ...placement import cluster_devices
from ...runtime import registry
from ...runtime.remote_device import RemoteDevice
from ..cluster import ClusterResolver, ClusterSpec
from .channel import TaskChannel

LOCAL_JOB = "localhost"
_lock = threading.Lock()
_channels: list = []


def connect_to_cluster(cluster_spec_or_resolver, job_name=LOCAL_JOB, task_index=0, protocol=None,
                       make_master_device_default=True, cluster_device_filters=None) -> None:
    """Connect to every task of the cluster except this one (`job_name`, `task_index`); list their devices."""
    if protocol not in (None, "grpc"):
        raise ValueError(f"protocol {protocol!r} is not supported; placeflow's servers speak one protocol.")
    if cluster_device_filters is not None:
        raise NotImplementedError("cluster_device_filters is not implemented in placeflow: every task of the "
                                  "cluster is connected.")
    spec = _cluster_spec(cluster_spec_or_resolver)
    tasks = [(job, index) for job in spec.jobs for index in spec.task_indices(job)
             if (job, index) != (job_name, task_index)]
    ctx = context_module._context or context_module.context()
    host = next(d for d in registry.devices(ctx) if d.device_type == "CPU")
    channels, devices = [], []
    try:
        for job, index in tasks:
            channels.append(TaskChannel(job, index, spec.task_address(job, index)))
            devices += [RemoteDevice(job, index, kind, number, channels[-1], host)
                        for kind, number in channels[-1].devices()]
    except BaseException:
        for channel in channels:  # a task that cannot be reached: the connections made so far are closed
            channel.close()
        raise
    with _lock:
        for old in _channels:
            old.close()
        _channels[:] = channels
        cluster_devices.set_identity(None if job_name == LOCAL_JOB else job_name, task_index)
        cluster_devices.set_remote_devices(devices)
        config_api.cluster_logical_devices = _logical_devices
        ctx.placement_cache.clear()


def connect_to_host(remote_host=None, job_name="worker") -> None:
    """Connect to the tasks at `remote_host` (an address or a list of them) as job `job_name`."""
    if remote_host is None:
        raise ValueError("Must provide at least one remote_host")
    hosts = [remote_host] if isinstance(remote_host, str) else list(remote_host)
    connect_to_cluster(ClusterSpec({job_name: [h.split("://", 1)[-1] for h in hosts]}))


def disconnect() -> None:
    """Close every connection and forget the remote devices (placeflow's; used between tests)."""
    with _lock:
        for channel in _channels:
            channel.close()
        _channels.clear()
        cluster_devices.set_remote_devices([])
        cluster_devices.set_identity(None, None)
        config_api.cluster_logical_devices = None
        ctx = context_module._context
        if ctx is not None:
            ctx.placement_cache.clear()


def _logical_devices() -> list:
    return [LogicalDevice(d.name, d.device_type) for d in cluster_devices.remote_devices()]


def _cluster_spec(value) -> ClusterSpec:
    if isinstance(value, ClusterResolver):
        return value.cluster_spec()
    if isinstance(value, (ClusterSpec, dict)):
        return ClusterSpec(value)
    raise ValueError(f"`cluster_spec_or_resolver` must be a `ClusterSpec` or a `ClusterResolver`; got {value!r}.")
