"""The collective all-reduce op: one node per GPU, meeting at a shared rendezvous (NCCL's model).

The kernel only hands its input to the rendezvous given as its `group` attribute and waits for the
reduced result; the rendezvous (distribute layer) does the reduction once every device arrived.
Gradients of replicas are all-reduced after differentiation, so the op itself has none.
"""

from . import shape_rules as rules
from .registry import FLOATS, NOT_DIFFERENTIABLE, define

COLLECTIVE_OPS = frozenset({"_NcclAllReduce"})


@define("_NcclAllReduce", FLOATS, cpu=False, shape=rules.same, grad=NOT_DIFFERENTIABLE)
def _nccl_all_reduce(xp, value, group=None, rank=0):
    return group.arrive(rank, value)
