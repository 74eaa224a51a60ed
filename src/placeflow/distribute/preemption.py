"""Saving on preemption: tf.distribute.experimental.TerminationConfig and PreemptionCheckpointHandler.

The handler restores the newest checkpoint of its directory when made, then watches for a termination
notice: SIGTERM by default (as TensorFlow on platforms other than Google's), or a `termination_watcher_fn`
polled once a second. `run(train_step, ...)` runs the step; once a notice has arrived (and the grace period
has passed) it saves a checkpoint with placeflow's checkpoints and calls `exit_fn` (default: exit with
code 42, TensorFlow's, so that a launcher can restart the program, which then resumes from that checkpoint).
With several workers (MultiWorkerMirroredStrategy) every `run` shares the notice between the workers, so that
they all stop at the same step; only the chief writes the checkpoint.

PreemptionWatcher reads preemption messages of Google's TPU coordination service, which placeflow does not
have: it is refused by name.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
import time

import numpy as np

from ..framework import dtypes, errors
from . import distribution_context

log = logging.getLogger("placeflow.distribute")
RESTART_CODE = 42  # TensorFlow's exit code after a preemption checkpoint on platforms other than Google's
WATCH_INTERVAL_S = 1.0  # how often a termination_watcher_fn is polled


class TerminationConfig:
    """How a PreemptionCheckpointHandler learns of termination, how long it may keep training, how it exits."""

    def __init__(self, termination_watcher_fn=None, exit_fn=None, grace_period=None, save_fn=None):
        for name, fn in (("termination_watcher_fn", termination_watcher_fn), ("exit_fn", exit_fn),
                         ("save_fn", save_fn)):
            if fn is not None and not callable(fn):
                raise TypeError(f"TerminationConfig's `{name}` must be a function or None, got {fn!r}.")
        if grace_period is not None and grace_period < 0:
            raise ValueError(f"TerminationConfig's `grace_period` must be >= 0 seconds, got {grace_period}.")
        self.termination_watcher_fn, self.exit_fn = termination_watcher_fn, exit_fn
        self.grace_period, self.save_fn = grace_period, save_fn


def _default_exit():
    sys.exit(RESTART_CODE)


class PreemptionCheckpointHandler:
    """Restores the newest checkpoint, and saves one then exits when the program is told to terminate."""

    def __init__(self, cluster_resolver, checkpoint_or_checkpoint_manager, checkpoint_dir=None,
                 termination_config=None):
        from ..checkpoint.manager import CheckpointManager
        config = termination_config or TerminationConfig()
        self._cluster_resolver, self._config = cluster_resolver, config
        self._strategy = distribution_context.get_strategy()
        self._manager = self._make_manager(checkpoint_or_checkpoint_manager, checkpoint_dir, CheckpointManager)
        self._run_calls = self._make_counter(self._manager._checkpoint)
        self._manager.restore_or_initialize()
        self._notice_time = None  # time.monotonic() of the termination notice, None before one
        self._stop = threading.Event()
        self._previous_handler = None
        self._watch()

    @staticmethod
    def _make_manager(target, checkpoint_dir, manager_class):
        if isinstance(target, manager_class):
            if checkpoint_dir is not None and os.path.abspath(checkpoint_dir) != os.path.abspath(target.directory):
                raise ValueError(f"checkpoint_dir {checkpoint_dir!r} differs from the CheckpointManager's directory "
                                 f"{target.directory!r}: pass only the manager.")
            return target
        if not hasattr(target, "save_counter"):
            raise TypeError("PreemptionCheckpointHandler takes a tf.train.Checkpoint or tf.train.CheckpointManager, "
                            f"got {target!r}.")
        if checkpoint_dir is None:
            raise errors.InvalidArgumentError(None, None, "When a `tf.train.Checkpoint` is passed, a "
                                              "`checkpoint_dir` must be passed as well: the directory of the "
                                              "preemption checkpoints.")
        return manager_class(target, checkpoint_dir, max_to_keep=1)

    @staticmethod
    def _make_counter(checkpoint):
        from ..eager.variables import Variable
        counter = Variable(0, dtype=dtypes.int64, trainable=False, name="preemption_run_calls")
        checkpoint._graph_root._track_trackable(counter, "_preemption_handler_run_calls", overwrite=True)
        return counter

    # -- watching ---------------------------------------------------------------------------------
    def _watch(self) -> None:
        if self._config.termination_watcher_fn is None:
            if threading.current_thread() is not threading.main_thread():
                raise RuntimeError("PreemptionCheckpointHandler watches SIGTERM, which only the main thread can do: "
                                   "make it in the main thread, or pass TerminationConfig(termination_watcher_fn=).")
            self._previous_handler = signal.signal(signal.SIGTERM, self._on_signal)
            return
        threading.Thread(target=self._poll, name="placeflow-termination-watcher", daemon=True).start()

    def _on_signal(self, signum, frame) -> None:
        log.info("PreemptionCheckpointHandler: termination signal %d received; saving at the end of this step.",
                 signum)
        self._notice()

    def _poll(self) -> None:
        while not self._stop.wait(WATCH_INTERVAL_S):
            if self._config.termination_watcher_fn():
                self._notice()
                return

    def _notice(self) -> None:
        if self._notice_time is None:
            self._notice_time = time.monotonic()

    def _due(self) -> bool:
        """Whether this step must end in a checkpoint and exit (agreed by every worker)."""
        grace = self._config.grace_period or 0
        due = self._notice_time is not None and time.monotonic() - self._notice_time >= grace
        extended = self._strategy.extended
        if getattr(extended, "num_workers", 1) > 1:
            return bool(extended.host_sum_over_workers(np.array([int(due)], np.int64))[0])
        return due

    # -- the public API ---------------------------------------------------------------------------
    @property
    def total_run_calls(self) -> int:
        """How many times `run` was called, counting the runs before a restart (saved in the checkpoint)."""
        return int(self._run_calls.numpy())

    def run(self, distributed_train_function, *args, **kwargs):
        """distributed_train_function(*args, **kwargs); then, when termination was announced, save and exit."""
        result = distributed_train_function(*args, **kwargs)
        self._run_calls.assign_add(1)
        self._save_and_exit_if_due()
        return result

    def save_checkpoint_if_preempted(self, *args, **kwargs) -> None:
        """Save a checkpoint and exit if termination was announced (args: CheckpointManager.save's)."""
        self._save_and_exit_if_due(*args, **kwargs)

    @contextlib.contextmanager
    def watch_preemption_scope(self):
        """Runs inside are checked for termination when the scope ends (TensorFlow's TPU workflow)."""
        yield
        self._save_and_exit_if_due()

    def _save_and_exit_if_due(self, *args, **kwargs) -> None:
        if not self._due():
            return
        if self._config.save_fn is not None:
            self._config.save_fn()
        elif self._strategy.extended.should_checkpoint:
            path = self._manager.save(*args, **kwargs)
            log.info("PreemptionCheckpointHandler: saved %s before exiting.", path)
        self._notice_time = None
        (self._config.exit_fn or _default_exit)()
        if self._config.termination_watcher_fn is not None:  # an exit_fn that returns: keep watching
            threading.Thread(target=self._poll, name="placeflow-termination-watcher", daemon=True).start()

    def __del__(self):
        stop = getattr(self, "_stop", None)
        if stop is not None:
            stop.set()


class PreemptionWatcher:
    """tf.distribute.experimental.PreemptionWatcher: refused (it needs Google's TPU coordination service)."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("tf.distribute.experimental.PreemptionWatcher is not implemented in placeflow: it "
                                  "reads Google's TPU coordination service. Use PreemptionCheckpointHandler (SIGTERM "
                                  "or a TerminationConfig termination_watcher_fn) instead.")
