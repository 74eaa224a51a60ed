"""MultiWorkerMirroredStrategy: synchronous data parallelism over worker processes, SPMD as TensorFlow's.

Every worker runs the same program with its own TF_CONFIG. The workers of the cluster ('chief' tasks
first, then 'worker' tasks) form one collective group (worker_collectives) at the first task's address.
Each worker mirrors variables on its local devices (its GPUs, else its CPU), starting from worker 0's
initial values; gradients are summed in-process over the local replicas, then over the workers by one
`CollectiveReduceV2` per pack, and the sum is copied back to every local device.
"""

from __future__ import annotations

import enum

import numpy as np

from ..api import array_ops, math_ops
from ..api.device import device as device_scope
from ..eager.convert import constant, convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes, errors, graph_mode
from ..graph.v1_api import name_scope
from ..placement import cluster_devices
from . import cross_device_ops as cross_device_ops_lib
from . import input_lib, worker_collectives
from .cluster import TFConfigClusterResolver, split_address, worker_tasks
from .reduce_op import ReduceOp, as_reduce_op
from .strategy import HOST, MirroredStrategy, StrategyExtended, _canonical_devices, _runtime_device, log
from .values import PerReplica, local_results


class CommunicationImplementation(enum.Enum):
    """Which engine carries the collectives between workers."""
    AUTO = "AUTO"   # NCCL when every local device is a CUDA GPU and CuPy has NCCL, else RING
    RING = "RING"   # gloo (torch.distributed) on host memory; CUDA values go through the host
    NCCL = "NCCL"   # NCCL through CuPy; needs CUDA GPUs


CollectiveCommunication = CommunicationImplementation


class CommunicationOptions:
    """How collectives between workers run: pack size, deadline and engine."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None, implementation=CommunicationImplementation.AUTO):
        if bytes_per_pack < 0:
            raise ValueError(f"bytes_per_pack must be non-negative, got {bytes_per_pack}.")
        if timeout_seconds is not None and timeout_seconds <= 0:
            raise ValueError(f"timeout_seconds must be positive or None, got {timeout_seconds}.")
        if isinstance(implementation, str):
            implementation = CommunicationImplementation(implementation.upper())
        self.bytes_per_pack, self.timeout_seconds, self.implementation = bytes_per_pack, timeout_seconds, \
            implementation

    def merge(self, options) -> "CommunicationOptions":
        """These options with the ones `options` sets (its non-default fields) taking precedence."""
        if options is None:
            return self
        return CommunicationOptions(options.bytes_per_pack or self.bytes_per_pack,
                                    options.timeout_seconds or self.timeout_seconds,
                                    options.implementation if options.implementation !=
                                    CommunicationImplementation.AUTO else self.implementation)


class _Cluster:
    """This process's place in the cluster: rank among the chief and worker tasks, and their addresses."""

    def __init__(self, resolver):
        spec = resolver.cluster_spec()
        self.tasks = worker_tasks(spec)
        self.task_type, self.task_id = resolver.task_type, resolver.task_id
        if not self.tasks:
            self.rank, self.size, self.rendezvous, self.host = 0, 1, None, None
            return
        if (self.task_type, self.task_id) not in self.tasks:
            raise ValueError(
                f"This task ({self.task_type!r}, index {self.task_id!r}) is not a 'chief' or 'worker' task of the "
                f"cluster {spec.as_dict()!r}. MultiWorkerMirroredStrategy runs in the chief and worker tasks: "
                "set TF_CONFIG's task to one of them.")
        for task in self.tasks:  # every address checked up front: a bad one is a ValueError in every worker
            split_address(spec.task_address(*task))
        self.rank, self.size = self.tasks.index((self.task_type, self.task_id)), len(self.tasks)
        self.addresses = [spec.task_address(*task) for task in self.tasks]
        self.rendezvous = self.addresses[0]
        self.host = split_address(spec.task_address(self.task_type, self.task_id))[0]


