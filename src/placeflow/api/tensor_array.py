"""tf.TensorArray: a list of same-shaped tensors, written one index at a time, that loops can carry.

Eagerly it is a Python list of tensors, changed in place by `write` (as TensorFlow's eager TensorArray).
In a graph it is one tensor of shape [size, *element_shape] (a "buffer") that every write replaces:
`write` returns a new TensorArray, so a `while_loop` (or an AutoGraph loop) carries the buffer as a loop
variable. The element shape must be known in a graph; a loop whose array has none yet learns it from a
first, discarded trace of the loop body (see control_flow.while_loop).
"""

from __future__ import annotations

import threading

from ..eager.convert import convert_to_tensor
from ..framework import dtypes, errors, graph_mode
from ..framework.tensor_shape import TensorShape
from . import array_ops, indexing, math_ops


class TensorArray:
    """TensorFlow's TensorArray: `ta = ta.write(i, value)`, `read(i)`, `stack()`, `unstack`, `gather`,
    `scatter`, `concat`, `size()`; `dynamic_size=True` grows on writes past the end."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None,
                 colocate_with_first_write_call=True, name=None):
        if handle is not None or flow is not None:
            raise NotImplementedError("TensorArray(handle=..., flow=...) is not implemented in placeflow: create "
                                      "it from a dtype and size.")
        if size is None and not dynamic_size:
            raise ValueError("Size must be provided if handle is not provided")
        self._dtype = dtypes.as_dtype(dtype)
        self._lineage = object()  # shared by the arrays this one's writes return (see shapes_learned_into)
        self._dynamic_size = bool(dynamic_size)
        self._infer_shape = bool(infer_shape)
        self._element_shape = None if element_shape is None else TensorShape(
            None if d is None else int(d) for d in element_shape)
        # clear_after_read and colocate_with_first_write_call are ignored, as by TensorFlow 2's TensorArrays.
        self._graph = graph_mode.active() is not None
        if self._graph:
            if not self._infer_shape:
                raise NotImplementedError("TensorArray(infer_shape=False) inside a function or graph is not "
                                          "implemented in placeflow (its elements share one buffer); keep the "
                                          "elements' shapes equal, or run eagerly.")
            self._size = size if size is not None else 0
            self._buffer = None
            if self._element_shape is not None:
                self._buffer = _zeros_rows(self._size, self._element_shape, self._dtype)
        else:
            self._elements = [None] * _python_int(size or 0, "size")

    # -- properties ---------------------------------------------------------------------------------------------
    @property
    def dtype(self):
        """The dtype of the elements."""
        return self._dtype

    @property
    def dynamic_size(self) -> bool:
        """Whether writes past the end grow the array."""
        return self._dynamic_size

    @property
    def element_shape(self):
        """The elements' shape (a TensorShape), or None while unknown."""
        return self._element_shape

    def size(self, name=None):
        """The number of elements, as an int32 tensor."""
        if not self._graph:
            return convert_to_tensor(len(self._elements), dtype=dtypes.int32)
        if self._buffer is None:
            return convert_to_tensor(self._size, dtype=dtypes.int32)
        return array_ops.shape(self._buffer)[0]

    # -- writing -----------------------------------------------------------------------------------------------
    def write(self, index, value, name=None):
        """Set element `index` to `value`; returns the TensorArray to use from now on."""
        value = self._element(value)
        if not self._graph:
            position = self._eager_index(index, writing=True)
            self._elements[position] = value
            return self
        index = convert_to_tensor(index, dtype=dtypes.int32)
        buffer = self._grown(self._shaped_buffer(), math_ops.add(index, 1))
        rows = array_ops.reshape(index, [1, 1])
        return self._with(indexing.tensor_scatter_nd_update(buffer, rows, array_ops.expand_dims(value, 0)))

    def unstack(self, value, name=None):
        """Set every element from the rows of `value` (its first dimension)."""
        value = convert_to_tensor(value, dtype=self._dtype)
        if value.shape is None or len(value.shape) == 0:
            raise ValueError(f"TensorArray.unstack needs a tensor of rank 1 or more, got {value!r}.")
        self._check_shape(TensorShape(value.shape[1:]))
        if not self._graph:
            rows = indexing.unstack(value) if value.shape[0] else []
            if not self._dynamic_size and len(rows) != len(self._elements) and self._elements:
                raise errors.InvalidArgumentError(None, None, (
                    f"Could not scatter {len(rows)} rows into a TensorArray of size {len(self._elements)}; give "
                    f"the TensorArray size={len(rows)} or dynamic_size=True."))
            self._elements = list(rows)
            return self
        return self._with(value)

    def scatter(self, indices, value, name=None):
        """Set the elements at `indices` to the rows of `value`."""
        value = convert_to_tensor(value, dtype=self._dtype)
        self._check_shape(TensorShape(value.shape[1:]))
        if not self._graph:
            positions = [int(i) for i in convert_to_tensor(indices, dtype=dtypes.int32).numpy().ravel()]
            for position, row in zip(positions, indexing.unstack(value)):
                self._elements[self._eager_index(position, writing=True)] = row
            return self
        indices = convert_to_tensor(indices, dtype=dtypes.int32)
        buffer = self._grown(self._shaped_buffer(), math_ops.add(math_ops.reduce_max(indices), 1))
        return self._with(indexing.tensor_scatter_nd_update(buffer, array_ops.expand_dims(indices, -1), value))

    # -- reading -----------------------------------------------------------------------------------------------
    def read(self, index, name=None):
        """Element `index` (zeros of the element shape if it was never written)."""
        if not self._graph:
            position = self._eager_index(index, writing=False)
            element = self._elements[position]
            return element if element is not None else self._eager_zeros(position)
        return indexing.gather(self._shaped_buffer(), convert_to_tensor(index, dtype=dtypes.int32))

    def gather(self, indices, name=None):
        """The elements at `indices`, stacked."""
        if not self._graph:
            indices = convert_to_tensor(indices, dtype=dtypes.int32).numpy().ravel()
            return self._stack([self.read(int(i)) for i in indices])
        return indexing.gather(self._shaped_buffer(), convert_to_tensor(indices, dtype=dtypes.int32))

    def stack(self, name=None):
        """Every element, stacked along a new first dimension."""
        if not self._graph:
            return self._stack([self.read(i) for i in range(len(self._elements))])
        return math_ops.identity(self._shaped_buffer())

    def concat(self, name=None):
        """Every element, concatenated along its first dimension."""
        if not self._graph:
            elements = [self.read(i) for i in range(len(self._elements))]
            if not elements:
                return self._stack([])
            return array_ops.concat(elements, 0)
        buffer = self._shaped_buffer()
        if len(self._element_shape) == 0:
            raise ValueError("Concatenating scalars in TensorArray is unsupported; use stack() instead.")
        return array_ops.reshape(buffer, [-1] + list(self._element_shape[1:]))

    def identity(self):
        """The same TensorArray (TensorFlow uses it to add control dependencies)."""
        return self

    def close(self, name=None):
        """Nothing to release (TensorFlow 2 does nothing either)."""

    def mark_used(self):
        """Nothing to mark (TensorFlow 1 used it to silence a warning)."""

    # -- internals -----------------------------------------------------------------------------------------------
    def _element(self, value):
        try:
            tensor = convert_to_tensor(value, dtype=self._dtype)
        except (TypeError, ValueError):
            tensor = None
        if tensor is None or tensor.dtype != self._dtype:
            given = convert_to_tensor(value)
            raise errors.InvalidArgumentError(None, None, (
                f"TensorArray dtype is {self._dtype.name} but Op is trying to write dtype {given.dtype.name}: "
                f"{value!r}. Cast the value with tf.cast(value, tf.{self._dtype.name}) first."))
        self._check_shape(TensorShape(tensor.shape) if tensor.shape is not None else None)
        return tensor

    def _check_shape(self, shape) -> None:
        if shape is None or not self._infer_shape:
            return
        if self._element_shape is None:
            self._element_shape = shape
            learned = getattr(_probing, "learned", None)
            if learned is not None:
                learned.setdefault(id(self._lineage), shape)
            return
        known = self._element_shape
        if len(known) != len(shape) or any(a is not None and b is not None and a != b for a, b in zip(known, shape)):
            raise ValueError(f"Incompatible shape for value ({tuple(shape)}), expected ({tuple(known)}); every "
                             f"element of a TensorArray has the same shape (or use infer_shape=False eagerly).")
        self._element_shape = TensorShape(a if a is not None else b for a, b in zip(known, shape))

    def _eager_index(self, index, writing: bool) -> int:
        position = _python_int(index, "index")
        size = len(self._elements)
        if position < 0 or (position >= size and not (writing and self._dynamic_size)):
            verb = "write to" if writing else "read from"
            raise errors.OutOfRangeError(None, None, (
                f"Tried to {verb} index {position} but array size is: {size}. "
                f"{'Create the TensorArray with dynamic_size=True to grow it.' if writing else ''}".rstrip()))
        if position >= size:
            self._elements.extend([None] * (position + 1 - size))
        return position

    def _eager_zeros(self, position):
        shape = self._element_shape
        if shape is None or not shape.is_fully_defined():
            raise errors.InvalidArgumentError(None, None, (
                f"Could not read from TensorArray index {position}: it was never written and the element shape "
                f"is not fully defined. Write it first, or give the TensorArray an element_shape."))
        return array_ops.zeros(list(shape), self._dtype)

    def _stack(self, elements):
        if elements:
            return array_ops.stack(elements)
        shape = list(self._element_shape) if self._element_shape is not None else []
        return array_ops.zeros([0] + [d or 0 for d in shape], self._dtype)

    def _shaped_buffer(self):
        if self._buffer is None:
            if self._element_shape is None:
                raise ValueError("This TensorArray has no element shape yet: write an element first, or create "
                                 "it with element_shape=... .")
            return _zeros_rows(self._size, self._element_shape, self._dtype)
        return self._buffer

    def _grown(self, buffer, needed):
        """`buffer` with at least `needed` rows (zeros added) when the array grows; else as is."""
        if not self._dynamic_size:
            return buffer
        rows = array_ops.shape(buffer)[0]
        padded = array_ops.concat([buffer, _zeros_rows(1, self._element_shape, self._dtype)], 0)
        wanted = array_ops.range(math_ops.maximum(rows, needed))
        return indexing.gather(padded, math_ops.minimum(wanted, rows))

    def _with(self, buffer):
        """A TensorArray like this one holding `buffer`."""
        result = TensorArray.__new__(TensorArray)
        result.__dict__.update(self.__dict__)
        result._buffer = buffer
        if buffer.shape is not None and self._element_shape is None:
            result._element_shape = TensorShape(buffer.shape[1:])
        return result

    # -- nest: in a graph the buffer is the array's one tensor (loops carry it) ----------------------------------
    def _nest_components(self) -> tuple:
        if not self._graph:
            raise TypeError("An eager TensorArray cannot enter a traced loop or branch; create it inside the "
                            "function.")
        return () if self._buffer is None else (self._buffer,)

    def _nest_rebuild(self, parts):
        if parts:
            return self._with(parts[0])
        copy = TensorArray.__new__(TensorArray)
        copy.__dict__.update(self.__dict__)
        return copy

    def _with_element_shape(self, shape):
        """This (unshaped, graph) TensorArray given an element shape and its zero buffer."""
        result = TensorArray.__new__(TensorArray)
        result.__dict__.update(self.__dict__)
        result._element_shape = TensorShape(shape)
        result._buffer = _zeros_rows(self._size, result._element_shape, self._dtype)
        return result

    def __repr__(self) -> str:
        return f"<placeflow.TensorArray dtype={self._dtype.name} element_shape={self._element_shape}>"


