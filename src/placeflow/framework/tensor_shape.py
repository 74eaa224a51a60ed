"""TensorShape: a tensor's dimensions, printed as TensorFlow prints them."""

from __future__ import annotations


class TensorShape(tuple):
    """An immutable tuple of dimensions; str() is '(2, 3)', repr() is 'TensorShape([2, 3])'."""

    __slots__ = ()

    def __new__(cls, dims=()):
        if dims is None or isinstance(dims, _UnknownRankShape):
            return _UNKNOWN_RANK
        return tuple.__new__(cls, dims)

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
        if isinstance(other, _UnknownRankShape):
            return False
        if isinstance(other, (list, tuple)):  # TensorFlow: TensorShape([2, 3]) == [2, 3]
            return tuple.__eq__(self, tuple(other))
        return NotImplemented

    def __ne__(self, other) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = tuple.__hash__


class _UnknownRankShape(TensorShape):
    """TensorShape(None): a shape whose rank is not known (TF's `unknown_shape()`)."""

    __slots__ = ()

    def __new__(cls):
        return tuple.__new__(cls, ())

    rank = ndims = property(lambda self: None, doc="None: the rank is unknown.")

    def __len__(self):
        raise ValueError("Cannot take the length of shape with unknown rank.")

    def __iter__(self):
        raise ValueError("Cannot iterate over a shape with unknown rank.")

    def __bool__(self) -> bool:
        return False

    def __getitem__(self, key):
        return self if isinstance(key, slice) else None

    def is_fully_defined(self) -> bool:
        """False: nothing is known."""
        return False

    def as_list(self):
        """Refused, as in TensorFlow: there is no list of dimensions."""
        raise ValueError("as_list() is not defined on an unknown TensorShape.")

    def num_elements(self):
        """None: unknown."""
        return None

    def __str__(self) -> str:
        return "<unknown>"

    def __repr__(self) -> str:
        return "TensorShape(None)"

    def __eq__(self, other) -> bool:
        return isinstance(other, _UnknownRankShape)

    def __ne__(self, other) -> bool:
        return not isinstance(other, _UnknownRankShape)

    __hash__ = tuple.__hash__

    def __reduce__(self):
        return (TensorShape, (None,))


_UNKNOWN_RANK = _UnknownRankShape()


def unknown_shape(rank=None):
    """A shape of unknown rank (rank None), or of `rank` unknown dimensions."""
    return TensorShape(None if rank is None else [None] * int(rank))


def elements(shape) -> int:
    """The number of elements of `shape`, as an exact Python int (never an overflowing NumPy product)."""
    count = 1
    for dim in shape:
        count *= int(dim)
    return count