class CollectiveAllReduce(cross_device_ops_lib.CrossDeviceOps):
    """Sum over the local replicas in-process, then over the workers (packed), then copy to every device.

    Every collective between workers runs on one device of this worker (`device`: the host CPU for gloo,
    the first GPU for NCCL). A traced step runs each device's nodes in plan order, so the workers, which
    trace the same program, enter their collectives in the same order; spread over several devices'
    lanes they could start them in different orders and wait for each other forever."""

    def __init__(self, local_ops, group, num_replicas: int, device: str, bytes_per_pack: int = 0):
        self._local, self._group, self._replicas, self._bytes_per_pack = local_ops, group, num_replicas, \
            bytes_per_pack
        self.device = device

    def batch_reduce(self, reduce_op, value_destination_pairs):
        """Reduce each value over every replica of every worker; the results sit on their destinations."""
        reduce_op, pairs = as_reduce_op(reduce_op), list(value_destination_pairs)
        with name_scope("allreduce"):
            local = self._local.batch_reduce(ReduceOp.SUM, pairs) if pairs else []
            totals = self._across_workers([local_results(v)[0] for v in local])
            results = []
            for total, (_, destinations) in zip(totals, pairs):
                if reduce_op == ReduceOp.MEAN:
                    total = cross_device_ops_lib._divide(total, self._replicas)
                targets = cross_device_ops_lib.destination_devices(destinations)
                results.append(cross_device_ops_lib._mirrored(cross_device_ops_lib._copies(total, targets)))
            return results

    def _across_workers(self, tensors) -> list:
        out = list(tensors)
        for pack in self._packs(tensors):
            members = [tensors[i] for i in pack]
            with device_scope(self.device):
                flat = [array_ops.reshape(t, [-1]) for t in members]
                buffer = array_ops.concat(flat, 0) if len(flat) > 1 else flat[0]
                reduced = collective_reduce(buffer, self._group)
                sizes = [cross_device_ops_lib._size(t) for t in members]
                pieces = array_ops.split(reduced, sizes, 0) if len(members) > 1 else [reduced]
                for index, piece, member in zip(pack, pieces, members):
                    out[index] = array_ops.reshape(piece, list(member.shape))
        return out

    def _packs(self, tensors) -> list:
        """Indices of `tensors` grouped by dtype and device, each group cut at `bytes_per_pack` (0: one pack)."""
        groups: dict = {}
        for index, tensor in enumerate(tensors):
            groups.setdefault((tensor.dtype, tensor.device), []).append(index)
        packs = []
        for (dtype, _), members in groups.items():
            packs.append([])
            size = 0
            for index in members:
                nbytes = cross_device_ops_lib._size(tensors[index]) * dtypes.as_dtype(dtype).size
                if self._bytes_per_pack and packs[-1] and size + nbytes > self._bytes_per_pack:
                    packs.append([])
                    size = 0
                packs[-1].append(index)
                size += nbytes
        return packs


def collective_reduce(tensor, group, reduce_op: str = "SUM"):
    """`tensor` reduced over every worker of `group` (a CollectiveReduceV2 op on the current device)."""
    return execute("CollectiveReduceV2", (tensor,), tensor.dtype, {"communicator": group, "reduce_op": reduce_op})


class _MultiWorkerExtended(StrategyExtended):
    """StrategyExtended of a multi-worker strategy: this worker's devices, and sums over the workers."""

    def __init__(self, strategy, devices, cross_device_ops, cluster, group):
        super().__init__(strategy, devices, cross_device_ops)
        self._cluster, self._group = cluster, group
        self.num_workers, self.worker_index = cluster.size, cluster.rank
        self.replica_offset = cluster.rank * len(devices)

    def sum_over_workers(self, tensor):
        """`tensor` summed over every worker (a collective; every worker must call it, in the same order)."""
        if self._group is None or self._group.size == 1:
            return tensor
        with device_scope(self._cross_device_ops.device):
            return collective_reduce(tensor, self._group)

    def host_sum_over_workers(self, array):
        """A NumPy `array` summed over every worker, eagerly (a collective every worker must call)."""
        if self._group is None or self._group.size == 1:
            return array
        return self._group.all_reduce(np.asarray(array))

    @property
    def should_checkpoint(self) -> bool:
        """Whether this worker should save checkpoints (the chief, i.e. rank 0)."""
        return self._cluster.rank == 0

    should_save_summary = should_checkpoint

    @property
    def task_type(self):
        """This worker's job ('chief' or 'worker'), None on a single worker."""
        return self._cluster.task_type

    @property
    def task_id(self):
        """This worker's task index, None on a single worker."""
        return self._cluster.task_id

    def _in_multi_worker_mode(self) -> bool:
        return self._cluster.size > 1


