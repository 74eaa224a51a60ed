"""Where a Session keeps the values of TensorFlow 1 ref variables, one slot per VariableV2 node."""

from __future__ import annotations

import threading

import numpy as np

from ..eager.variables import begin_write, current_value, end_write, update_lock
from ..framework import errors
from ..runtime.forwarding import item_held_only_by


class VariableStore:
    """Variable values of one Session, each on the device its VariableV2 node was placed on."""

    def __init__(self):
        self._values: dict = {}
        self._lock = threading.RLock()   # held across a read-modify-write: assign_add from threads is exact
        self._writing: set = set()       # ops whose buffer an update is writing into (readers wait)

    def slot(self, op, device) -> "Slot":
        """The handle a VariableV2 node outputs: reads and assigns go through it."""
        return Slot(self, op, device)

    def set(self, op, value) -> None:
        """Set a variable's value from outside a step (Variable.load)."""
        self._values[op] = np.asarray(value, dtype=op.dtype.numpy_dtype)

    def is_initialized(self, op) -> bool:
        """Whether the variable has a value in this session."""
        return op in self._values


class Slot:
    """One variable of one session: read, assign, assign_add, assign_sub (new values are charged to the device)."""

    __slots__ = ("store", "op", "device")

    def __init__(self, store, op, device):
        self.store, self.op, self.device = store, op, device

    def get(self):
        """The current value; FailedPreconditionError (TensorFlow's text) before initialization."""
        store = self.store
        try:
            value = store._values[self.op]
            if self.op in store._writing:  # an in-place update is under way: wait for it
                with store._lock:
                    value = store._values[self.op]
            return value
        except KeyError:
            name = self.op.name
            raise errors.FailedPreconditionError(None, self.op, (
                f"Attempting to use uninitialized value {name}\n\t [[{{{{node {name}}}}}]]\nplaceflow: run "
                f"{name}.initializer or placeflow.compat.v1.global_variables_initializer() in this session "
                "first.")) from None

    def assign(self, value):
        """Set the value (shape checked against the variable's static shape)."""
        shape = self.op.attrs.get("shape")
        if shape is not None and None not in shape and tuple(value.shape) != tuple(shape):
            raise errors.InvalidArgumentError(None, self.op, (
                f"Assign requires shapes of both tensors to match. lhs shape= {list(shape)} rhs shape= "
                f"{list(value.shape)}"))
        value = self.device.charge(value)
        with self.store._lock:
            self.store._values[self.op] = value
        return value

    def assign_add(self, delta):
        """value += delta, atomically (into the value's own buffer when no read of it is alive)."""
        return self._update(np.add, delta)

    def assign_sub(self, delta):
        """value -= delta, atomically (into the value's own buffer when no read of it is alive)."""
        return self._update(np.subtract, delta)

    def _update(self, ufunc, delta):
        store = self.store
        with store._lock:
            store._writing.add(self.op)  # before the check: a reader starting now waits, an earlier one holds a ref
            try:
                if self._writes_in_place(delta):
                    return ufunc(store._values[self.op], delta, out=store._values[self.op])
                return self.assign(ufunc(self.get(), delta))
            finally:
                store._writing.discard(self.op)

    def _writes_in_place(self, delta) -> bool:
        values = self.store._values
        if self.op not in values or not self.device.host_backed:
            return False
        old = values[self.op]
        fits = isinstance(old, np.ndarray) and np.shape(delta) in (old.shape, ()) and \
            np.result_type(old, delta) == old.dtype
        del old
        return fits and item_held_only_by(values, self.op)


def write_variable(op_type: str, var, kernel, attrs: dict, value) -> None:
    """Assign*/ResourceApply* on a captured eager variable, through its device's kernel call (which
    charges the new value to the device); the variable changes only when the kernel succeeded. With no
    read of the variable alive (`writing`), an update writes into the variable's own buffer."""
    with update_lock(var):
        try:
            in_place = begin_write(var, op_type, value)
            result = var._device.run(op_type, kernel.fn, (var._value, value), dict(attrs, _in_place=True)
                                     if in_place else attrs, var.name)
        finally:
            end_write(var)
        if result is not var._value and op_type == "AssignVariableOp":
            trim = getattr(var._device.memory, "trim", None)
            if trim is not None and isinstance(result, np.ndarray):
                trim(result)
        var._value = result
