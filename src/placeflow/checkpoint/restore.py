"""Restoring a checkpoint into live objects, and the status object `Checkpoint.restore` returns.

The saved object graph is matched to the live one from the root by local names. Values of matched
objects are checked (dtype, shape) all together, then assigned; a saved child the live object does not
have yet is remembered on that object and restored when it is tracked (TF's restore-on-create: a Keras
layer built after the restore, an optimizer's slots made at its first step)."""

from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from . import object_graph
from .object_graph import children_of, serialize_values


class RestoreState:
    """One restore: the reader, the saved nodes, and which live object each saved node matched."""

    def __init__(self, reader, nodes: list, save_path: str):
        self.reader = reader
        self.nodes = nodes
        self.save_path = save_path
        self.matched: dict = {}   # saved node id -> live object
        self.unused_attributes: dict = {}   # saved node id -> attribute names the live object lacks

    def restore_from(self, obj, node_id: int) -> None:
        """Match `obj` to saved node `node_id` and restore it and everything below it that exists now."""
        assignments = []
        self._match(obj, node_id, assignments)
        _check(assignments)
        for target, values in assignments:
            target._restore_from_tensors(values)

    def _match(self, obj, node_id: int, assignments: list) -> None:
        queue = [(obj, node_id)]
        while queue:
            obj, node_id = queue.pop(0)
            if node_id in self.matched:
                continue
            self.matched[node_id] = obj
            node = self.nodes[node_id]
            if node.attributes:
                assignments.append(self._values_for(obj, node_id, node))
            live = children_of(obj)
            for child_id, name in node.children:
                child = live.get(name)
                if child is None:
                    if hasattr(obj, "_defer_restore"):
                        obj._defer_restore(name, self._restorer(child_id))
                elif child_id not in self.matched:
                    queue.append((child, child_id))

    def _restorer(self, node_id: int):
        def restore(child):
            if node_id not in self.matched:
                self.restore_from(child, node_id)
        return restore

    def _values_for(self, obj, node_id: int, node) -> tuple:
        wanted = set(serialize_values(obj)) if hasattr(obj, "_serialize_to_tensors") else set()
        values = {}
        for name, _, key in node.attributes:
            if name in wanted:
                values[name] = (key, self.reader.tensor(key))
            else:
                self.unused_attributes.setdefault(node_id, []).append(name)
        return obj, values


def _check(assignments: list) -> None:
    """Raise before anything is assigned when a saved value does not fit its variable (TF's errors)."""
    for target, values in assignments:
        if not (hasattr(target, "dtype") and hasattr(target, "shape")):
            continue  # not a variable (e.g. PythonState): its own _restore_from_tensors judges the value
        for key, value in values.values():
            want = dtypes.as_dtype(target.dtype)
            got = dtypes.as_dtype(value.dtype) if value.dtype != object else dtypes.string
            if want != got:
                raise errors.InvalidArgumentError(
                    None, None, f"{{{{function_node __wrapped__RestoreV2_dtypes_{len(values)}_device_/job:localhost/"
                                f"replica:0/task:0/device:CPU:0}}}} tensor_name = {key}; expected dtype {dtypes.cpp_name(want)} does not equal "
                                f"original dtype {dtypes.cpp_name(got)} [Op:RestoreV2]")
            shape = tuple(int(d) for d in target.shape)
            if shape != tuple(value.shape):
                raise ValueError(f"Received incompatible tensor with shape {tuple(value.shape)} when attempting to "
                                 f"restore variable with shape {shape} and name {getattr(target, 'name', key)}.")
    for index, (target, values) in enumerate(assignments):
        assignments[index] = (target, {name: value for name, (_, value) in values.items()})


def node_names(nodes: list) -> dict:
    """{node id: '(root).a.b'}: the breadth-first path names TF prints for saved nodes."""
    names = {0: "(root)"}
    queue = [0]
    while queue:
        node_id = queue.pop(0)
        for child_id, name in nodes[node_id].children:
            if child_id not in names:
                names[child_id] = f"{names[node_id]}.{name}"
                queue.append(child_id)
    return names


