"""Strategies: MirroredStrategy (one replica per device, variables mirrored), OneDeviceStrategy, the default.

A strategy owns its devices, its all-reduce (`cross_device_ops`), the variable creator that
mirrors variables made under `scope()`, and `run`, which calls a step once per replica.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import weakref

from ..api.device import device as device_scope
from ..api import math_ops
from ..config import context as context_module
from ..config.placement_log import _CurrentStderrHandler
from ..eager.variables import variable_creator_scope
from ..framework import graph_mode
from ..framework.nest import flatten, pack_as
from ..graph import function as function_module
from ..graph import interrupts
from ..framework.device_spec import DeviceSpec
from ..runtime import registry
from . import cross_device_ops as cross_device_ops_lib
from . import distribution_context, input_lib
from .distribution_context import ReplicaContext
from .mirrored_run import Coordinator
from .reduce_op import ReduceOp, VariableAggregation, VariableSynchronization, as_reduce_op
from .values import (DistributedValues, MirroredVariable, PerReplica, SyncOnReadVariable, local_results, regroup,
                     select_replica)

log = logging.getLogger("placeflow.distribute")
HOST = "/job:localhost/replica:0/task:0/device:CPU:0"


def _ensure_log_handler() -> None:
    if not log.handlers:
        handler = _CurrentStderrHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:placeflow:%(message)s"))
        log.addHandler(handler)
        log.propagate = False
    if log.level == logging.NOTSET:
        log.setLevel(logging.INFO)


class StrategyExtended:
    """The lower-level API of a strategy: devices, updates of distributed variables, reductions."""

    num_workers = 1    # worker processes running the program in sync (MultiWorkerMirroredStrategy: several)
    worker_index = 0   # this process's place among them
    replica_offset = 0  # global replica id of this process's first local replica
    should_checkpoint = True    # whether this process writes checkpoints (every worker but the chief: no)
    should_save_summary = True  # whether this process writes summaries (the same rule)

    def __init__(self, strategy, devices, cross_device_ops):
        self._strategy = strategy
        self._devices = tuple(devices)
        self._cross_device_ops = cross_device_ops

    def sum_over_workers(self, tensor):
        """`tensor` summed over every worker process (itself on one worker)."""
        return tensor

    def host_sum_over_workers(self, array):
        """A NumPy `array` summed over every worker process, eagerly (itself on one worker)."""
        return array

    @property
    def worker_devices(self) -> tuple:
        """The replicas' devices, in replica order."""
        return self._devices

    @property
    def parameter_devices(self) -> tuple:
        """Where variables live (every replica device)."""
        return self._devices

    def call_for_each_replica(self, fn, args=(), kwargs=None):
        """fn run once per replica, in that replica's context, with its parts of per-replica `args` (from a
        cross-replica context such as a merge_call: Keras's LossScaleOptimizer); a PerReplica of the results."""
        return self._strategy.run(fn, args=args, kwargs=kwargs)

    @contextlib.contextmanager
    def colocate_vars_with(self, colocate_with_variable):
        """Variables created inside live where `colocate_with_variable` does: on its device, or, for a
        mirrored variable, mirrored on the strategy's devices (which a variable made in scope is anyway)."""
        if isinstance(colocate_with_variable, MirroredVariable):
            yield
            return
        with device_scope(colocate_with_variable.device):
            yield

    def update(self, var, fn, args=(), kwargs=None, group=True):
        """fn(copy, *args) for each copy of `var` on its device (args split per replica when distributed)."""
        kwargs = kwargs or {}
        if not isinstance(var, MirroredVariable):
            return fn(var, *args, **kwargs)
        results = []
        with interrupts.step_finishes_first():  # every copy or none
            for index, (component, device) in enumerate(zip(var.values, self._devices)):
                with device_scope(device), distribution_context.updating(index):
                    results.append(fn(component, *select_replica(index, args), **select_replica(index, kwargs)))
        return regroup(results) if not group else results

    def reduce_to(self, reduce_op, value, destinations):
        """`value` (PerReplica) reduced and placed on `destinations`."""
        return self.batch_reduce_to(reduce_op, [(value, destinations)])[0]

    def batch_reduce_to(self, reduce_op, value_destination_pairs):
        """Several reductions in one all-reduce (the gradients of one step)."""
        return self._cross_device_ops.batch_reduce(as_reduce_op(reduce_op), value_destination_pairs)

    def broadcast_to(self, tensor, destinations):
        """`tensor` copied to every destination device."""
        return self._cross_device_ops.broadcast(tensor, destinations)

    def value_container(self, value):
        """The distributed variable holding `value` (itself otherwise)."""
        return value


