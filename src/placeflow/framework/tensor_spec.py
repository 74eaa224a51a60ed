"""TensorSpec: the shape (None for any size; shape=None for any rank) and dtype a `function` argument must have."""

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
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name
        if shape is None or (isinstance(shape, TensorShape) and shape.rank is None):
            self.shape = TensorShape(None)   # unknown rank: any tensor of the dtype
            return
        dims = []
        for dim in shape:
            if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int) or dim < 0):
                raise TypeError(f"TensorSpec dimensions must be non-negative ints or None, got {dim!r} in "
                                f"shape={list(shape)!r}.")
            dims.append(dim)
        self.shape = TensorShape(dims)

    @classmethod
    def from_tensor(cls, tensor, name=None):
        """The spec of `tensor`'s shape and dtype."""
        shape = tensor.shape
        return cls(None if shape is None or TensorShape(shape).rank is None else tuple(shape), tensor.dtype, name)

    def is_compatible_with(self, other) -> bool:
        """Whether a tensor (or spec) of `other`'s dtype and shape fits this spec (an unknown rank on either side
        fits any rank, as TF)."""
        return other.dtype == self.dtype and self.shape.is_compatible_with(TensorShape(other.shape))

    def __eq__(self, other) -> bool:
        return (isinstance(other, TensorSpec) and self.shape == other.shape and self.dtype == other.dtype
                and self.name == other.name)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype.name, self.name))

    def __repr__(self) -> str:
        name = "None" if self.name is None else repr(self.name)
        return f"TensorSpec(shape={self.shape}, dtype=tf.{self.dtype.name}, name={name})"
