"""Reading checkpoints by key: tf.train.load_checkpoint (a CheckpointReader), list_variables, load_variable."""

from __future__ import annotations

import os

from . import state
from .tensor_bundle import BundleReader


def _prefix(ckpt_dir_or_file) -> str:
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = state.latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory {path}")
        return latest
    return path


class CheckpointReader:
    """The tensors of one checkpoint by key (TF's py_checkpoint_reader.CheckpointReader)."""

    def __init__(self, prefix: str):
        self._bundle = BundleReader(prefix)

    def get_tensor(self, tensor_str):
        """The saved value under `tensor_str` as a NumPy array (bytes for a string scalar)."""
        value = self._bundle.tensor(tensor_str)
        return value.item() if value.dtype == object and value.ndim == 0 else value

    def has_tensor(self, tensor_str) -> bool:
        """Whether the checkpoint holds `tensor_str`."""
        return tensor_str in self._bundle.entries

    def get_variable_to_shape_map(self) -> dict:
        """{key: shape as a list} of every saved tensor."""
        return {key: list(entry.shape) for key, entry in self._bundle.entries.items()}

    def get_variable_to_dtype_map(self) -> dict:
        """{key: dtype} of every saved tensor."""
        return {key: entry.dtype for key, entry in self._bundle.entries.items()}

    def debug_string(self) -> bytes:
        """One line per tensor: `key (DT_x) [shape]`, as TF's debug string."""
        from ..framework.dtypes import enum_name
        lines = [f"{key} ({enum_name(entry.dtype)}) {list(entry.shape)}"
                 for key, entry in sorted(self._bundle.entries.items())]
        return ("\n".join(lines) + "\n").encode("utf-8")


def load_checkpoint(ckpt_dir_or_file) -> CheckpointReader:
    """A CheckpointReader of the checkpoint at a prefix, or of the latest one in a directory."""
    return CheckpointReader(_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file) -> list:
    """[(key, shape)] of every tensor in the checkpoint, sorted by key."""
    reader = load_checkpoint(ckpt_dir_or_file)
    return sorted(reader.get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file, name: str):
    """The value saved under `name` (a trailing ':0' dropped)."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yield each new latest checkpoint of `checkpoint_dir` as it appears; stop after `timeout` seconds
    without one (unless `timeout_fn` returns False)."""
    import time
    last = None
    while True:
        deadline = None if timeout is None else time.time() + timeout
        path = state.latest_checkpoint(checkpoint_dir)
        while path is None or path == last:
            if deadline is not None and time.time() > deadline:
                path = None
                break
            time.sleep(1.0)
            path = state.latest_checkpoint(checkpoint_dir)
        if path is None:
            if timeout_fn is None or timeout_fn():
                return
            continue
        started = time.time()
        last = path
        yield path
        remaining = min_interval_secs - (time.time() - started)
        if remaining > 0:
            time.sleep(remaining)

