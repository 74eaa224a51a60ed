"""tf.train.CheckpointManager: numbered saves in one directory, keeping the newest `max_to_keep`
(and one every `keep_checkpoint_every_n_hours`), recorded in the directory's state file as TF records them."""

from __future__ import annotations

import os
import time

from . import state


class CheckpointManager:
    """Saves `checkpoint` as `<directory>/<checkpoint_name>-<n>` and deletes the old ones."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None, init_fn=None):
        if directory is None:
            raise ValueError("directory cannot be None.")
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, got {max_to_keep}.")
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is not None.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_every_n_hours = keep_checkpoint_every_n_hours
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._init_fn = init_fn
        self._last_checkpoint_step = None
        self._kept: dict = {}   # prefix -> timestamp, oldest first
        self._latest = None
        self._last_preserved = time.time()
        self._recover()

    def _recover(self) -> None:
        recovered = state.get_checkpoint_state(self._directory)
        if recovered is None:
            return
        self._latest = recovered.model_checkpoint_path
        timestamps = recovered.all_model_checkpoint_timestamps
        paths = recovered.all_model_checkpoint_paths
        if len(timestamps) != len(paths):
            timestamps = [self._last_preserved] * len(paths)
        if recovered.last_preserved_timestamp is not None:
            self._last_preserved = min(recovered.last_preserved_timestamp, self._last_preserved)
        self._kept = {p: t for p, t in zip(paths, timestamps)}

    @property
    def directory(self) -> str:
        """The directory the checkpoints are in."""
        return self._directory

    @property
    def checkpoint_interval(self):
        """The smallest number of steps between two saves (None: no limit)."""
        return self._checkpoint_interval

    @property
    def latest_checkpoint(self):
        """The prefix of the newest checkpoint, or None."""
        return self._latest

    @property
    def checkpoints(self) -> list:
        """The prefixes of the kept checkpoints, oldest first."""
        return list(self._kept)

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Save one checkpoint (numbered `checkpoint_number`, else by the checkpoint's save counter) and delete the
        oldest beyond `max_to_keep`; returns its prefix, or None when fewer than `checkpoint_interval` steps of
        the step counter passed since the last save."""
        step = None
        if self._step_counter is not None:
            step = int(_value(self._step_counter))
        if self._checkpoint_interval is not None and check_interval and self._last_checkpoint_step is not None \
                and step - self._last_checkpoint_step < self._checkpoint_interval:
            return None
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        if checkpoint_number is None:
            checkpoint_number = int(counter.numpy())
        path = self._checkpoint.write(f"{self._prefix}-{int(_value(checkpoint_number))}", options=options)
        self._last_checkpoint_step = step
        self._kept.pop(path, None)
        self._kept[path] = time.time()
        self._latest = path
        self._record()
        self._sweep()
        self._record()
        return path

    def restore_or_initialize(self):
        """Restore the latest checkpoint and return its prefix; else run `init_fn` (if any) and return None."""
        if self._latest is not None:
            self._checkpoint.restore(self._latest)
            return self._latest
        if self._init_fn is not None:
            self._init_fn()
        return None

    def sync(self) -> None:
        """Wait for asynchronous saves: placeflow's are complete when `save` returns."""

    def _sweep(self) -> None:
        if self._max_to_keep is None:
            return
        while len(self._kept) > self._max_to_keep:
            path = next(iter(self._kept))
            timestamp = self._kept.pop(path)
            if self._keep_every_n_hours is not None and \
                    timestamp - self._keep_every_n_hours * 3600.0 >= self._last_preserved:
                self._last_preserved = timestamp
                continue
            state.remove_checkpoint(path)

    def _record(self) -> None:
        state.write_state(self._directory, self._latest, list(self._kept), list(self._kept.values()),
                          self._last_preserved)


def _value(number):
    return number.numpy() if hasattr(number, "numpy") else number
