"""TensorShape: a tensor's dimensions, printed as TensorFlow prints them."""

from __future__ import annotations


class TensorShape(tuple):
    """An immutable tuple of dimensions; str() is '(2, 3)', repr() is 'TensorShape([2, 3])'."""

    __slots__ = ()

    def __new__(cls, dims=()):
        if dims is None or isinstance(dims, _UnknownRankShape):
            return _UNKNOWN_RANK
        if isinstance(dims, TensorShape):
            return tuple.__new__(cls, dims)
        return tuple.__new__(cls, [_dimension(d) for d in dims])

    @classmethod
    def _known(cls, dims) -> "TensorShape":
        """A shape from dimensions known to be valid (an array's shape): no checks, for the hot paths."""
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

    @property
    def dims(self):
        """The dimensions as a list (None for an unknown rank)."""
        return None if self.rank is None else list(self)

    def is_compatible_with(self, other) -> bool:
        """Whether some fully known shape matches both (unknown ranks and dimensions match anything)."""
        other = as_shape(other)
        if self.rank is None or other.rank is None:
            return True
        return self.rank == other.rank and all(a is None or b is None or a == b for a, b in zip(self, other))

    def merge_with(self, other) -> "TensorShape":
        """The shape that both describe (each unknown filled from the other); ValueError if incompatible."""
        other = as_shape(other)
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        if self.rank is None:
            return other
        if other.rank is None:
            return self
        return TensorShape([a if a is not None else b for a, b in zip(self, other)])

    def most_specific_compatible_shape(self, other) -> "TensorShape":
        """The most specific shape compatible with both (dimensions that differ become unknown)."""
        other = as_shape(other)
        if self.rank is None or other.rank is None or self.rank != other.rank:
            return TensorShape(None)
        return TensorShape([a if a == b else None for a, b in zip(self, other)])

    def concatenate(self, other) -> "TensorShape":
        """This shape's dimensions followed by `other`'s."""
        other = as_shape(other)
        if self.rank is None or other.rank is None:
            return TensorShape(None)
        return TensorShape(list(self) + list(other))

    def with_rank(self, rank) -> "TensorShape":
        """This shape, known to have `rank` dimensions; ValueError if it has another rank."""
        if self.rank is None:
            return unknown_shape(rank)
        if self.rank != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self

    def with_rank_at_least(self, rank) -> "TensorShape":
        """This shape; ValueError if it has fewer than `rank` dimensions."""
        if self.rank is not None and self.rank < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank) -> "TensorShape":
        """This shape; ValueError if it has more than `rank` dimensions."""
        if self.rank is not None and self.rank > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def assert_has_rank(self, rank) -> None:
        """ValueError unless the rank is unknown or `rank`."""
        if self.rank not in (None, rank):
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_is_compatible_with(self, other) -> None:
        """ValueError unless compatible with `other`."""
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def assert_same_rank(self, other) -> None:
        """ValueError if both ranks are known and differ."""
        other = as_shape(other)
        if self.rank is not None and other.rank is not None and self.rank != other.rank:
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

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


def _dimension(value):
    """A dimension as TensorFlow takes it: None, or an int >= 0 (anything with __index__; a Dimension's value)."""
    value = getattr(value, "value", value) if type(value).__name__ == "Dimension" else value
    if value is None:
        return None
    if isinstance(value, (str, bytes, float)) or not hasattr(value, "__index__"):
        raise TypeError(f"Dimension value must be integer or None or have an __index__ method, got value "
                        f"'{value!r}' with type '{type(value)}'")
    value = value.__index__()
    if value < 0:
        raise ValueError(f"Dimension {value} must be >= 0")
    return value


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


def as_shape(shape) -> TensorShape:
    """`shape` as a TensorShape."""
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank=None):
    """A shape of unknown rank (rank None), or of `rank` unknown dimensions."""
    return TensorShape(None if rank is None else [None] * int(rank))


def elements(shape) -> int:
    """The number of elements of `shape`, as an exact Python int (never an overflowing NumPy product)."""
    count = 1
    for dim in shape:
        count *= int(dim)
    return count
