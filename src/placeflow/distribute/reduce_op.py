"""ReduceOp, VariableSynchronization and VariableAggregation: how values from replicas combine."""

from __future__ import annotations

import enum


class ReduceOp(enum.Enum):
    """How to combine values from replicas: SUM or MEAN."""

    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def from_variable_aggregation(aggregation) -> "ReduceOp":
        """The ReduceOp of a VariableAggregation (SUM or MEAN)."""
        mapping = {VariableAggregation.SUM: ReduceOp.SUM, VariableAggregation.MEAN: ReduceOp.MEAN}
        if aggregation not in mapping:
            raise ValueError(f"Could not convert from `tf.VariableAggregation` {aggregation} to`tf.distribute."
                             "ReduceOp` type")
        return mapping[aggregation]


class VariableSynchronization(enum.Enum):
    """When a distributed variable's copies are synchronized."""

    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How updates made in replica context combine: NONE, SUM, MEAN or ONLY_FIRST_REPLICA."""

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


def as_reduce_op(value) -> ReduceOp:
    """A ReduceOp from a ReduceOp or its name ('SUM', 'MEAN'), case-insensitively."""
    if isinstance(value, ReduceOp):
        return value
    if isinstance(value, str) and value.upper() in ReduceOp.__members__:
        return ReduceOp[value.upper()]
    raise ValueError(f"Expected a placeflow.distribute.ReduceOp (SUM or MEAN), got {value!r}.")
