"""tf.VariableSynchronization and tf.VariableAggregation: how a variable's copies synchronize and combine."""

import enum


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
