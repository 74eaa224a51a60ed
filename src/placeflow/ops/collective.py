"""The collective all-reduce ops.

- `_NcclAllReduce`: one node per local GPU, meeting at a shared rendezvous (NCCL's model). The kernel
  hands its input to the rendezvous given as its `group` attribute and waits for the reduced result;
  the rendezvous (distribute layer) does the reduction once every device arrived.
- `CollectiveReduceV2`: one node per worker process, reducing with the other workers through the
  `communicator` attribute (a distribute.worker_collectives.WorkerGroup: gloo or NCCL).
Gradients of replicas are all-reduced after differentiation, so the ops themselves have none.
"""

from ..framework import dtypes as d
from . import shape_rules as rules
from .registry import FLOATS, NOT_DIFFERENTIABLE, define

COLLECTIVE_OPS = frozenset({"_NcclAllReduce", "CollectiveReduceV2"})


@define("_NcclAllReduce", FLOATS, cpu=False, shape=rules.same, grad=NOT_DIFFERENTIABLE)
def _nccl_all_reduce(xp, value, group=None, rank=0):
    return group.arrive(rank, value)


@define("CollectiveReduceV2", FLOATS | {d.int32, d.int64}, shape=rules.same, grad=NOT_DIFFERENTIABLE)
def _collective_reduce(xp, value, communicator=None, reduce_op="SUM"):
    return communicator.all_reduce(value, reduce_op)
