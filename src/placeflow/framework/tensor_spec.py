"""TensorSpec: the shape (None for any size) and dtype a `function` argument must have."""

from __future__ import annotations

from . import dtypes
from .tensor_shape import TensorShape


class TypeSpec:
    """tf.TypeSpec: the base of value descriptions (TensorSpec); Keras's serialization tests isinstance."""

    __slots__ = ()


class TensorSpec(TypeSpec):
    """Describes a tensor: `TensorSpec(shape=[None, 3], dtype=tf.float32, name=None)`."""

    __slots__ = ("shape", "dtype", "name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        if shape is None:
            raise NotImplementedError("TensorSpec(shape=None) (unknown rank) is not implemented in placeflow; give "
                                      "the rank, with None for dimensions of any size, e.g. shape=[None, 3].")
        dims = []
        for dim in shape:
            if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int) or dim < 0):
                raise TypeError(f"TensorSpec dimensions must be non-negative ints or None, got {dim!r} in "
                                f"shape={list(shape)!r}.")
            dims.append(dim)
        self.shape = TensorShape(dims)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        """The spec of `tensor`'s shape and dtype."""
        return cls(tuple(tensor.shape), tensor.dtype, name)

    def is_compatible_with(self, other) -> bool:
        """Whether a tensor (or spec) of `other`'s dtype and shape fits this spec."""
        shape = tuple(other.shape) if other.shape is not None else None
        if other.dtype != self.dtype or shape is None or len(shape) != len(self.shape):
            return False
        return all(want is None or want == got for want, got in zip(self.shape, shape))

    def __eq__(self, other) -> bool:
        return (isinstance(other, TensorSpec) and tuple(self.shape) == tuple(other.shape)
                and self.dtype == other.dtype and self.name == other.name)

    def __hash__(self) -> int:
        return hash((tuple(self.shape), self.dtype.name, self.name))

    def __repr__(self) -> str:
        name = "None" if self.name is None else repr(self.name)
        return f"TensorSpec(shape={self.shape}, dtype=tf.{self.dtype.name}, name={name})"
