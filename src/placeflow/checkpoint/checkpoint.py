"""tf.train.Checkpoint: saves the variables reachable from its dependencies in TensorFlow's format.

`save` numbers the files with `save_counter` and records them in the directory's `checkpoint` file;
`write` writes exactly the prefix it is given; `restore`/`read` match the saved object graph to the live
objects (restore.py). Files are TensorFlow 2.21's, byte for byte for the same objects: TF restores what
placeflow saves and placeflow restores what TF saves."""

from __future__ import annotations

import os

from ..framework import dtypes, errors, graph_mode
from ..framework.tracking import AutoTrackable, Trackable, wrap_or_unwrap
from ..framework.tracked_structures import tuple_view
from . import object_graph, state
from .restore import CheckpointLoadStatus, InitializationOnlyStatus, RestoreState, as_array
from .tensor_bundle import BundleReader, BundleWriter


class CheckpointOptions:
    """Options of a save or restore (TF's tf.train.CheckpointOptions). Async saving writes before `save`
    returns (so `sync()` has nothing to wait for); the other options are refused by name when set."""

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False, experimental_sharding_callback=None,
                 experimental_skip_slot_variables=False):
        refused = {"experimental_io_device": experimental_io_device,
                   "experimental_write_callbacks": experimental_write_callbacks,
                   "experimental_sharding_callback": experimental_sharding_callback}
        for name, value in refused.items():
            if value is not None:
                raise NotImplementedError(f"CheckpointOptions({name}=...) is not implemented in placeflow: "
                                          "checkpoints are written from the host as one shard.")
        self.experimental_io_device = None
        self.enable_async = bool(enable_async or experimental_enable_async_checkpoint)
        self.experimental_enable_async_checkpoint = self.enable_async
        self.experimental_skip_slot_variables = bool(experimental_skip_slot_variables)
        self.experimental_write_callbacks = None
        self.experimental_sharding_callback = None


def _check_options(options) -> None:
    if options is not None and not isinstance(options, CheckpointOptions):
        raise TypeError(f"options must be a tf.train.CheckpointOptions; got {type(options).__name__}: {options!r}")


def _refuse_in_graph(what: str) -> None:
    graph = graph_mode.active()
    if graph is not None and not getattr(graph, "is_function_graph", False):
        raise NotImplementedError(f"tf.train.Checkpoint.{what} while a TF1 graph is built is not implemented in "
                                  "placeflow; use tf.compat.v1.train.Saver with a Session, or run eagerly.")
    if graph is not None:
        raise RuntimeError(f"tf.train.Checkpoint.{what} inside a tf.function is not supported in placeflow; "
                           "call it eagerly, outside the function.")


def write_checkpoint(root, file_prefix: str) -> str:
    """Save every value reachable from `root` under `file_prefix`, with the object graph; returns the prefix."""
    objects, nodes, paths = object_graph.walk(root)
    writer = BundleWriter(file_prefix)
    try:
        for obj, node in zip(objects, nodes):
            for attribute, tensor in object_graph.serialize_values(obj).items():
                key = object_graph.checkpoint_key(paths[id(obj)], attribute)
                node.attributes.append((attribute, object_graph.full_name(obj), key))
                writer.add(key, as_array(tensor), tensor.dtype)
        object_graph.mark_values(nodes)
        writer.add(object_graph.OBJECT_GRAPH_KEY, object_graph.encode(nodes), dtypes.string)
        writer.finish()
    except BaseException:
        writer.abort()
        raise
    return file_prefix


