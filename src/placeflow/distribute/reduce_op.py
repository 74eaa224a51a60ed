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


from ..framework.variable_modes import VariableAggregation, VariableSynchronization  # noqa: E402,F401


def as_reduce_op(value) -> ReduceOp:
    """A ReduceOp from a ReduceOp or its name ('SUM', 'MEAN'), case-insensitively."""
    if isinstance(value, ReduceOp):
        return value
    if isinstance(value, str) and value.upper() in ReduceOp.__members__:
        return ReduceOp[value.upper()]
    raise ValueError(f"Expected a placeflow.distribute.ReduceOp (SUM or MEAN), got {value!r}.")
