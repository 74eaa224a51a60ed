"""tf.experimental.Optional: a structure of tensors that may be absent.

A Python object holding its value (or nothing), usable eagerly and inside `function` as a value
captured or returned in Python; it is not yet a graph value that crosses a `while_loop` or `cond`."""

from __future__ import annotations

from ..framework import nest
from ..framework import errors


class Optional:
    """A value, or nothing (tf.experimental.Optional)."""

    def __init__(self, value, has_value: bool, element_spec=None):
        self._value, self._has_value, self._element_spec = value, has_value, element_spec

    @staticmethod
    def from_value(value) -> "Optional":
        """An Optional holding `value` (a structure of tensors)."""
        from ..eager.convert import convert_to_tensor
        from ..framework.tensor_spec import TensorSpec
        value = nest.map_structure(convert_to_tensor, value)
        spec = nest.map_structure(lambda t: TensorSpec(t.shape, t.dtype), value)
        return Optional(value, True, spec)

    @staticmethod
    def empty(element_spec) -> "Optional":
        """An Optional holding nothing, whose value would have `element_spec`."""
        return Optional(None, False, element_spec)

    @property
    def element_spec(self):
        """The TensorSpec structure of the value."""
        return self._element_spec

    def has_value(self, name=None):
        """A boolean scalar tensor: whether a value is present."""
        from ..eager.convert import constant
        return constant(self._has_value)

    def get_value(self, name=None):
        """The value; InvalidArgumentError when there is none."""
        if not self._has_value:
            raise errors.InvalidArgumentError(None, None, "The optional does not have a value")
        return self._value

    def __repr__(self) -> str:
        return f"<Optional has_value={self._has_value} element_spec={self._element_spec!r}>"