class Strategy:
    """Base of every strategy: scope, run, reduce, distributed datasets."""

    def __init__(self, devices, cross_device_ops):
        self._extended = StrategyExtended(self, devices, cross_device_ops)
        self._default_replica_context = ReplicaContext(self, 0)
        self._warned_eager = False
        self._traced_runs = weakref.WeakKeyDictionary()  # a Function run by `run` -> its every-replica trace
        self._traced_runs_lock = threading.Lock()

    # -- description ----------------------------------------------------------------------------
    @property
    def extended(self) -> StrategyExtended:
        """Lower-level operations (update, reduce_to, batch_reduce_to)."""
        return self._extended

    @property
    def num_replicas_in_sync(self) -> int:
        """How many replicas run each step."""
        return len(self._extended.worker_devices)

    @property
    def cross_device_ops(self):
        """The all-reduce this strategy uses."""
        return self._extended._cross_device_ops

    # -- scope ------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def scope(self):
        """Variables created inside are distributed by this strategy; it becomes the current strategy."""
        strategy, _ = distribution_context.current()
        if distribution_context.has_strategy() and strategy is not self:
            raise RuntimeError("Mixing different tf.distribute.Strategy objects: placeflow does not support "
                               f"entering {self!r} inside {strategy!r}. Leave the other scope first.")
        distribution_context.push(self)
        try:
            if distribution_context.creator_active(self):  # a nested scope: our creator is already on
                yield self
            else:
                with variable_creator_scope(self._create_variable), distribution_context.creator_scope(self):
                    yield self
        finally:
            distribution_context.pop()

    def _create_variable(self, next_creator, **kwargs):
        with device_scope(self._extended.worker_devices[0]):
            return next_creator(**kwargs)

    # -- running ----------------------------------------------------------------------------------
    def run(self, fn, args=(), kwargs=None, options=None):
        """fn(*args, **kwargs) once per replica, on its device; distributed arguments are split per replica."""
        _options().check_run_options(options)
        kwargs = kwargs or {}
        _, replica = distribution_context.current()
        if replica is not None and distribution_context.has_strategy():
            raise RuntimeError("`run` was called in replica context (inside another `run`). Call it once, from "
                               "cross-replica context: outside strategy.run.")
        if len(self._extended.worker_devices) == 1:
            return self._run_single(fn, select_replica(0, args), select_replica(0, kwargs))
        if isinstance(fn, function_module.Function) and graph_mode.active() is None:
            return self._traced_run(fn)(*args, **kwargs)
        if graph_mode.active() is None and not self._warned_eager:
            self._warned_eager = True
            log.warning("Using %s eagerly has significant overhead currently. We will be working on improving "
                        "this in the future, but for now please wrap `call_for_each_replica` or "
                        "`experimental_run` or `run` inside a tf.function to get the best performance.",
                        type(self).__name__)
        return Coordinator(self).run(fn, args, kwargs)

    def _traced_run(self, fn):
        """A `function` run by strategy.run is traced once, around every replica (TensorFlow does the same):
        one graph holds each replica's ops on its device, and merge calls meet inside that one trace."""
        with self._traced_runs_lock:
            traced = self._traced_runs.get(fn)
            if traced is None:
                def every_replica(*args, **kwargs):
                    return Coordinator(self).run(fn.python_function, args, kwargs)
                traced = function_module.Function(every_replica, fn.input_signature, fn.__name__)
                self._traced_runs[fn] = traced
        return traced

    def _run_single(self, fn, args, kwargs):
        distribution_context.push(self, ReplicaContext(self, 0))
        try:
            with device_scope(self._extended.worker_devices[0]):
                return fn(*args, **kwargs)
        finally:
            distribution_context.pop()

    def reduce(self, reduce_op, value, axis=None):
        """`value` reduced across replicas (SUM or MEAN) onto the host CPU; `axis` first reduces within replicas.
        A nested structure (dicts, lists, tuples) is reduced leaf by leaf, as TensorFlow does."""
        reduce_op = as_reduce_op(reduce_op)
        if isinstance(value, (dict, list, tuple)):
            return pack_as(value, [self._reduce_leaf(reduce_op, leaf, axis) for leaf in flatten(value)])
        return self._reduce_leaf(reduce_op, value, axis)

    def _reduce_leaf(self, reduce_op, value, axis):
        if axis is not None:
            return self._reduce_along(reduce_op, value, axis)
        parts = local_results(value)
        if not isinstance(value, (DistributedValues, MirroredVariable)):
            if reduce_op == ReduceOp.SUM and self.num_replicas_in_sync > 1:
                raise ValueError(f"A non-DistributedValues value {value!r} cannot be reduced with the given reduce "
                                 f"op {reduce_op}. placeflow: reduce what strategy.run returned (a PerReplica).")
            return value
        with device_scope(HOST):
            total = math_ops.add_n(list(parts)) if len(parts) > 1 else math_ops.identity(parts[0])
            if reduce_op == ReduceOp.MEAN and len(parts) > 1:
                total = math_ops.divide(total, math_ops.cast(len(parts), total.dtype))
        return total

    def _reduce_along(self, reduce_op, value, axis):
        parts = local_results(value)
        with device_scope(HOST):
            sums = [math_ops.reduce_sum(p, axis=axis) for p in parts]
            total = math_ops.add_n(sums) if len(sums) > 1 else sums[0]
            if reduce_op == ReduceOp.MEAN:
                count = sum(int(p.shape[axis]) for p in parts)
                total = math_ops.divide(total, math_ops.cast(max(count, 1), total.dtype))
        return total

    def gather(self, value, axis):
        """The per-replica values concatenated along `axis`, on the host CPU."""
        from ..api import array_ops
        with device_scope(HOST):
            parts = local_results(value)
            return array_ops.concat(list(parts), axis) if len(parts) > 1 else math_ops.identity(parts[0])

    def experimental_local_results(self, value) -> tuple:
        """The per-replica parts of `value`, ordered like the devices."""
        return local_results(value)

    # -- input ------------------------------------------------------------------------------------
    def experimental_distribute_dataset(self, dataset, options=None):
        """Iterate `dataset`'s global batches split across replicas (see input_lib for the split rule)."""
        _refuse_unhonoured(_options().check_input_options(options))
        return input_lib.DistributedDataset(dataset, self._extended.worker_devices)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """dataset_fn(InputContext) builds the per-replica input; replica i gets every n-th element."""
        checked = _options().check_input_options(options, from_function=True)
        if checked.experimental_replication_mode != _options().InputReplicationMode.PER_WORKER:
            raise NotImplementedError("InputReplicationMode.PER_REPLICA is not implemented for this strategy in "
                                      "placeflow; leave the default PER_WORKER.")
        _refuse_unhonoured(checked)
        context = input_lib.InputContext(1, 0, self.num_replicas_in_sync)
        return input_lib.DatasetsFromFunction(dataset_fn(context), self._extended.worker_devices)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_distribute_values_from_function(self, value_fn):
        """PerReplica(value_fn(ValueContext(i, n)) on replica i's device)."""
        values = []
        for index, device in enumerate(self._extended.worker_devices):
            with device_scope(device):
                result = value_fn(input_lib.ValueContext(index, self.num_replicas_in_sync))
                values.append(math_ops.identity(result) if hasattr(result, "dtype") else result)
        return values[0] if len(values) == 1 else PerReplica(values)

    def __repr__(self) -> str:
        return f"<placeflow.distribute.{type(self).__name__} devices={self._extended.worker_devices}>"


