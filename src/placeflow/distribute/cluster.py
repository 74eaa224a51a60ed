"""A cluster's description: tf.train.ClusterSpec (jobs of tasks at network addresses), and the cluster resolvers
that find it — TFConfigClusterResolver (the TF_CONFIG environment variable) and SimpleClusterResolver."""

from __future__ import annotations

import json
import os

WORKER_JOBS = ("chief", "worker")  # the jobs whose tasks train together, in rank order


def worker_tasks(cluster_spec) -> list:
    """(job, index) of the cluster's chief and worker tasks in rank order: the chief first, then the workers."""
    spec = cluster_spec if isinstance(cluster_spec, ClusterSpec) else ClusterSpec(cluster_spec)
    return [(job, index) for job in WORKER_JOBS if job in spec.jobs for index in spec.task_indices(job)]


def split_address(address: str) -> tuple:
    """('host', port) of 'host:port' (also '[v6]:port' and 'grpc://host:port')."""
    text = address.split("://", 1)[-1]
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"Cluster address {address!r} is not 'host:port'; TF_CONFIG's cluster lists addresses "
                         f"like 'localhost:12345'.")
    if not 0 <= int(port) <= 65535:
        raise ValueError(f"Cluster address {address!r} has port {int(port)}, outside 0-65535; fix TF_CONFIG's "
                         "cluster (addresses like 'localhost:12345').")
    return host.strip("[]") or "localhost", int(port)


class ClusterSpec:
    """Job names mapped to their tasks' addresses: a list (task i at position i) or a dict {task index: address}."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        from ..api.cluster_def import ClusterDef, jobs_of
        if isinstance(cluster, ClusterDef):
            cluster = jobs_of(cluster)
        if not isinstance(cluster, dict):
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to lists of network "
                            f"addresses, or a `ClusterDef` protocol buffer; got {cluster!r}.")
        self._jobs: dict = {}
        for job, tasks in cluster.items():
            if isinstance(tasks, (list, tuple)):
                self._jobs[str(job)] = {i: str(address) for i, address in enumerate(tasks)}
            elif isinstance(tasks, dict):
                for index in tasks:
                    if not isinstance(index, int) or isinstance(index, bool):
                        raise ValueError(f"Task index {index!r} of job {job!r} is not an integer.")
                self._jobs[str(job)] = {int(i): str(address) for i, address in sorted(tasks.items())}
            else:
                raise TypeError(f"The tasks for job {job!r} must be a list or a dictionary from integers to "
                                f"addresses; got {tasks!r}.")

    @property
    def jobs(self) -> list:
        """The job names."""
        return list(self._jobs)

    def _tasks(self, job_name) -> dict:
        if job_name not in self._jobs:
            raise ValueError(f"No such job in cluster: {job_name!r}. Jobs: {sorted(self._jobs)}.")
        return self._jobs[job_name]

    def num_tasks(self, job_name) -> int:
        """How many tasks `job_name` has."""
        return len(self._tasks(job_name))

    def task_indices(self, job_name) -> list:
        """The task indices of `job_name`, sorted."""
        return sorted(self._tasks(job_name))

    def task_address(self, job_name, task_index) -> str:
        """The address of task `task_index` of `job_name`."""
        tasks = self._tasks(job_name)
        if task_index not in tasks:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}; its tasks are "
                             f"{sorted(tasks)}.")
        return tasks[task_index]

    def job_tasks(self, job_name) -> list:
        """The addresses of `job_name`'s tasks by index, None where an index has no task."""
        tasks = self._tasks(job_name)
        if not tasks:
            return []
        return [tasks.get(i) for i in range(max(tasks) + 1)]

    def as_dict(self) -> dict:
        """The cluster as a dict: a list of addresses for a job whose tasks are 0..n-1, else {index: address}."""
        out = {}
        for job, tasks in self._jobs.items():
            dense = sorted(tasks) == list(range(len(tasks)))
            out[job] = [tasks[i] for i in range(len(tasks))] if dense else dict(tasks)
        return out

    def as_cluster_def(self):
        """The cluster as a tf.train.ClusterDef message (jobs by name)."""
        from ..api.cluster_def import cluster_def_of
        return cluster_def_of(self._jobs)

    def __bool__(self) -> bool:
        return bool(self._jobs)

    def __eq__(self, other) -> bool:
        return isinstance(other, ClusterSpec) and self._jobs == other._jobs

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        return f"ClusterSpec({self.as_dict()!r})"


