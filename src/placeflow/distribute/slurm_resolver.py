"""tf.distribute.cluster_resolver: the resolvers of cluster.py (ClusterResolver, SimpleClusterResolver,
TFConfigClusterResolver) and more: SlurmClusterResolver (the cluster of a Slurm job step, from its environment
variables), UnionResolver (several resolvers' clusters merged) and KubernetesClusterResolver (refused by name:
it needs the Kubernetes client and a cluster to ask). GCEClusterResolver and TPUClusterResolver are refused by
name by the namespace (placeflow has no GCE or TPU access).

Slurm: SLURM_PROCID is this task's rank, SLURM_STEP_NUM_TASKS the task count, SLURM_STEP_NODELIST the nodes
('node[01-03],gpu7') and SLURM_STEP_TASKS_PER_NODE their task counts ('2(x3),1'). Nodes are taken in sorted
order, a node's tasks listen on port_base, port_base + 1, ...; the jobs (sorted by name) take the tasks in rank
order. Each task gets `gpus_per_task` GPUs of its node, in order of its place on the node, exported as
CUDA_VISIBLE_DEVICES when the cluster is resolved (auto_set_gpu).
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess

from .cluster import ClusterResolver, ClusterSpec, _with_layer
from .cluster import SimpleClusterResolver, TFConfigClusterResolver  # noqa: F401 - the namespace's


def expand_hostlist(hostlist: str) -> list:
    """Slurm's compressed host list ('a1,b[3-4,7]') as host names (['a1', 'b3', 'b4', 'b7'])."""
    hosts = []
    for item in re.findall(r"(?:[^,\[]|\[[^\]]*\])+", hostlist):
        parts = re.split(r"(\[[^\]]*\])", item)
        choices = [_expand_range(p[1:-1]) if p.startswith("[") else [p] for p in parts if p]
        hosts.extend("".join(combo) for combo in itertools.product(*choices))
    return hosts


def _expand_range(ranges: str) -> list:
    out = []
    for piece in ranges.split(","):
        low, _, high = piece.partition("-")
        if not high:
            out.append(low)
            continue
        if not (low.isdigit() and high.isdigit()) or int(high) < int(low):
            raise ValueError(f"Bad Slurm host range {piece!r} in [{ranges}]: expected 'low-high' digits.")
        out.extend(str(n).zfill(len(low)) for n in range(int(low), int(high) + 1))
    return out


def expand_tasks_per_node(text: str) -> list:
    """Slurm's tasks per node ('2(x3),1') as one count per node ([2, 2, 2, 1])."""
    counts = []
    for item in text.split(","):
        match = re.fullmatch(r"\s*(\d+)(?:\(x(\d+)\))?\s*", item)
        if match is None:
            raise ValueError(f"Bad SLURM_STEP_TASKS_PER_NODE entry {item!r} in {text!r}: expected 'n' or 'n(xk)'.")
        counts.extend([int(match.group(1))] * int(match.group(2) or 1))
    return counts


def _slurm_variable(name: str) -> str:
    if name not in os.environ:
        raise RuntimeError(f"{name} not found in environment. Not running inside a SLURM step? Run under srun, "
                           "or pass the values to SlurmClusterResolver (jobs, tasks_per_node, gpus_per_node).")
    return os.environ[name]


def _gpus_on_node() -> int:
    """GPUs of this node: CUDA_VISIBLE_DEVICES's count when set, else nvidia-smi's list."""
    if "CUDA_VISIBLE_DEVICES" in os.environ:
        visible = os.environ["CUDA_VISIBLE_DEVICES"].strip()
        return len(visible.split(",")) if visible else 0
    if shutil.which("nvidia-smi") is None:
        raise RuntimeError("SlurmClusterResolver could not count this node's GPUs: CUDA_VISIBLE_DEVICES is not set "
                           "and nvidia-smi is not installed. Pass gpus_per_node= (0 without GPUs).")
    listing = subprocess.run(["nvidia-smi", "--list-gpus"], capture_output=True, text=True, timeout=60,
                             check=True).stdout
    return sum(1 for line in listing.splitlines() if line.startswith("GPU"))