class MirroredStrategy(Strategy):
    """Synchronous data parallelism on one machine: a replica per device, variables mirrored on each."""

    def __init__(self, devices=None, cross_device_ops=None):
        _ensure_log_handler()
        names = _canonical_devices(devices)
        log.info("Using MirroredStrategy with devices %s", tuple(names))
        runtime_devices = [_runtime_device(name) for name in names]
        if cross_device_ops is None:
            cross_device_ops = cross_device_ops_lib.choose(runtime_devices) if len(names) > 1 else \
                cross_device_ops_lib.ReductionToOneDevice()
        super().__init__(names, cross_device_ops)

    def _create_variable(self, next_creator, **kwargs):
        _, replica = distribution_context.current()
        if replica is not None and self.num_replicas_in_sync > 1:
            raise ValueError("placeflow: variables cannot be created inside MirroredStrategy.run. Create them under "
                             "strategy.scope() before running the step (build the model and the optimizer first).")
        synchronization = kwargs.pop("synchronization", None) or VariableSynchronization.AUTO
        aggregation = kwargs.pop("aggregation", None) or VariableAggregation.NONE
        if synchronization == VariableSynchronization.NONE:
            raise ValueError("`NONE` variable synchronization mode is not supported with tf.distribute strategy. "
                             "Please change the `synchronization` for variable: " + str(kwargs.get("name")))
        initial_value = kwargs.get("initial_value")
        devices = self._extended.worker_devices
        components = []
        with device_scope(devices[0]):
            if callable(initial_value):
                kwargs["initial_value"] = initial_value()
            components.append(next_creator(**kwargs))
        base = components[0]._name
        for index, device in enumerate(devices[1:], start=1):
            with device_scope(device):
                copy = dict(kwargs, initial_value=components[0].read_value(), name=f"{base}/replica_{index}")
                components.append(next_creator(**copy))
        if synchronization == VariableSynchronization.ON_READ:  # each replica its own copy, combined when read
            return SyncOnReadVariable.create(self, components, aggregation)
        return MirroredVariable.create(self, components, aggregation)


