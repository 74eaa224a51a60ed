"""Writing part of a variable: `v[1:3].assign(x)`, and the scatter_nd_update/add/sub methods. Each is one
update of the variable, in eager mode and in `function`. (As in TensorFlow, a slice has `assign` only.)"""

from __future__ import annotations

from ..eager import tape
from ..eager.tensor import EagerTensor
from ..eager.variables import Variable
from ..graph.graph import Tensor as GraphTensor
from . import array_ops, indexing


class _SlicedEager(EagerTensor):
    """`variable[key]` read eagerly: the values, plus `assign` writing that slice back."""

    __slots__ = ("_variable", "_key")

    def _as_tensor(self) -> EagerTensor:
        plain = EagerTensor(self._value, self._device)
        if tape.active_count:  # ops see this plain copy: tapes differentiate through it to the slice
            tape.record("Identity", {}, [self], [plain])
        return plain


class _SlicedGraph(GraphTensor):
    """`variable[key]` inside a trace: the symbolic slice, plus the same `assign`."""

    __slots__ = ("_variable", "_key")


def _assign(self, value, use_locking=False, name=None, read_value=True):
    """Set this slice of the variable to `value` (broadcast from a scalar); returns the variable's value."""
    return self._variable._update("_SliceAssignVariableOp", value, read_value, {"key": self._key})


_SlicedEager.assign = _SlicedGraph.assign = _assign


def _getitem(self, key):
    key = array_ops.slice_key(key)
    value = array_ops.strided_slice(self, key)
    if value.__class__ is EagerTensor:
        sliced = _SlicedEager.__new__(_SlicedEager)
        sliced._value, sliced._device = value._value, value._device
    elif value.__class__ is GraphTensor:
        sliced = _SlicedGraph.__new__(_SlicedGraph)
        sliced.op, sliced.value_index, sliced.dtype, sliced._shape = value.op, value.value_index, value.dtype, \
            value._shape
    else:
        return value
    sliced._variable, sliced._key = self, key
    if tape.active_count:  # the slice is a new object: tapes differentiate through it as through the read
        tape.record("Identity", {}, [value], [sliced])
    return sliced


def scatter_nd_update(self, indices, updates, name=None):
    """Set the elements of the variable at `indices` to `updates`."""
    return self.assign(indexing.tensor_scatter_nd_update(self, indices, updates))


def scatter_nd_add(self, indices, updates, name=None):
    """Add `updates` to the elements of the variable at `indices`."""
    return self.assign(indexing.tensor_scatter_nd_add(self, indices, updates))


def scatter_nd_sub(self, indices, updates, name=None):
    """Subtract `updates` from the elements of the variable at `indices`."""
    from .math_ops import negative
    return self.assign(indexing.tensor_scatter_nd_add(self, indices, negative(updates)))


def install() -> None:
    """Give Variable its slice-writing __getitem__ and scatter methods (called once by the facade)."""
    Variable.__getitem__ = _getitem
    Variable.scatter_nd_update, Variable.scatter_nd_add, Variable.scatter_nd_sub = (
        scatter_nd_update, scatter_nd_add, scatter_nd_sub)
    Variable.__int__ = lambda self: int(self.numpy())
    Variable.__float__ = lambda self: float(self.numpy())
