"""All-reduce implementations: how gradients from replicas are summed and sent back to every device.

- ReductionToOneDevice: copy every value to one device, add them there, copy the sum back.
- HierarchicalCopyAllReduce: pack all tensors into one buffer per device, then a binary tree of
  pairwise adds (log2(N) levels, pairs in parallel) and the same tree back down.
- NcclAllReduce: NCCL through CuPy on real GPUs (one grouped allReduce per pack); on simulated GPUs
  the same collective runs in-process with NumPy.
`choose(devices)` picks one and says why, as TensorFlow's select_cross_device_ops does.
"""

from __future__ import annotations

import logging

from ..api import array_ops, math_ops
from ..api.device import device as device_scope
from ..framework import dtypes
from ..graph.v1_api import name_scope
from ..runtime import step_clock
from . import collective
from .reduce_op import ReduceOp, as_reduce_op
from .values import Mirrored, local_results

log = logging.getLogger("placeflow.distribute")


def destination_devices(destinations) -> list:
    """Device names of `destinations`: a name, a list of names, or a (distributed) value or variable."""
    if isinstance(destinations, str):
        return [destinations]
    if isinstance(destinations, (list, tuple)) and all(isinstance(d, str) for d in destinations):
        return list(destinations)
    return [getattr(v, "device") for v in local_results(destinations)]


def _mirrored(values):
    return values[0] if len(values) == 1 else Mirrored(values)


class CrossDeviceOps:
    """Base class: reduce / batch_reduce / broadcast of per-replica values to destination devices."""

    def reduce(self, reduce_op, per_replica_value, destinations):
        """`per_replica_value` reduced (SUM or MEAN) and placed on every destination device."""
        return self.batch_reduce(reduce_op, [(per_replica_value, destinations)])[0]

    def batch_reduce(self, reduce_op, value_destination_pairs):
        """Reduce several values at once (the whole gradient list of one step)."""
        reduce_op = as_reduce_op(reduce_op)
        pairs = list(value_destination_pairs)
        if all(len(local_results(v)) == 1 and destination_devices(d) == [getattr(local_results(v)[0], "device", None)]
               for v, d in pairs):
            return [local_results(v)[0] for v, _ in pairs]  # one replica: nothing to reduce
        from ..ops.indexed_slices import IndexedSlices
        sliced = [isinstance(local_results(v)[0], IndexedSlices) for v, _ in pairs]
        with name_scope("allreduce"), step_clock.phase("all-reduce"):   # (the estimate's phases)
            dense = self._batch_reduce(reduce_op, [p for p, s in zip(pairs, sliced) if not s]) \
                if not all(sliced) else []
            gathered = [_gather_slices(reduce_op, v, d) for (v, d), s in zip(pairs, sliced) if s]
        dense, gathered = iter(dense), iter(gathered)
        return [next(gathered) if s else next(dense) for s in sliced]

    def broadcast(self, tensor, destinations):
        """`tensor` copied to every destination device."""
        with name_scope("broadcast"):
            return _mirrored(_copies(tensor, destination_devices(destinations)))

    def _batch_reduce(self, reduce_op, pairs):
        raise NotImplementedError  # each subclass is one all-reduce algorithm


class ReductionToOneDevice(CrossDeviceOps):
    """Copy to one device (the first destination by default), add_n there, copy back."""

    def __init__(self, reduce_to_device=None, accumulation_fn=None):
        self.reduce_to_device = reduce_to_device
        self.accumulation_fn = accumulation_fn or math_ops.add_n

    def _batch_reduce(self, reduce_op, pairs):
        return [self._reduce_one(reduce_op, value, destinations) for value, destinations in pairs]

    def _reduce_one(self, reduce_op, value, destinations):
        parts = list(local_results(value))
        targets = destination_devices(destinations)
        with device_scope(self.reduce_to_device or targets[0]):
            total = self.accumulation_fn(parts) if len(parts) > 1 else math_ops.identity(parts[0])
            if reduce_op == ReduceOp.MEAN:
                total = _divide(total, len(parts))
        return _mirrored(_copies(total, targets))


class _PackedAllReduce(CrossDeviceOps):
    """All-reduce of float tensors packed into `num_packs` flat buffers per device (ints reduce to one device)."""

    def __init__(self, num_packs=1):
        if num_packs < 1:
            raise ValueError(f"{type(self).__name__} requires num_packs >= 1, got {num_packs}.")
        self.num_packs = num_packs

    def _batch_reduce(self, reduce_op, pairs):
        if any(not dtypes.as_dtype(v.dtype).is_floating for v in _first_parts(pairs)):
            return ReductionToOneDevice()._batch_reduce(reduce_op, pairs)
        per_device = [list(column) for column in zip(*[local_results(v) for v, _ in pairs])]
        devices = [getattr(parts[0], "device") for parts in per_device]
        packs = [_pack(parts, device, self.num_packs) for parts, device in zip(per_device, devices)]
        reduced = [self._reduce_pack(reduce_op, [p[k] for p in packs], devices) for k in range(len(packs[0]))]
        return _unpack(reduced, per_device, devices, pairs)

    def _reduce_pack(self, reduce_op, values, devices) -> list:
        raise NotImplementedError  # each subclass is one all-reduce algorithm


