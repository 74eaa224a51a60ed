"""The `checkpoint` state file beside checkpoints: the latest prefix and the ones kept, in TensorFlow's
text format (CheckpointState), which tf.train.latest_checkpoint and CheckpointManager read."""

from __future__ import annotations

import os

from . import tensor_bundle

STATE_FILE = "checkpoint"


class CheckpointState:
    """The parsed state file: model_checkpoint_path, all_model_checkpoint_paths and their timestamps."""

    def __init__(self, model_checkpoint_path="", all_model_checkpoint_paths=(), all_model_checkpoint_timestamps=(),
                 last_preserved_timestamp=None):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
        self.last_preserved_timestamp = last_preserved_timestamp

    def __str__(self) -> str:
        lines = [f'model_checkpoint_path: "{self.model_checkpoint_path}"']
        lines += [f'all_model_checkpoint_paths: "{p}"' for p in self.all_model_checkpoint_paths]
        lines += [f"all_model_checkpoint_timestamps: {_number(t)}" for t in self.all_model_checkpoint_timestamps]
        if self.last_preserved_timestamp is not None:
            lines.append(f"last_preserved_timestamp: {_number(self.last_preserved_timestamp)}")
        return "\n".join(lines) + "\n"

    __repr__ = __str__


def _number(value: float) -> str:
    return f"{value:.17g}"


def write_state(directory: str, latest: str, kept, timestamps=(), last_preserved=None,
                latest_filename=None, relative_paths=True) -> None:
    """Record `latest` and the `kept` prefixes (names relative to `directory` when inside it, unless
    `relative_paths` is False: then as given, as TF1's Saver records them)."""
    def relative(path):
        inside = os.path.dirname(os.path.abspath(path)) == os.path.abspath(directory)
        return os.path.relpath(path, directory) if relative_paths and inside else path
    state = CheckpointState(relative(latest), [relative(p) for p in kept], timestamps, last_preserved)
    path = os.path.join(directory, latest_filename or STATE_FILE)
    temp = path + ".tmp"
    with open(temp, "w", encoding="utf-8") as handle:
        handle.write(str(state))
    os.replace(temp, path)


def read_state(directory: str, latest_filename=None):
    """The CheckpointState of `directory` with paths made absolute, or None when there is no state file."""
    path = os.path.join(directory, latest_filename or STATE_FILE)
    if not os.path.isfile(path):
        return None
    state = CheckpointState()
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            field, _, value = line.partition(":")
            value = value.strip()
            if field == "model_checkpoint_path":
                state.model_checkpoint_path = _absolute(directory, _unquote(value))
            elif field == "all_model_checkpoint_paths":
                state.all_model_checkpoint_paths.append(_absolute(directory, _unquote(value)))
            elif field == "all_model_checkpoint_timestamps":
                state.all_model_checkpoint_timestamps.append(float(value))
            elif field == "last_preserved_timestamp":
                state.last_preserved_timestamp = float(value)
    if not state.model_checkpoint_path:
        return None
    return state


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
    return value


def _absolute(directory: str, path: str) -> str:
    return path if os.path.isabs(path) else os.path.join(directory, path)


def checkpoint_exists(prefix: str) -> bool:
    """Whether a checkpoint's index file is there."""
    return os.path.isfile(tensor_bundle.index_path(prefix))


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the latest checkpoint saved in `checkpoint_dir`, or None (no state file, or its files
    are gone)."""
    state = read_state(os.fspath(checkpoint_dir), latest_filename)
    if state is not None and checkpoint_exists(state.model_checkpoint_path):
        return state.model_checkpoint_path
    return None


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The CheckpointState of `checkpoint_dir` (absolute paths), or None."""
    return read_state(os.fspath(checkpoint_dir), latest_filename)


def remove_checkpoint(prefix: str) -> None:
    """Delete a checkpoint's index and data files."""
    directory = os.path.dirname(os.path.abspath(prefix))
    base = os.path.basename(prefix)
    for name in os.listdir(directory):
        if name == base + ".index" or name.startswith(base + ".data-"):
            os.remove(os.path.join(directory, name))
