"""tf.train.experimental.PythonState: Python state saved in a checkpoint as one string (`py_state`)."""

from __future__ import annotations

import abc

from ..framework.tracking import Trackable

PYTHON_STATE = "py_state"


class PythonState(Trackable, metaclass=abc.ABCMeta):
    """Subclass and define serialize() (returns a string) and deserialize(string) to checkpoint Python state."""

    @abc.abstractmethod
    def serialize(self):
        """The state as a string (or bytes)."""

    @abc.abstractmethod
    def deserialize(self, string_value):
        """Set the state from the bytes `serialize` returned."""

    def _serialize_to_tensors(self) -> dict:
        from ..eager.convert import convert_to_tensor
        from ..framework import dtypes, graph_mode
        with graph_mode.suspended():
            return {PYTHON_STATE: convert_to_tensor(self.serialize(), dtype=dtypes.string)}

    def _restore_from_tensors(self, restored_tensors) -> None:
        value = restored_tensors[PYTHON_STATE]
        self.deserialize(value.item() if hasattr(value, "item") else value)