class HierarchicalCopyAllReduce(_PackedAllReduce):
    """Pack per device, reduce up a binary tree of devices, broadcast back down the same tree."""

    def _reduce_pack(self, reduce_op, values, devices) -> list:
        values, count = list(values), len(values)
        step = 1
        while step < count:
            for low in range(0, count - step, 2 * step):
                with device_scope(devices[low]):
                    values[low] = math_ops.add(values[low], values[low + step])
            step *= 2
        with device_scope(devices[0]):
            if reduce_op == ReduceOp.MEAN:
                values[0] = _divide(values[0], count)
        while step > 1:
            step //= 2
            for low in range(0, count - step, 2 * step):
                with device_scope(devices[low + step]):
                    values[low + step] = math_ops.identity(values[low])
        return values


class NcclAllReduce(_PackedAllReduce):
    """NCCL all-reduce of packed gradients (CuPy's NCCL on real GPUs; in-process NumPy on simulated ones)."""

    def _reduce_pack(self, reduce_op, values, devices) -> list:
        return collective.all_reduce(values, devices, reduce_op)


def _first_parts(pairs):
    return [local_results(v)[0] for v, _ in pairs]


def _divide(total, count):
    return math_ops.divide(total, math_ops.cast(count, total.dtype)) if count > 1 else total


def _gather_slices(reduce_op, value, destinations):
    """The reduction of per-replica IndexedSlices, as TensorFlow does it: every replica's slices gathered (the
    rows of the sum; divided by the replicas for MEAN), an IndexedSlices on each destination device."""
    from ..ops.indexed_slices import IndexedSlices
    parts = list(local_results(value))
    targets = destination_devices(destinations)
    results = []
    for target in targets:
        with device_scope(target):
            values = array_ops.concat([math_ops.identity(p.values) for p in parts], 0)
            if reduce_op == ReduceOp.MEAN:
                values = _divide(values, len(parts))
            indices = array_ops.concat([math_ops.identity(p.indices) for p in parts], 0)
        results.append(IndexedSlices(values, indices, parts[0].dense_shape))
    return _mirrored(results)


def _copies(tensor, targets) -> list:
    """`tensor` on each target device (no copy where it already lives)."""
    out = []
    for target in targets:
        if _same_device(getattr(tensor, "device", None), target):
            out.append(tensor)
        else:
            with device_scope(target):
                out.append(math_ops.identity(tensor))
    return out


def _same_device(a, b) -> bool:
    if not a or not b:
        return False
    from ..framework.device_spec import DeviceSpec
    return DeviceSpec.from_string(a).to_string() == DeviceSpec.from_string(b).to_string()


def _pack(parts, device, num_packs):
    """The tensors of one device flattened and concatenated into `num_packs` buffers."""
    with device_scope(device):
        flat = [array_ops.reshape(p, [-1]) for p in parts]
        groups = [flat[i::num_packs] for i in range(min(num_packs, len(flat)))]
        return [array_ops.concat(g, 0) if len(g) > 1 else g[0] for g in groups]


def _unpack(reduced, per_device, devices, pairs):
    """Split the reduced packs back into tensors of the original shapes, on every device."""
    num_packs = len(reduced)
    results = [[None] * len(pairs) for _ in devices]
    for d, device in enumerate(devices):
        with device_scope(device):
            for k in range(num_packs):
                members = list(range(len(pairs)))[k::num_packs]
                sizes = [int(_size(per_device[d][m])) for m in members]
                pieces = array_ops.split(reduced[k][d], sizes, 0) if len(members) > 1 else [reduced[k][d]]
                for m, piece in zip(members, pieces):
                    results[d][m] = array_ops.reshape(piece, list(per_device[d][m].shape))
    return [_mirrored([results[d][m] for d in range(len(devices))]) for m in range(len(pairs))]


def _size(tensor) -> int:
    count = 1
    for dim in tensor.shape:
        count *= int(dim)
    return count


def choose(devices) -> CrossDeviceOps:
    """The all-reduce for `devices` (runtime Device objects), logging the reason for the choice."""
    gpus = [d for d in devices if d.device_type == "GPU"]
    if len(gpus) != len(devices):
        reason = ("There are non-GPU devices in `tf.distribute.Strategy`, not using nccl allreduce. "
                  "Using ReductionToOneDevice.")
        chosen = ReductionToOneDevice()
    elif any(d.simulated for d in gpus):
        reason = ("The GPUs are simulated (PLACEFLOW_SIMULATED_GPUS): there is no NCCL. "
                  "Using HierarchicalCopyAllReduce.")
        chosen = HierarchicalCopyAllReduce()
    elif len({d.cuda_ordinal for d in gpus}) != len(gpus):
        reason = "NCCL is not supported when using virtual GPUs, fallingback to reduction to one device"
        chosen = ReductionToOneDevice()
    elif not collective.nccl_available():
        reason = "Nccl kernel is not found, not using nccl allreduce. Using HierarchicalCopyAllReduce."
        chosen = HierarchicalCopyAllReduce()
    else:
        reason = f"All {len(gpus)} devices are physical GPUs and CuPy has NCCL: using NcclAllReduce."
        chosen = NcclAllReduce()
    log.info(reason)
    chosen.reason = reason
    return chosen
