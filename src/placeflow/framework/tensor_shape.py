"""TensorShape: a tensor's dimensions, printed as TensorFlow prints them."""

from __future__ import annotations


class TensorShape(tuple):
    """An immutable tuple of dimensions; str() is '(2, 3)', repr() is 'TensorShape([2, 3])'."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """Number of dimensions."""
        return len(self)

    @property
    def ndims(self) -> int:
        """Number of dimensions (TensorFlow 1 name)."""
        return len(self)

    def is_fully_defined(self) -> bool:
        """True when every dimension is known."""
        return None not in self

    def as_list(self) -> list:
        """The dimensions as a list."""
        return list(self)

    def num_elements(self) -> int:
        """Product of the dimensions (None when one is unknown)."""
        total = 1
        for dim in self:
            if dim is None:
                return None
            total *= dim
        return total

    def __str__(self) -> str:
        return "(" + ", ".join(str(d) for d in self) + ("," if len(self) == 1 else "") + ")"

    def __repr__(self) -> str:
        return f"TensorShape({list(self)})"

    def __getitem__(self, key):
        result = tuple.__getitem__(self, key)
        return TensorShape(result) if isinstance(key, slice) else result

    def __eq__(self, other) -> bool:
        if isinstance(other, (list, tuple)):  # TensorFlow: TensorShape([2, 3]) == [2, 3]
            return tuple.__eq__(self, tuple(other))
        return NotImplemented

    def __ne__(self, other) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = tuple.__hash__


def elements(shape) -> int:
    """The number of elements of `shape`, as an exact Python int (never an overflowing NumPy product)."""
    count = 1
    for dim in shape:
        count *= int(dim)
    return count