class MultiWorkerMirroredStrategy(MirroredStrategy):
    """Synchronous training on several workers, each mirroring variables on its local devices."""

    def __init__(self, cluster_resolver=None, communication_options=None):
        self._cluster_resolver = cluster_resolver or TFConfigClusterResolver()
        options = CommunicationOptions().merge(communication_options)
        cluster = _Cluster(self._cluster_resolver)
        names = _canonical_devices(None)
        runtime_devices = [_runtime_device(name) for name in names]
        group = _form_group(cluster, options, runtime_devices) if cluster.size > 1 else None
        if group is not None:  # '/job:worker/task:<this task>' names this process's devices from now on
            cluster_devices.set_identity(cluster.task_type, cluster.task_id)
        local_ops = cross_device_ops_lib.choose(runtime_devices) if len(names) > 1 else \
            cross_device_ops_lib.ReductionToOneDevice()
        ops = CollectiveAllReduce(local_ops, group, cluster.size * len(names), names[0] if group and group.use_nccl
                                  else HOST, options.bytes_per_pack) if group else local_ops
        super(MirroredStrategy, self).__init__(names, ops)
        self._extended = _MultiWorkerExtended(self, names, ops, cluster, group)
        self._communication_options = options
        log.info("Using MultiWorkerMirroredStrategy with local devices %s: worker %d of %d, %d replicas in sync",
                 tuple(names), cluster.rank, cluster.size, self.num_replicas_in_sync)

    @property
    def num_replicas_in_sync(self) -> int:
        """Replicas over every worker: workers x local devices."""
        return self._extended.num_workers * len(self._extended.worker_devices)

    @property
    def cluster_resolver(self):
        """The cluster resolver this strategy was made with (TF_CONFIG's by default)."""
        return self._cluster_resolver

    def _create_variable(self, next_creator, **kwargs):
        group = self._extended._group
        if group is not None and group.size > 1:
            kwargs["initial_value"] = self._broadcast_initial_value(group, kwargs.get("initial_value"),
                                                                    kwargs.get("dtype"))
        return super()._create_variable(next_creator, **kwargs)

    def _broadcast_initial_value(self, group, initial_value, dtype):
        """Worker 0's initial value on every worker (TensorFlow broadcasts from the chief too)."""
        if graph_mode.active() is not None:
            raise NotImplementedError("placeflow's MultiWorkerMirroredStrategy creates variables eagerly: create "
                                      "them under strategy.scope() outside tf.function and Session graphs.")
        with device_scope(HOST):
            value = initial_value() if callable(initial_value) else initial_value
            tensor = convert_to_tensor(value, dtype=dtype)
            return constant(group.broadcast(tensor.numpy()), dtype=tensor.dtype)

    # -- reductions over every worker ------------------------------------------------------------
    def _reduce_leaf(self, reduce_op, value, axis):
        """`value` reduced over every replica of every worker (SUM or MEAN); the same result on each worker."""
        if self._extended._group is None:
            return super()._reduce_leaf(reduce_op, value, axis)
        parts = local_results(value)
        with device_scope(HOST):
            if axis is None:
                total = self._extended.sum_over_workers(_local_sum(parts))
                count = self.num_replicas_in_sync
            else:  # rows along `axis` may differ per worker: their count is summed too
                total = self._extended.sum_over_workers(_local_sum([math_ops.reduce_sum(p, axis=axis)
                                                                    for p in parts]))
                rows = _local_sum([math_ops.cast(array_ops.shape(p)[axis], total.dtype) for p in parts])
                count = math_ops.maximum(self._extended.sum_over_workers(rows), math_ops.cast(1, total.dtype))
            if reduce_op == ReduceOp.MEAN:
                total = math_ops.divide(total, math_ops.cast(count, total.dtype))
        return total

    def gather(self, value, axis):
        """Every replica's value of every worker concatenated along `axis` (eager only across workers)."""
        local = super().gather(value, axis)
        group = self._extended._group
        if group is None:
            return local
        if graph_mode.active() is not None:
            raise NotImplementedError("MultiWorkerMirroredStrategy.gather across workers runs eagerly in "
                                      "placeflow; call it outside tf.function.")
        array = local.numpy()
        sizes = [int(s) for s in group.exchange("gather-sizes", str(array.shape[axis]))]
        padded = np.zeros(array.shape[:axis] + (max(sizes),) + array.shape[axis + 1:], array.dtype)
        padded[(slice(None),) * axis + (slice(0, array.shape[axis]),)] = array
        pieces = [np.take(p, range(n), axis=axis) for p, n in zip(group.all_gather(padded), sizes)]
        with device_scope(HOST):
            return constant(np.concatenate(pieces, axis=axis))

    # -- input --------------------------------------------------------------------------------------
    def experimental_distribute_dataset(self, dataset, options=None):
        """This worker's share of `dataset` (auto-sharded by data, as TensorFlow's AUTO and DATA policies)."""
        return input_lib.DistributedDataset(dataset, self._extended.worker_devices,
                                            num_workers=self._extended.num_workers,
                                            worker_index=self._extended.worker_index, shard=_shards(dataset))

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """dataset_fn(InputContext(workers, this worker, replicas)) builds this worker's input pipeline."""
        context = input_lib.InputContext(self._extended.num_workers, self._extended.worker_index,
                                         self.num_replicas_in_sync)
        return input_lib.DatasetsFromFunction(dataset_fn(context), self._extended.worker_devices)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_distribute_values_from_function(self, value_fn):
        """value_fn(ValueContext(global replica id, replicas)) on each local device."""
        offset, total = self._extended.replica_offset, self.num_replicas_in_sync
        values = []
        for index, device in enumerate(self._extended.worker_devices):
            with device_scope(device):
                result = value_fn(input_lib.ValueContext(offset + index, total))
                values.append(math_ops.identity(result) if hasattr(result, "dtype") else result)
        return values[0] if len(values) == 1 else PerReplica(values)

    def __repr__(self) -> str:
        return (f"<placeflow.distribute.MultiWorkerMirroredStrategy worker {self._extended.worker_index} of "
                f"{self._extended.num_workers}, devices={self._extended.worker_devices}>")


