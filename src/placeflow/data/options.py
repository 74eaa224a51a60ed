"""tf.data.Options: settings a dataset carries (with_options); auto-sharding decides how workers split it."""

from __future__ import annotations

import enum


class AutoShardPolicy(enum.IntEnum):
    """How a dataset is split between workers: OFF, AUTO, FILE, DATA, HINT (TensorFlow's values)."""

    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class DistributeOptions:
    """Options.experimental_distribute: the auto-shard policy."""

    def __init__(self):
        self._auto_shard_policy = AutoShardPolicy.AUTO

    @property
    def auto_shard_policy(self) -> AutoShardPolicy:
        """The AutoShardPolicy (AUTO by default)."""
        return self._auto_shard_policy

    @auto_shard_policy.setter
    def auto_shard_policy(self, value) -> None:
        self._auto_shard_policy = AutoShardPolicy(value)


class Options:
    """A dataset's options; only those placeflow acts on can be set."""

    def __init__(self):
        self.experimental_distribute = DistributeOptions()
        self.deterministic = None

    def __setattr__(self, name, value):
        if name not in ("experimental_distribute", "deterministic"):
            raise NotImplementedError(f"tf.data.Options.{name} is not implemented in placeflow; it sets "
                                      f"experimental_distribute.auto_shard_policy and deterministic.")
        object.__setattr__(self, name, value)
