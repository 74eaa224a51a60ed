"""TensorFlow 1's train.Saver for a Session's variables, in TensorFlow's checkpoint format.

Each save writes `<prefix>.index` and `<prefix>.data-00000-of-00001` keyed by variable name (a TF1
"name-based" checkpoint, which TF's Saver reads), and the `checkpoint` state file naming the latest and the
kept prefixes. Restoring also reads object-based checkpoints (tf.train.Checkpoint's), matching variables by
the names recorded in their object graph, as TF's Saver does. No MetaGraphDef (`.meta`) is written."""

from __future__ import annotations

import os

import numpy as np

from ..checkpoint import object_graph, state
from ..checkpoint.tensor_bundle import BundleReader, BundleWriter
from .variables import global_variables


class Saver:
    """Saves and restores the values of `var_list` (default: every global variable) in a Session."""

    def __init__(self, var_list=None, max_to_keep=5, save_relative_paths=False, **kwargs):
        if kwargs:
            raise NotImplementedError(f"Saver({sorted(kwargs)}=...) is not implemented in placeflow.")
        variables = list(var_list.values()) if isinstance(var_list, dict) else var_list
        self._variables = list(variables) if variables is not None else global_variables()
        if not self._variables:
            raise ValueError("No variables to save")
        self._names = (list(var_list) if isinstance(var_list, dict) else [v.op.name for v in self._variables])
        self._max_to_keep = max_to_keep
        self._relative_paths = bool(save_relative_paths)
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
        dtypes = dict(zip(self._names, (v.dtype for v in self._variables)))
        writer = BundleWriter(prefix)
        try:
            for name in sorted(values):
                writer.add(name, values[name], getattr(dtypes[name], "base_dtype", dtypes[name]))
            writer.finish()
        except BaseException:
            writer.abort()
            raise
        self._remember(prefix)
        return prefix

    def restore(self, sess, save_path) -> None:
        """Load the values saved at `save_path` (a prefix save returned) into the session's variables."""
        from ..framework import errors
        reader = BundleReader(save_path)
        keys = _keys_by_name(reader)
        missing = [name for name in self._names if name not in keys]
        if missing:
            raise errors.NotFoundError(None, None, f"Key {missing[0]} not found in checkpoint {save_path}")
        values = [reader.tensor(keys[name]) for name in self._names]
        for name, variable, value in zip(self._names, self._variables, values):
            if tuple(value.shape) != tuple(variable.shape):
                raise errors.InvalidArgumentError(None, None, f"Assign requires shapes of both tensors to match. "
                                                              f"lhs shape= {list(variable.shape)} rhs shape= "
                                                              f"{list(value.shape)} (variable {name})")
        for variable, value in zip(self._variables, values):
            variable.load(value, sess)

    def _remember(self, prefix: str) -> None:
        self._kept = [p for p in self._kept if p != prefix] + [prefix]
        while self._max_to_keep and len(self._kept) > self._max_to_keep:
            state.remove_checkpoint(self._kept.pop(0))
        state.write_state(os.path.dirname(os.path.abspath(prefix)), prefix, self._kept,
                          relative_paths=self._relative_paths)


def _keys_by_name(reader) -> dict:
    """{variable name: key}: the keys themselves, and for an object-based checkpoint each value's full name."""
    keys = {key: key for key in reader.entries}
    if object_graph.OBJECT_GRAPH_KEY in reader.entries:
        for node in object_graph.decode(reader.tensor(object_graph.OBJECT_GRAPH_KEY).item()):
            for _, full_name, key in node.attributes:
                if full_name:
                    keys.setdefault(full_name, key)
    return keys


def _value(sess, step):
    if isinstance(step, (int, np.integer)):
        return step
    return sess.run(step)
