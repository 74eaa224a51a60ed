"""Distributed values: PerReplica (one value per replica), Mirrored (identical copies), MirroredVariable, and
SyncOnReadVariable (copies each replica updates on its own, combined when read: Keras metrics)."""

from __future__ import annotations

import weakref

from ..eager.convert import convert_to_tensor
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable
from ..framework import errors
from ..framework.nest import flatten, pack_as
from ..graph import interrupts
from . import distribution_context
from .reduce_op import ReduceOp, VariableAggregation


class DistributedValues:
    """One value per replica, ordered like the strategy's devices."""

    _kind = "DistributedValues"

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self) -> tuple:
        """The per-replica values, in replica order."""
        return self._values

    def _get(self):
        """The value of the current replica (replica 0 in cross-replica context)."""
        replica = distribution_context.get_replica_context()
        index = replica.local_replica_id if replica is not None else 0
        return self._values[index if index < len(self._values) else 0]

    def __repr__(self) -> str:
        body = ",\n".join(f"  {i}: {v!r}" for i, v in enumerate(self._values))
        return f"{self._kind}:{{\n{body}\n}}"

    def __str__(self) -> str:
        body = ",\n".join(f"  {i}: {v}" for i, v in enumerate(self._values))
        return f"{self._kind}:{{\n{body}\n}}"

    def __len__(self) -> int:
        return len(self._values)

    def _nest_components(self) -> tuple:
        return self._values

    def _nest_rebuild(self, parts):
        return type(self)(parts)


class PerReplica(DistributedValues):
    """Values that differ per replica (per-replica inputs, losses, gradients)."""

    _kind = "PerReplica"


class Mirrored(DistributedValues):
    """Identical values, one copy on each replica's device (e.g. an all-reduced gradient)."""

    _kind = "Mirrored"

    def _as_tensor(self):
        value = self._get()
        return value._as_tensor() if hasattr(value, "_as_tensor") else value


class MirroredVariable(Variable):
    """A variable with one copy per replica device, kept identical: reads use the current replica's copy.

    Writes in cross-replica context update every copy. Writes in replica context need an
    aggregation (SUM, MEAN, ONLY_FIRST_REPLICA): the replicas' values are combined first.
    """

    def __new__(cls, *args, **kwargs):
        return object.__new__(cls)

    def __init__(self, *args, **kwargs):  # built by MirroredVariable.create
        pass

    @classmethod
    def create(cls, strategy, components, aggregation=VariableAggregation.NONE) -> "MirroredVariable":
        """Wrap per-device `components` (component 0 is the primary)."""
        var = object.__new__(cls)
        var._strategy = strategy
        var._components = tuple(components)
        var._aggregation = aggregation
        for component in components:  # TF's link from a copy to its container (Keras's optimizer keys slots by it)
            component._distributed_container = weakref.ref(var)
        return var

    # -- which copy -----------------------------------------------------------------------------
    @property
    def values(self) -> tuple:
        """The per-device copies."""
        return self._components

    @property
    def primary(self) -> Variable:
        """The first device's copy."""
        return self._components[0]

    @property
    def constraint(self):
        """The copies' constraint (None: none)."""
        return self.primary.constraint

    def _current(self) -> Variable:
        index = distribution_context.update_index()
        if index is not None:
            return self._components[index]
        strategy, replica = distribution_context.current()
        if replica is None or strategy is not self._strategy:
            return self._components[0]
        return self._components[replica.local_replica_id]

    def _watch_target(self) -> Variable:
        """The copy a GradientTape watches and differentiates in this replica."""
        return self._current()

    # -- reading --------------------------------------------------------------------------------
    def _as_tensor(self):
        return self._current()._as_tensor()

    def numpy(self):
        """The primary copy's value."""
        return self._components[0].numpy()

    # -- writing --------------------------------------------------------------------------------
    def _update(self, op: str, value, read_value: bool, attrs=None):
        index = distribution_context.update_index()
        if index is not None:  # inside StrategyExtended.update: this copy only
            return self._components[index]._update(op, value, read_value, attrs)
        strategy, replica = distribution_context.current()
        if replica is not None and strategy is self._strategy and strategy.num_replicas_in_sync > 1:
            return self._update_in_replica(replica, op, value, read_value, attrs)
        parts = value.values if isinstance(value, DistributedValues) else [value] * len(self._components)
        with interrupts.step_finishes_first():  # every copy or none: Ctrl-C waits for the last copy
            for component, part in zip(self._components, parts):
                component._update(op, part, False, attrs)
        return self._as_tensor() if read_value else self

    def _update_in_replica(self, replica, op, value, read_value, attrs=None):
        if self._aggregation == VariableAggregation.NONE:  # as TF 2.21: each replica writes its own copy only
            return self._current()._update(op, value, read_value, attrs)
        if not isinstance(value, DistributedValues):  # Python numbers take the variable's dtype, as in TF
            value = convert_to_tensor(value, dtype=self.dtype)

        def merge(strategy, per_replica):
            if self._aggregation == VariableAggregation.ONLY_FIRST_REPLICA:
                combined = per_replica.values[0] if isinstance(per_replica, PerReplica) else per_replica
                combined = strategy.extended.broadcast_to(combined, self)
            else:
                reduce_op = ReduceOp.from_variable_aggregation(self._aggregation)
                combined = strategy.extended.reduce_to(reduce_op, per_replica, self)
            return self._update(op, combined, False, attrs)
        replica.merge_call(merge, args=(value,))
        return self._as_tensor() if read_value else self

    # -- description ----------------------------------------------------------------------------
    @property
    def device(self) -> str:
        """The device of the current replica's copy."""
        return self._current().device

    @property
    def dtype(self):
        """The variable's dtype."""
        return self._components[0].dtype

    @property
    def shape(self):
        """The variable's shape."""
        return self._components[0].shape

    @property
    def name(self) -> str:
        """The primary copy's name ('Variable:0')."""
        return self._components[0].name

    @property
    def _name(self) -> str:
        return self._components[0]._name

    @property
    def trainable(self) -> bool:
        """Whether optimizers update this variable."""
        return self._components[0].trainable

    def _set_trainable(self, value: bool) -> None:
        for component in self._components:
            component._set_trainable(value)

    @property
    def aggregation(self) -> VariableAggregation:
        """How replica-context updates combine."""
        return self._aggregation

    def __repr__(self) -> str:
        body = ",\n".join(f"  {i}: {v!r}" for i, v in enumerate(self._components))
        return f"MirroredVariable:{{\n{body}\n}}"

    def __hash__(self):
        return id(self)


