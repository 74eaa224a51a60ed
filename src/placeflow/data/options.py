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


class ExternalStatePolicy(enum.IntEnum):
    """What to do with external state when a dataset is serialized: WARN, IGNORE, FAIL (TF's values)."""

    WARN = 0
    IGNORE = 1
    FAIL = 2


class _OptionGroup:
    """A group of options that tune how fast a pipeline runs, never what it yields.

    placeflow's pipelines do no static rewriting, autotuning or private thread pools, so these
    settings change nothing here; they are kept (and read back) so that programs written for TF run.
    Names outside the group are refused."""

    _FIELDS: dict = {}

    def __init__(self):
        for name, default in self._FIELDS.items():
            object.__setattr__(self, name, default)

    def __setattr__(self, name, value):
        if name not in self._FIELDS:
            raise AttributeError(f"{type(self).__name__} has no option {name!r}; known: {sorted(self._FIELDS)}")
        object.__setattr__(self, name, value)


class OptimizationOptions(_OptionGroup):
    """Options.experimental_optimization: tf.data's static graph rewrites (none run in placeflow)."""

    _FIELDS = {name: None for name in (
        "apply_default_optimizations", "filter_fusion", "filter_parallelization", "inject_prefetch",
        "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion", "map_parallelization", "noop_elimination",
        "parallel_batch", "seq_interleave_prefetch", "shuffle_and_repeat_fusion")}


class ThreadingOptions(_OptionGroup):
    """Options.threading: private thread pool sizes (placeflow's pipeline runs in the consumer's thread)."""

    _FIELDS = {"max_intra_op_parallelism": None, "private_threadpool_size": None}


class AutotuneOptions(_OptionGroup):
    """Options.autotune: tf.data's autotuner (placeflow has none: AUTOTUNE means one step ahead)."""

    _FIELDS = {"enabled": None, "cpu_budget": None, "ram_budget": None, "autotune_algorithm": None,
               "initial_parallelism": None, "min_parallelism": None}


class Options:
    """A dataset's options. `deterministic` and `experimental_distribute` change what a pipeline yields;
    the performance groups (experimental_optimization, threading, autotune, external-state policy) are
    kept and read back but change nothing in placeflow (see each group)."""

    _NAMES = ("experimental_distribute", "deterministic", "experimental_optimization", "threading", "autotune",
              "experimental_external_state_policy", "experimental_slack", "experimental_warm_start")

    def __init__(self):
        self.experimental_distribute = DistributeOptions()
        self.deterministic = None
        self.experimental_optimization = OptimizationOptions()
        self.threading = ThreadingOptions()
        self.autotune = AutotuneOptions()
        self.experimental_external_state_policy = None
        self.experimental_slack = None
        self.experimental_warm_start = None

    def __setattr__(self, name, value):
        if name not in self._NAMES:
            raise NotImplementedError(f"tf.data.Options.{name} is not implemented in placeflow; known options: "
                                      f"{', '.join(self._NAMES)}.")
        if name == "experimental_external_state_policy" and value is not None:
            value = ExternalStatePolicy(value)
        group = _GROUPS.get(name)
        if group is not None and not isinstance(value, group):
            raise TypeError(f"tf.data.Options.{name} must be a {group.__name__}; got {value!r}. Set its fields "
                            f"instead, e.g. options.{name}.<field> = ...")
        object.__setattr__(self, name, value)


_GROUPS = {"experimental_distribute": DistributeOptions, "experimental_optimization": OptimizationOptions,
           "threading": ThreadingOptions, "autotune": AutotuneOptions}
