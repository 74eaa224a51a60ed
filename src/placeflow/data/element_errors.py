"""Errors that belong to one element: a pipeline stage that fails on an element passes an ElementError on in
its place and goes on with the next element, and the iterator raises it when it reaches that position, as
TensorFlow's iterators do (a failed map call costs one element, not the rest of the epoch)."""

from __future__ import annotations

from ..framework import errors


class DefinitionError(TypeError):
    """A pipeline function that cannot work for any element (wrong arity, a return value that is not a tensor):
    TF finds these while tracing, as TypeError, and so does placeflow, whenever it finds them."""


class ElementError:
    """Stands in a stream of elements for the error one element raised."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException):
        self.error = error


def raising(elements):
    """The elements, raising the first ElementError met (for consumers that do not go on after errors)."""
    for element in elements:
        if element.__class__ is ElementError:
            raise element.error
        yield element


def as_tf_error(error: Exception, where: str) -> Exception:
    """A Python exception raised by user code inside a pipeline, as TensorFlow reports it: TF's own error
    classes pass through, others take the class TF's py_func gives them (ValueError and TypeError:
    InvalidArgumentError, NotImplementedError: UnimplementedError, MemoryError: ResourceExhaustedError,
    StopIteration: OutOfRangeError, anything else: UnknownError), the message naming the original."""
    if isinstance(error, (errors.OpError, DefinitionError)):
        return error
    if isinstance(error, (ValueError, TypeError)):
        cls = errors.InvalidArgumentError
    elif isinstance(error, NotImplementedError):
        cls = errors.UnimplementedError
    elif isinstance(error, MemoryError):
        cls = errors.ResourceExhaustedError
    elif isinstance(error, StopIteration):
        cls = errors.OutOfRangeError
    else:
        cls = errors.UnknownError
    converted = cls(None, None, f"{where}{type(error).__name__}: {error}")
    converted.__cause__ = error
    return converted