def read_checkpoint(root, save_path) -> CheckpointLoadStatus:
    """Restore into `root` what the checkpoint at `save_path` saved; the status says what matched."""
    save_path = os.fspath(save_path)
    try:
        reader = BundleReader(save_path)
    except errors.NotFoundError as error:
        raise errors.NotFoundError(None, None, f"Error when restoring from checkpoint or SavedModel at {save_path}: "
                                               f"{error.message}\nPlease double-check that the path is correct. You "
                                               "may be missing the checkpoint suffix (e.g. the '-1' in "
                                               "'path/to/ckpt-1').") from None
    if object_graph.OBJECT_GRAPH_KEY not in reader.entries:
        raise NotImplementedError(f"{save_path} is a name-based (TF1 Saver) checkpoint: it has no object graph. "
                                  "Restoring it into tf.train.Checkpoint objects is not implemented in placeflow; "
                                  "restore it with tf.compat.v1.train.Saver, or read values with "
                                  "tf.train.load_checkpoint.")
    nodes = object_graph.decode(reader.tensor(object_graph.OBJECT_GRAPH_KEY).item())
    restore = RestoreState(reader, nodes, save_path)
    restore.restore_from(root, 0)
    return CheckpointLoadStatus(restore, root)


def _trackable_or_refuse(name: str, value):
    value = wrap_or_unwrap(value)
    if isinstance(value, Trackable) or (isinstance(value, tuple) and tuple_view(value) is not None):
        return value
    raise ValueError(f"`Checkpoint` was expecting {name} to be a trackable object (an object derived from "
                     f"`Trackable`), got {value!r}. If you believe this object should be trackable (i.e. it is part "
                     "of the TensorFlow Python API and manages state), please open an issue.")


class Checkpoint(AutoTrackable):
    """Groups trackable objects (models, optimizers, variables, modules) to save and restore together."""

    def __init__(self, root=None, **kwargs):
        super().__init__()
        if root is not None:
            root = _trackable_or_refuse("root", root)
        object.__setattr__(self, "_self_root", root)
        object.__setattr__(self, "_self_save_counter", None)
        for name, value in sorted(kwargs.items(), key=lambda item: item[0]):
            value = _trackable_or_refuse(name, value)
            if root is not None:
                root._track_trackable(value, name, overwrite=True)
            setattr(self, name, value)

    @property
    def _graph_root(self):
        return self._self_root if self._self_root is not None else self

    @property
    def save_counter(self):
        """An int64 variable counting `save` calls (made on first use, on the CPU); it numbers the files."""
        self._maybe_create_save_counter()
        return self._self_save_counter

    def _maybe_create_save_counter(self) -> None:
        if self._self_save_counter is not None:
            return
        from ..eager.variables import Variable
        from ..placement.device_scope import device
        with graph_mode.suspended(), device("/cpu:0"):
            counter = Variable(0, dtype=dtypes.int64, trainable=False, name="save_counter")
        object.__setattr__(self, "_self_save_counter", counter)
        self._graph_root._track_trackable(counter, "save_counter", overwrite=True)

    def write(self, file_prefix, options=None) -> str:
        """Save to exactly `file_prefix` (no counter, no state file); returns it."""
        _check_options(options)
        _refuse_in_graph("write")
        return write_checkpoint(self._graph_root, os.fspath(file_prefix))

    def save(self, file_prefix, options=None) -> str:
        """Save to `<file_prefix>-<save_counter>` and record it as the directory's latest; returns the path."""
        _check_options(options)
        _refuse_in_graph("save")
        self._maybe_create_save_counter()
        number = int(self._self_save_counter.assign_add(1).numpy())
        path = self.write(f"{os.fspath(file_prefix)}-{number}")
        state.write_state(os.path.dirname(os.path.abspath(path)), path, [path])
        return path

    def read(self, save_path, options=None) -> CheckpointLoadStatus:
        """Restore the values saved at `save_path` (a prefix save or write returned)."""
        _check_options(options)
        _refuse_in_graph("read")
        return read_checkpoint(self._graph_root, save_path)

    def restore(self, save_path, options=None):
        """Restore the checkpoint at `save_path` (None: nothing, an initialization-only status). Objects the
        checkpoint holds values for that do not exist yet are restored when they are created and tracked."""
        _check_options(options)
        if save_path is None:
            return InitializationOnlyStatus(self._graph_root)
        _refuse_in_graph("restore")
        status = read_checkpoint(self._graph_root, save_path)
        self._maybe_create_save_counter()  # after the read, as TF: a saved counter reaches it as a deferred value
        return status

    def sync(self) -> None:
        """Wait for an asynchronous save: placeflow's saves are complete when `save` returns."""