class SlurmClusterResolver(ClusterResolver):
    """The cluster of the current Slurm job step (tf.distribute.cluster_resolver.SlurmClusterResolver)."""

    def __init__(self, jobs=None, port_base=8888, gpus_per_node=None, gpus_per_task=None, tasks_per_node=None,
                 auto_set_gpu=True, rpc_layer="grpc"):
        self._rank = int(_slurm_variable("SLURM_PROCID"))
        self._jobs = dict(jobs) if jobs is not None else {"worker": int(_slurm_variable("SLURM_STEP_NUM_TASKS"))}
        self._port_base, self._auto_set_gpu, self.rpc_layer = int(port_base), auto_set_gpu, rpc_layer
        self._tasks_per_node = self._node_tasks(tasks_per_node)
        self._gpus_per_node = _gpus_on_node() if gpus_per_node is None else int(gpus_per_node)
        most = max(self._tasks_per_node.values(), default=1) or 1
        self._gpus_per_task = self._gpus_per_node // most if gpus_per_task is None else int(gpus_per_task)
        if self._gpus_per_task * most > self._gpus_per_node:
            raise RuntimeError(f"Requested more GPUs per node than available: {self._gpus_per_task} per task for "
                               f"{most} tasks on a node with {self._gpus_per_node}. Lower gpus_per_task.")
        requested, assigned = sum(self._jobs.values()), sum(self._tasks_per_node.values())
        if requested != assigned:
            raise RuntimeError(f"Requested {requested} tasks but only {assigned} were assigned: the jobs {self._jobs} "
                               "must add up to the job step's tasks (SLURM_STEP_TASKS_PER_NODE / tasks_per_node).")
        if not 0 <= self._rank < assigned:
            raise RuntimeError(f"SLURM_PROCID {self._rank} is outside the job step's {assigned} tasks.")
        self.task_type = self.task_id = None

    @staticmethod
    def _node_tasks(tasks_per_node) -> dict:
        """{host: task count}: as given (a dict, or a count for every host) or from the Slurm environment."""
        if isinstance(tasks_per_node, dict):
            return {str(host): int(count) for host, count in tasks_per_node.items()}
        hosts = expand_hostlist(_slurm_variable("SLURM_STEP_NODELIST"))
        if tasks_per_node is not None:
            return dict.fromkeys(hosts, int(tasks_per_node))
        counts = expand_tasks_per_node(_slurm_variable("SLURM_STEP_TASKS_PER_NODE"))
        if len(counts) != len(hosts):
            raise RuntimeError(f"SLURM_STEP_TASKS_PER_NODE gives {len(counts)} nodes, SLURM_STEP_NODELIST "
                               f"{len(hosts)}: they must describe the same nodes.")
        return dict(zip(hosts, counts))

    def _tasks(self) -> list:
        """(address, GPU ids) of every task in rank order."""
        tasks = []
        for host in sorted(self._tasks_per_node):
            for local in range(self._tasks_per_node[host]):
                gpus = range(local * self._gpus_per_task, (local + 1) * self._gpus_per_task)
                tasks.append((f"{host}:{self._port_base + local}", ",".join(map(str, gpus))))
        return tasks

    def cluster_spec(self) -> ClusterSpec:
        """The job step's cluster; sets this task's type and index (and CUDA_VISIBLE_DEVICES with auto_set_gpu)."""
        tasks = self._tasks()
        cluster, rank = {}, 0
        for job in sorted(self._jobs):
            cluster[job] = [address for address, _ in tasks[rank:rank + self._jobs[job]]]
            if rank <= self._rank < rank + self._jobs[job]:
                self.task_type, self.task_id = job, self._rank - rank
            rank += self._jobs[job]
        if self._auto_set_gpu:
            os.environ["CUDA_VISIBLE_DEVICES"] = tasks[self._rank][1]
        return ClusterSpec(cluster)

    def get_task_info(self) -> tuple:
        """(task type, task index) of this process (None, None before cluster_spec() is called)."""
        return self.task_type, self.task_id

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """The address of task (task_type, task_id), by default this task's; '' before the cluster is known."""
        task_type = task_type if task_type is not None else self.task_type
        task_id = task_id if task_id is not None else self.task_id
        if task_type is None or task_id is None:
            return ""
        address = self.cluster_spec().task_address(task_type, task_id)
        return _with_layer(address, rpc_layer or self.rpc_layer)  # '' too means the default, as in TF

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        """{'GPU': the GPUs each task gets}."""
        return {"GPU": self._gpus_per_task}