def node_text(node) -> str:
    """A saved node in protocol-buffer text format (as TF's assertion messages show it)."""
    lines = []
    for node_id, name in node.children:
        lines += ["children {"] + ([f"  node_id: {node_id}"] if node_id else []) + [f'  local_name: "{name}"', "}"]
    for name, full, key in node.attributes:
        lines += ["attributes {", f'  name: "{name}"', f'  full_name: "{full}"', f'  checkpoint_key: "{key}"', "}"]
    lines += ["has_checkpoint_values {"] + (["  value: true"] if node.has_values else []) + ["}"]
    return "\n".join(lines) + "\n"


def live_objects(root) -> list:
    """Every trackable reachable from `root` now, breadth-first."""
    return object_graph.walk(root)[0]


class CheckpointLoadStatus:
    """What a restore matched; its assertions say what did not (TF's CheckpointLoadStatus)."""

    def __init__(self, state: RestoreState, root):
        self._state = state
        self._root = root

    def assert_consumed(self):
        """Every saved value and every live object was matched; AssertionError naming the first that was not."""
        self.assert_existing_objects_matched()
        names = node_names(self._state.nodes)
        for node_id, node in enumerate(self._state.nodes):
            if node.attributes and node_id not in self._state.matched:
                raise AssertionError(f"Unresolved object in checkpoint {names[node_id]}: {node_text(node)}")
        if self._state.unused_attributes:
            lines = "\n".join(f"    {names[i]}: {attrs}" for i, attrs in self._state.unused_attributes.items())
            raise AssertionError("Unused attributes in these objects (the attributes exist in the checkpoint but "
                                 f"were not restored):\n{lines}")
        return self

    def assert_existing_objects_matched(self):
        """Every live object holding a value matched a saved one; AssertionError listing those that did not."""
        matched = {id(obj) for obj in self._state.matched.values()}
        unmatched = [obj for obj in live_objects(self._root)
                     if id(obj) not in matched and hasattr(obj, "_serialize_to_tensors")]
        if unmatched:
            shown = min(10, len(unmatched))
            raise AssertionError(f"Found {len(unmatched)} Python objects that were not bound to checkpointed values, "
                                 f"likely due to changes in the Python program. Showing {shown} of {len(unmatched)} "
                                 f"unmatched objects: {unmatched[:shown]}")
        return self

    def assert_nontrivial_match(self):
        """Something besides the root matched; AssertionError otherwise."""
        if len(self._state.matched) <= 1:
            matched = {id(obj) for obj in self._state.matched.values()}
            unmatched = [obj for obj in live_objects(self._root) if id(obj) not in matched]
            if unmatched:
                raise AssertionError("Nothing except the root object matched a checkpointed value. Typically this "
                                     "means that the checkpoint does not match the Python program. The following "
                                     f"objects have no matching checkpointed value: {unmatched}")
            raise AssertionError(f"Nothing to load. No dependencies have been added to {self._root} yet.")
        return self

    def expect_partial(self):
        """Say that a partial restore is intended; returns the status."""
        return self

    def run_restore_ops(self, session=None) -> None:
        """Nothing to run: values are restored eagerly."""

    def initialize_or_restore(self, session=None) -> None:
        """Nothing to run: values are restored eagerly and new variables start initialized."""


class InitializationOnlyStatus:
    """The status of `restore(None)`: nothing restored, variables keep their initial values."""

    def __init__(self, root):
        self._root = root

    def _nothing(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    assert_consumed = assert_existing_objects_matched = assert_nontrivial_match = _nothing

    def expect_partial(self):
        """Returns the status."""
        return self

    def run_restore_ops(self, session=None) -> None:
        """Nothing to restore."""

    def initialize_or_restore(self, session=None) -> None:
        """Variables start initialized eagerly: nothing to do."""


def as_array(tensor) -> np.ndarray:
    """The NumPy value of a tensor or variable about to be saved."""
    value = tensor.numpy() if hasattr(tensor, "numpy") else tensor
    return np.asarray(value)