class ClusterResolver:
    """Base: the cluster, this process's task, and the master address of a task."""

    task_type = task_id = None
    rpc_layer = None
    environment = ""

    def cluster_spec(self) -> ClusterSpec:
        """The cluster."""
        raise NotImplementedError(f"{type(self).__name__} must implement cluster_spec().")

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """The address of a task ('' when it is not known), prefixed by '<rpc_layer>://' when one is set."""
        raise NotImplementedError(f"{type(self).__name__} must implement master().")

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        """The accelerators of this process, by type ({'GPU': n}; empty without any)."""
        from ..config import api
        gpus = len(api.list_logical_devices("GPU"))
        return {"GPU": gpus} if gpus else {}


def _with_layer(address, rpc_layer) -> str:
    return f"{rpc_layer}://{address}" if rpc_layer else address


class SimpleClusterResolver(ClusterResolver):
    """A cluster given directly: a ClusterSpec, this task's type and index, and a master address."""

    def __init__(self, cluster_spec, master="", task_type=None, task_id=None, environment="", num_accelerators=None,
                 rpc_layer=None):
        if not isinstance(cluster_spec, ClusterSpec):
            raise TypeError("cluster_spec must be a `tf.train.ClusterSpec`.")
        self._cluster_spec, self._master = cluster_spec, str(master)
        self.task_type, self.task_id, self.environment = task_type, task_id, environment
        self.rpc_layer, self._accelerators = rpc_layer, num_accelerators

    def cluster_spec(self) -> ClusterSpec:
        """The cluster given."""
        return self._cluster_spec

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """The given master, or the address of task (task_type, task_id)."""
        layer = rpc_layer if rpc_layer is not None else self.rpc_layer
        if task_type is not None and task_id is not None:
            return _with_layer(self._cluster_spec.task_address(task_type, task_id), layer)
        return _with_layer(self._master, layer)

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        """The accelerators given, else those of this process."""
        return dict(self._accelerators) if self._accelerators is not None else super().num_accelerators()


class TFConfigClusterResolver(ClusterResolver):
    """The cluster and this task from the TF_CONFIG environment variable (JSON: cluster, task, rpc_layer,
    environment), read when asked, as TensorFlow does."""

    def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
        self._task_type, self._task_id, self._rpc_layer, self._environment = task_type, task_id, rpc_layer, \
            environment

    @staticmethod
    def _config() -> dict:
        text = os.environ.get("TF_CONFIG", "")
        if not text:
            return {}
        try:
            config = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"TF_CONFIG is not valid JSON ({error}): {text!r}") from None
        if not isinstance(config, dict):
            raise ValueError(f"TF_CONFIG must hold a JSON object, got {text!r}.")
        return config

    @property
    def task_type(self):
        """This task's job (TF_CONFIG's task.type unless given)."""
        return self._task_type if self._task_type is not None else self._config().get("task", {}).get("type")

    @task_type.setter
    def task_type(self, value) -> None:
        self._task_type = value

    @property
    def task_id(self):
        """This task's index (TF_CONFIG's task.index unless given)."""
        if self._task_id is not None:
            return self._task_id
        index = self._config().get("task", {}).get("index")
        return None if index is None else int(index)

    @task_id.setter
    def task_id(self, value) -> None:
        self._task_id = value

    @property
    def rpc_layer(self):
        """The RPC layer (TF_CONFIG's rpc_layer unless given)."""
        return self._rpc_layer if self._rpc_layer is not None else self._config().get("rpc_layer")

    @rpc_layer.setter
    def rpc_layer(self, value) -> None:
        self._rpc_layer = value

    @property
    def environment(self):
        """TF_CONFIG's environment (e.g. 'cloud'), or None."""
        return self._environment if self._environment is not None else self._config().get("environment")

    def cluster_spec(self) -> ClusterSpec:
        """The cluster TF_CONFIG describes (empty without TF_CONFIG)."""
        return ClusterSpec(self._config().get("cluster", {}))

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """The address of task (task_type, task_id), by default this task's; '' when unknown."""
        task_type = task_type if task_type is not None else self.task_type
        task_id = task_id if task_id is not None else self.task_id
        spec = self.cluster_spec()
        if task_type is None or task_id is None or task_type not in spec.jobs:
            return ""
        return _with_layer(spec.task_address(task_type, task_id), rpc_layer or self.rpc_layer)