class OneDeviceStrategy(Strategy):
    """Everything on one device: variables, the step and its input."""

    def __init__(self, device):
        super().__init__(_canonical_devices([device]), cross_device_ops_lib.ReductionToOneDevice())


class _DefaultStrategy(Strategy):
    """What get_strategy() returns outside any scope: no distribution at all."""

    def __init__(self):
        self._extended = StrategyExtended(self, (), cross_device_ops_lib.ReductionToOneDevice())
        self._default_replica_context = ReplicaContext(self, 0)

    @property
    def num_replicas_in_sync(self) -> int:
        return 1

    @contextlib.contextmanager
    def scope(self):
        yield self

    def run(self, fn, args=(), kwargs=None, options=None):
        _options().check_run_options(options)
        return fn(*args, **(kwargs or {}))

    def _reduce_leaf(self, reduce_op, value, axis):
        if axis is not None:
            return super()._reduce_along(reduce_op, value, axis)
        return value

    def experimental_distribute_dataset(self, dataset, options=None):
        _refuse_unhonoured(_options().check_input_options(options))
        return dataset


def _options():
    from . import input_options  # imported late: input_options reads multi_worker, which reads this module
    return input_options


def _refuse_unhonoured(options) -> None:
    """InputOptions fields these strategies' input pipelines do not read, refused by name when set."""
    defaults = _options().InputOptions()
    for field in ("experimental_fetch_to_device", "experimental_per_replica_buffer_size"):
        if getattr(options, field) != getattr(defaults, field):
            raise NotImplementedError(f"tf.distribute.InputOptions({field}={getattr(options, field)!r}) is not "
                                      f"implemented for this strategy in placeflow (CentralStorageStrategy honours "
                                      f"it); leave the default {getattr(defaults, field)!r}.")


_default = None


def default_strategy() -> _DefaultStrategy:
    """The process's default (non-distributing) strategy."""
    global _default
    if _default is None:
        _default = _DefaultStrategy()
    return _default


def _canonical_devices(devices) -> list:
    ctx = context_module._context or context_module.context()
    available = registry.devices(ctx)
    if devices is None:
        gpus = [d.name for d in available if d.device_type == "GPU"]
        return gpus or [d.name for d in available if d.device_type == "CPU"]
    if isinstance(devices, (str, DeviceSpec)) or hasattr(devices, "device_type"):
        devices = [devices]
    names = []
    base = DeviceSpec.from_string("/job:localhost/replica:0/task:0/device:CPU:0")
    for device in devices:
        text = device if isinstance(device, str) else getattr(device, "name", None) or device.to_string()
        name = base.make_merged_spec(DeviceSpec.from_string(text)).to_string()
        if not any(d.name == name for d in available):
            raise ValueError(f"Unknown device {text!r} for MirroredStrategy: available devices are "
                             f"{[d.name for d in available]}.")
        if name in names:
            raise ValueError(f"Device {text!r} appears twice in the MirroredStrategy device list {list(devices)!r}; "
                             "each replica needs its own device.")
        names.append(name)
    if not names:
        raise ValueError("MirroredStrategy needs at least one device; got an empty list.")
    return names


def _runtime_device(name):
    ctx = context_module._context or context_module.context()
    return registry.find(ctx, name)


distribution_context.register_default_strategy(default_strategy)
function_module.call_context_hooks.append(distribution_context.trace_key)


class TPUStrategy(Strategy):
    """tf.distribute.TPUStrategy: placeflow has no TPUs; the class exists for isinstance checks only."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("tf.distribute.TPUStrategy is not implemented in placeflow (no TPU devices): "
                                  "use MirroredStrategy for GPUs or MultiWorkerMirroredStrategy across hosts.")
