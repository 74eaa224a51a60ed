"""Options strategies take: tf.distribute.InputOptions (with InputReplicationMode), RunOptions,
and tf.distribute.experimental_set_strategy (a strategy made current without `with scope()`).

Which options placeflow honours (see `check_input_options` / `check_run_options`): the input options'
`experimental_fetch_to_device` (False keeps the replicas' input on the host CPU) and
`experimental_per_replica_buffer_size` (how many batches are prefetched); `experimental_place_dataset_on_device`
and PER_REPLICA replication outside `distribute_datasets_from_function` are refused by name. RunOptions'
fields only matter to TPUStrategy in TensorFlow; placeflow refuses their non-default values by name rather than
ignoring them.
"""

from __future__ import annotations

import enum
import threading
from typing import NamedTuple

from . import distribution_context
from .input_lib import ValueContext  # noqa: F401 - tf.distribute.experimental.ValueContext


class InputReplicationMode(enum.Enum):
    """How input is replicated: one pipeline per worker split across its replicas, or one per replica."""

    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


class InputOptions(NamedTuple):
    """How a strategy distributes a dataset (tf.distribute.InputOptions)."""

    experimental_fetch_to_device: bool = True
    experimental_replication_mode: InputReplicationMode = InputReplicationMode.PER_WORKER
    experimental_place_dataset_on_device: bool = False
    experimental_per_replica_buffer_size: int = 1


class RunOptions(NamedTuple):
    """Options of `strategy.run` (TensorFlow uses them on TPUs only)."""

    experimental_enable_dynamic_batch_size: bool = True
    experimental_bucketizing_dynamic_shape: bool = False
    experimental_xla_options: object = None


def check_input_options(options, from_function: bool = False) -> InputOptions:
    """`options` (None: the defaults) validated: the fields placeflow cannot honour are refused by name."""
    if options is None:
        return InputOptions()
    if not isinstance(options, InputOptions):
        raise TypeError(f"`options` must be a tf.distribute.InputOptions, got {options!r}. Build one with "
                        "tf.distribute.InputOptions(...).")
    if options.experimental_replication_mode == InputReplicationMode.PER_REPLICA and not from_function:
        raise NotImplementedError("InputReplicationMode.PER_REPLICA is only supported in "
                                  "`distribute_datasets_from_function`.")
    if options.experimental_place_dataset_on_device:
        raise NotImplementedError("tf.distribute.InputOptions(experimental_place_dataset_on_device=True) is not "
                                  "implemented in placeflow (its datasets run on the host): leave it False.")
    if options.experimental_per_replica_buffer_size < 0:
        raise ValueError(f"experimental_per_replica_buffer_size must be >= 0, got "
                         f"{options.experimental_per_replica_buffer_size}.")
    return options


def check_run_options(options) -> None:
    """Refuse by name the RunOptions fields placeflow has no use for (TPU-only in TensorFlow) when set."""
    if options is None:
        return
    if not isinstance(options, RunOptions):
        raise TypeError(f"`options` must be a tf.distribute.RunOptions, got {options!r}.")
    defaults = RunOptions()
    for field in RunOptions._fields:
        if getattr(options, field) != getattr(defaults, field):
            raise NotImplementedError(f"tf.distribute.RunOptions({field}={getattr(options, field)!r}) is not "
                                      "implemented in placeflow (TensorFlow applies it on TPUs only): leave it "
                                      f"at its default {getattr(defaults, field)!r}.")


_set = threading.local()  # .entered: (strategy, its entered scope, stack depth) of experimental_set_strategy


def experimental_set_strategy(strategy) -> None:
    """Make `strategy` current in this thread as if its scope were entered (None: leave the one set before)."""
    entered = getattr(_set, "entered", None)
    depth = len(distribution_context._stack())
    if depth and (entered is None or depth != entered[2]):
        raise RuntimeError("Must not be called inside a `tf.distribute.Strategy` scope.")
    if strategy is not None and not hasattr(strategy, "scope"):
        raise TypeError(f"experimental_set_strategy takes a tf.distribute.Strategy or None, got {strategy!r}.")
    if entered is not None:
        _set.entered = None
        entered[1].__exit__(None, None, None)
    if strategy is not None:
        scope = strategy.scope()
        scope.__enter__()
        _set.entered = (strategy, scope, len(distribution_context._stack()))