class UnionResolver(ClusterResolver):
    """Several resolvers as one: their jobs merged; this task, master and accelerators from the first."""

    def __init__(self, *resolvers, task_type=None, task_id=None, rpc_layer=None):
        if not resolvers:
            raise ValueError("At least one ClusterResolver is required.")
        for resolver in resolvers:
            if not isinstance(resolver, ClusterResolver):
                raise TypeError(f"All arguments must be a sub-class of `ClusterResolver.`; got {resolver!r}.")
        self._resolvers, self._task_type, self._task_id, self._rpc_layer = resolvers, task_type, task_id, rpc_layer

    task_type = property(lambda self: self._task_type if self._task_type is not None else
                         self._resolvers[0].task_type, lambda self, value: setattr(self, "_task_type", value),
                         doc="This task's job (the first resolver's unless given).")
    task_id = property(lambda self: self._task_id if self._task_id is not None else self._resolvers[0].task_id,
                       lambda self, value: setattr(self, "_task_id", value),
                       doc="This task's index (the first resolver's unless given).")
    rpc_layer = property(lambda self: self._rpc_layer if self._rpc_layer is not None else
                         self._resolvers[0].rpc_layer, lambda self, value: setattr(self, "_rpc_layer", value),
                         doc="The RPC layer (the first resolver's unless given).")

    @property
    def environment(self):
        """The first resolver's environment."""
        return self._resolvers[0].environment

    def cluster_spec(self) -> ClusterSpec:
        """Every resolver's jobs; a job several resolvers have gets their tasks appended (lists) or merged
        (task indices: the same index twice is a KeyError)."""
        merged: dict = {}
        for resolver in self._resolvers:
            for job, tasks in resolver.cluster_spec().as_dict().items():
                merged[job] = _merge_tasks(job, merged.get(job), tasks)
        return ClusterSpec(merged)

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """The address of (task_type, task_id) in the merged cluster, else the first resolver's master."""
        layer = rpc_layer if rpc_layer is not None else self._rpc_layer
        if task_type is not None and task_id is not None:
            return _with_layer(self.cluster_spec().task_address(task_type, task_id), layer)
        return self._resolvers[0].master(rpc_layer=layer)

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        """The first resolver's accelerators."""
        return self._resolvers[0].num_accelerators(task_type, task_id, config_proto)


def _merge_tasks(job, have, tasks):
    if have is None:
        return tasks
    if isinstance(have, list) and isinstance(tasks, list):
        return have + tasks
    have = dict(enumerate(have)) if isinstance(have, list) else dict(have)
    for index, address in (enumerate(tasks) if isinstance(tasks, list) else tasks.items()):
        if index in have:
            raise KeyError(f"Duplicate task index {index} of job {job!r} when merging cluster resolvers "
                           f"({have[index]!r} and {address!r}); give each resolver's tasks their own indices.")
        have[index] = address
    return have


class KubernetesClusterResolver(ClusterResolver):
    """tf.distribute.cluster_resolver.KubernetesClusterResolver: refused (placeflow does not query Kubernetes)."""

    def __init__(self, *args, **kwargs):
        try:
            import kubernetes  # noqa: F401 - TensorFlow needs it too, and says so first
        except ImportError:
            raise ImportError("The Kubernetes Python client must be installed before using the Kubernetes Cluster "
                              "Resolver. To install the Kubernetes Python client, run `pip install kubernetes` on "
                              "your command line.") from None
        raise NotImplementedError("tf.distribute.cluster_resolver.KubernetesClusterResolver is not implemented in "
                                  "placeflow: list the pods' addresses in a SimpleClusterResolver or TF_CONFIG.")