class SyncOnReadVariable(MirroredVariable):
    """A variable made with synchronization=ON_READ: one copy per replica device, which replicas update on their
    own (no collective). In replica context reads and writes touch the replica's copy. In cross-replica context
    a read combines the copies by the aggregation (SUM adds them, MEAN averages them, ONLY_FIRST_REPLICA takes
    the first), and an assign gives each copy the value (SUM: an equal share, so that they add up to it)."""

    def _local(self):
        """The copy of the replica (or of `extended.update`) running now; None in cross-replica context."""
        index = distribution_context.update_index()
        if index is not None:
            return self._components[index]
        strategy, replica = distribution_context.current()
        if replica is not None and strategy is self._strategy:
            return self._components[replica.local_replica_id]
        return None

    def _watch_target(self) -> Variable:
        return self._local() or self._components[0]

    def _as_tensor(self):
        local = self._local()
        if local is not None:
            return local._as_tensor()
        reduce_op = _reduce_op_of(self._aggregation)
        if self._aggregation == VariableAggregation.ONLY_FIRST_REPLICA:
            return self._components[0]._as_tensor()
        from ..api import math_ops
        total = math_ops.add_n([c._as_tensor() for c in self._components])
        return total / len(self._components) if reduce_op == ReduceOp.MEAN else total

    def numpy(self):
        """The combined value (cross-replica context), or this replica's copy's."""
        return self._as_tensor().numpy()

    def _update(self, op: str, value, read_value: bool, attrs=None):
        local = self._local()
        if local is not None:  # a replica updates its own copy: nothing is exchanged
            return local._update(op, value, read_value, attrs)
        _reduce_op_of(self._aggregation)
        shares = len(self._components) if self._aggregation == VariableAggregation.SUM else 1
        if shares > 1 and op != "AssignVariableOp":
            name = {"AssignAddVariableOp": "assign_add", "AssignSubVariableOp": "assign_sub"}.get(op, op)
            raise ValueError(f"SyncOnReadVariable does not support `{name}` in cross-replica context when "
                             f"aggregation is set to `tf.VariableAggregation.SUM`.")
        if shares > 1:
            value = convert_to_tensor(value, dtype=self.dtype) / shares
        with interrupts.step_finishes_first():  # every copy or none
            for component in self._components:
                component._update(op, value, False, attrs)
        return self._as_tensor() if read_value else self

    def __repr__(self) -> str:
        body = ",\n".join(f"  {i}: {v!r}" for i, v in enumerate(self._components))
        return f"SyncOnReadVariable:{{\n{body}\n}}"


def _reduce_op_of(aggregation):
    """The ReduceOp an ON_READ variable's aggregation combines copies with (TF's ValueError for NONE)."""
    if aggregation == VariableAggregation.NONE:
        raise ValueError("Could not convert from `tf.VariableAggregation` VariableAggregation.NONE to"
                         "`tf.distribute.ReduceOp` type\nplaceflow: give a variable made with synchronization="
                         "ON_READ an aggregation (SUM, MEAN or ONLY_FIRST_REPLICA) to read it outside a replica.")
    if aggregation == VariableAggregation.ONLY_FIRST_REPLICA:
        return None
    return ReduceOp.from_variable_aggregation(aggregation)


def select_replica(index: int, structure):
    """`structure` with every distributed value replaced by replica `index`'s value."""
    def pick(leaf):
        if isinstance(leaf, DistributedValues):
            return leaf.values[index]
        return leaf
    return pack_as(structure, [pick(leaf) for leaf in flatten(structure)]) if structure is not None else None


def regroup(per_replica_structures: list):
    """Per-replica structures (identical layout) -> one structure whose leaves are PerReplica values.

    Leaves that are the same object in every replica (e.g. a Python constant) stay as they are;
    with one replica the structure is returned unchanged.
    """
    if len(per_replica_structures) == 1:
        return per_replica_structures[0]
    first = per_replica_structures[0]
    columns = list(zip(*[flatten(s) for s in per_replica_structures]))
    leaves = []
    for column in columns:
        if all(v is column[0] for v in column):
            leaves.append(column[0])
        else:
            leaves.append(PerReplica(column))
    return pack_as(first, leaves)


def is_distributed(value) -> bool:
    """Whether `value` holds one value per replica."""
    return isinstance(value, (DistributedValues, MirroredVariable))


def local_results(value) -> tuple:
    """The per-replica parts of `value` (a one-tuple for a plain value)."""
    if isinstance(value, (DistributedValues, MirroredVariable)):
        return tuple(value.values)
    return (value,)


def device_of(value) -> str:
    """The device holding a tensor or variable."""
    if isinstance(value, EagerTensor):
        return value.device
    device = getattr(value, "device", None)
    if device is None:
        raise errors.InvalidArgumentError(None, None, f"Expected a tensor or variable, got {value!r}.")
    return device