def _local_sum(parts):
    parts = [math_ops.identity(p) for p in parts]
    return math_ops.add_n(parts) if len(parts) > 1 else parts[0]


def _shards(dataset) -> bool:
    """Whether auto-sharding splits `dataset` by data (AUTO, DATA) or leaves it whole (OFF); FILE is refused."""
    from ..data.options import AutoShardPolicy
    options = dataset.options() if hasattr(dataset, "options") else None
    policy = getattr(getattr(getattr(options, "experimental_distribute", None), "auto_shard_policy", None),
                     "name", "AUTO")
    if policy == "FILE":
        raise errors.NotFoundError(None, None, (
            "Found an unshardable source dataset: placeflow datasets read no files, so AutoShardPolicy.FILE cannot "
            "shard this dataset. Use AutoShardPolicy.DATA or AUTO."))
    return policy != AutoShardPolicy.OFF.name


def _form_group(cluster, options, devices):
    """The collective group of the cluster's workers, met at the first task's address (each worker's number of
    local devices travels with its join, so a mismatch is refused before any collective)."""
    timeout = options.timeout_seconds or worker_collectives.timeout_from_env(
        "PLACEFLOW_COLLECTIVE_TIMEOUT_S", worker_collectives.DEFAULT_TIMEOUT_S)
    rendezvous_timeout = worker_collectives.timeout_from_env("PLACEFLOW_RENDEZVOUS_TIMEOUT_S",
                                                             worker_collectives.RENDEZVOUS_TIMEOUT_S)
    use_nccl = _uses_nccl(options.implementation, devices)
    names = [f"task ('{job}', {index}) at {cluster.addresses[i]}" for i, (job, index) in enumerate(cluster.tasks)]
    group = worker_collectives.form_group(cluster.rendezvous, cluster.rank, cluster.size, cluster.host, timeout,
                                          rendezvous_timeout, use_nccl, hello=str(len(devices)), names=names)
    counts = [int(text) for text in group.hellos]
    if len(set(counts)) != 1:
        group.shutdown()
        raise ValueError(f"Every worker of a MultiWorkerMirroredStrategy needs the same number of local devices; "
                         f"the workers have {counts} (in rank order). Make the same GPUs visible on each worker.")
    if use_nccl and _shares_a_gpu(group, devices):
        if options.implementation == CommunicationImplementation.NCCL:
            group.shutdown()
            raise ValueError("CommunicationImplementation.NCCL: two workers use the same physical GPU, and NCCL "
                             "needs one GPU per rank. Give each worker its own GPU, or use RING.")
        log.info("Two workers share a physical GPU (virtual devices): NCCL needs one GPU per rank, so the "
                 "collectives between workers use gloo (RING) through host memory.")
        group.use_nccl = False
    return group


def _shares_a_gpu(group, devices) -> bool:
    """Whether two workers' GPUs include the same physical GPU (by PCI bus id; CUDA ordinals are per process)."""
    import cupy
    mine = sorted({cupy.cuda.Device(d.cuda_ordinal).pci_bus_id for d in devices})
    everyone = [set(text.split(",")) for text in group.exchange("gpu-bus-ids", ",".join(mine))]
    return sum(len(ids) for ids in everyone) != len(set().union(*everyone))


def _uses_nccl(implementation, devices) -> bool:
    cuda = all(not d.host_backed for d in devices)
    if implementation == CommunicationImplementation.NCCL:
        if not cuda:
            raise ValueError("CommunicationImplementation.NCCL needs CUDA GPUs on every worker; these devices "
                             f"are {[d.name for d in devices]}. Use RING (gloo) or AUTO.")
        return True
    if implementation == CommunicationImplementation.RING or not cuda:
        return False
    from .collective import nccl_available
    return nccl_available()

