"""IndexedSlices: rows `values[i]` of a dense tensor at row `indices[i]` (tf.IndexedSlices).

The gradient of a gather along axis 0 (an embedding lookup) is one, as in TensorFlow: Keras's optimizers
then update only the looked-up rows, and square each looked-up slice on its own (a row looked up twice
adds two squares). Any op given one converts it to its dense tensor (repeated rows add up)."""

from __future__ import annotations

from .emit import emit


class IndexedSlices:
    """A sparse set of rows of a dense tensor of `dense_shape` (stored as given, as TF's constructor does)."""

    def __init__(self, values, indices, dense_shape=None):
        self.values, self.indices, self.dense_shape = values, indices, dense_shape
        self._like = None  # a tensor of the dense shape (a gather's params), to densify when it is only known at run time

    def _function_output_parts(self) -> tuple:
        """The tensors a function returns for this value (graph/function.py rebuilds it from their values)."""
        import numpy as np
        shape = self.dense_shape
        if shape is not None and not hasattr(shape, "dtype"):
            shape = np.asarray([int(d) for d in shape], np.int64)   # a list of dimensions: one tensor, as TF
        return self.values, self.indices, shape

    def _from_function_output_parts(self, parts):
        """This value rebuilt from the values of its `_function_output_parts`."""
        return IndexedSlices(*parts)

    @property
    def dtype(self):
        """The values' dtype."""
        return self.values.dtype

    @property
    def device(self):
        """The values' device."""
        return getattr(self.values, "device", None)

    @property
    def shape(self):
        """The dense shape, where known (TensorShape)."""
        from ..framework.tensor_shape import TensorShape
        static = _static_dims(self.dense_shape)
        if static is None:
            return TensorShape([None] + list(self.values.shape)[1:])
        return TensorShape(static)

    def dense(self):
        """The dense tensor: each row of `values` added at its index (zeros elsewhere)."""
        from ..framework import interpreter
        current = interpreter.current()
        values, indices = current.convert(self.values), current.convert(self.indices)  # they may be arrays
        rows = _static_dims(self.dense_shape)
        if rows is None and self._like is not None:
            return emit("_GatherGrad", (values, indices, self._like), values.dtype, {"axis": 0})
        if rows is None:
            raise ValueError(f"Converting IndexedSlices to a tensor needs a known dense_shape; got {self!r}")
        return emit("UnsortedSegmentSum", (values, indices), values.dtype, {"num_segments": int(rows[0])})

    def __tf_tensor__(self, dtype=None, name=None):
        dense = self.dense()
        if dtype is None or dtype == dense.dtype:
            return dense
        from .emit import cast
        return cast(dense, dtype)

    def __neg__(self):
        negated = IndexedSlices(emit("Neg", (self.values,)), self.indices, self.dense_shape)
        negated._like = self._like
        return negated

    def __repr__(self) -> str:
        return (f"IndexedSlices(indices={self.indices!r}, values={self.values!r}, "
                f"dense_shape={self.dense_shape!r})")


def _static_dims(dense_shape):
    if dense_shape is None:
        return None
    if isinstance(dense_shape, (tuple, list)):
        return [int(d) for d in dense_shape]
    numpy = getattr(dense_shape, "numpy", None)
    if numpy is not None:
        try:
            return [int(d) for d in numpy().reshape(-1)]
        except Exception:  # noqa: BLE001 - a traced tensor has no value yet
            pass
    from_graph = getattr(dense_shape, "op", None)
    if from_graph is not None and from_graph.type == "Shape":
        source = from_graph.inputs[0]
        dims = tuple(source.shape) if source.shape is not None else None
        if dims is not None and None not in dims:
            return list(dims)
    return None


def densify(value):
    """`value` as a dense tensor when it is IndexedSlices; any other value unchanged."""
    return value.dense() if isinstance(value, IndexedSlices) else value


def add(a, b):
    """a + b where either may be IndexedSlices: slices joined when both are, else the dense sum."""
    if isinstance(a, IndexedSlices) and isinstance(b, IndexedSlices):
        joined = IndexedSlices(emit("ConcatV2", (a.values, b.values), attrs={"axis": 0}),
                               emit("ConcatV2", (a.indices, b.indices), attrs={"axis": 0}), a.dense_shape)
        joined._like = a._like if a._like is not None else b._like
        return joined
    a, b = densify(a), densify(b)
    return emit("AddV2", (a, b), b.dtype)