_probing = threading.local()  # .learned while this thread's loop probes its body: id(lineage) -> element shape


class shapes_learned_into:
    """Within: record in `target` the element shape each array lineage learns (a loop's probe trace)."""

    def __init__(self, target: dict):
        self._target = target

    def __enter__(self):
        self._saved = getattr(_probing, "learned", None)
        _probing.learned = self._target
        return self._target

    def __exit__(self, *exc):
        _probing.learned = self._saved
        return False


def _python_int(value, what: str) -> int:
    tensor = convert_to_tensor(value)
    if tensor.dtype not in (dtypes.int32, dtypes.int64) or tensor.shape.num_elements() != 1:
        raise TypeError(f"TensorArray {what} must be an integer scalar, got {value!r}.")
    return int(tensor.numpy().reshape(()))


def _zeros_rows(count, element_shape, dtype):
    """zeros([count, *element_shape]); `count` may be a graph tensor."""
    if not element_shape.is_fully_defined():
        raise NotImplementedError(f"A TensorArray whose elements have a partly unknown shape {element_shape} is "
                                  f"not implemented in a graph in placeflow; give element_shape=[...] in full.")
    if isinstance(count, int) or not hasattr(count, "dtype"):
        return array_ops.zeros([int(count)] + list(element_shape), dtype)
    row = array_ops.zeros([1] + list(element_shape), dtype)
    return indexing.gather(row, math_ops.multiply(array_ops.range(count), 0))
