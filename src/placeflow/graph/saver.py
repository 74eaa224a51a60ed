"""TensorFlow 1's train.Saver for a Session's variables.

The file is placeflow's own format, not TensorFlow's checkpoint: `<prefix>.npz`, a NumPy archive of
{variable name: value}, and a `checkpoint` text file beside it naming the latest prefix (as TF's does),
which `latest_checkpoint` reads."""

from __future__ import annotations

import os

import numpy as np

from .variables import global_variables

_STATE_FILE = "checkpoint"


class Saver:
    """Saves and restores the values of `var_list` (default: every global variable) in a Session."""

    def __init__(self, var_list=None, max_to_keep=5, **kwargs):
        if kwargs:
            raise NotImplementedError(f"Saver({sorted(kwargs)}=...) is not implemented in placeflow.")
        variables = list(var_list.values()) if isinstance(var_list, dict) else var_list
        self._variables = list(variables) if variables is not None else global_variables()
        if not self._variables:
            raise ValueError("No variables to save")
        self._names = (list(var_list) if isinstance(var_list, dict) else [v.op.name for v in self._variables])
        self._max_to_keep = max_to_keep
        self._kept: list = []

    def save(self, sess, save_path, global_step=None, latest_filename=None, meta_graph_suffix="meta",
             write_meta_graph=True, write_state=True, strip_default_attrs=False, save_debug_info=False) -> str:
        """Write the variables' values; returns the checkpoint prefix (save_path-<global_step> when given).
        placeflow writes no meta graph (write_meta_graph is accepted only as TF's default, which it cannot
        honour either way: there is no MetaGraphDef), and always records the latest prefix."""
        if latest_filename is not None or not write_state or strip_default_attrs or save_debug_info:
            raise NotImplementedError("Saver.save supports save_path and global_step; latest_filename, "
                                      "write_state=False, strip_default_attrs and save_debug_info are not "
                                      "implemented in placeflow.")
        prefix = save_path if global_step is None else f"{save_path}-{int(_value(sess, global_step))}"
        values = dict(zip(self._names, sess.run(self._variables)))
        with open(prefix + ".npz", "wb") as handle:
            np.savez(handle, **values)
        self._remember(prefix)
        return prefix

    def restore(self, sess, save_path) -> None:
        """Load the values saved at `save_path` (a prefix save returned) into the session's variables."""
        path = save_path + ".npz"
        if not os.path.exists(path):
            from ..framework import errors
            raise errors.NotFoundError(None, None, f"Failed to find any matching files for {save_path}")
        with np.load(path, allow_pickle=False) as archive:
            missing = [name for name in self._names if name not in archive]
            if missing:
                from ..framework import errors
                raise errors.NotFoundError(None, None, f"Key {missing[0]} not found in checkpoint {save_path}")
            for name, variable in zip(self._names, self._variables):
                variable.load(archive[name], sess)

    def _remember(self, prefix: str) -> None:
        self._kept = [p for p in self._kept if p != prefix] + [prefix]
        while self._max_to_keep and len(self._kept) > self._max_to_keep:
            old = self._kept.pop(0)
            if os.path.exists(old + ".npz"):
                os.remove(old + ".npz")
        directory = os.path.dirname(os.path.abspath(prefix))
        with open(os.path.join(directory, _STATE_FILE), "w", encoding="utf-8") as handle:
            handle.write(f'model_checkpoint_path: "{os.path.basename(prefix)}"\n')
            for kept in self._kept:
                handle.write(f'all_model_checkpoint_paths: "{os.path.basename(kept)}"\n')


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the latest checkpoint saved in `checkpoint_dir`, or None."""
    path = os.path.join(checkpoint_dir, latest_filename or _STATE_FILE)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("model_checkpoint_path:"):
                return os.path.join(checkpoint_dir, line.split('"')[1])
    return None


def _value(sess, step):
    if isinstance(step, (int, np.integer)):
        return step
    return sess.run(step)
