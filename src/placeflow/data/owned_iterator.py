"""The iterator `iter(dataset)` returns: TensorFlow's OwnedIterator (next, get_next, get_next_as_optional,
element_spec), safe to share between threads, and going on after an element's error."""

from __future__ import annotations

import threading

from ..framework.errors import OutOfRangeError
from .element_errors import ElementError


class OwnedIterator:
    """One pass over a dataset. Threads may share it: each element goes to exactly one caller. An error that
    belongs to one element (a failed map call) is raised for that element; the next call goes on after it."""

    def __init__(self, dataset, device: str, as_tensors):
        self._dataset = dataset
        self._elements = iter(dataset._make_elements())
        self._device = device
        self._as_tensors = as_tensors
        self._lock = threading.Lock()  # one owner of the pass; Python generators refuse concurrent next()

    @property
    def element_spec(self):
        """The structure of TensorSpecs of one element."""
        return self._dataset.element_spec

    def __iter__(self):
        return self

    def __next__(self):
        with self._lock:
            element = next(self._elements)
        if element.__class__ is ElementError:
            raise element.error
        return self._as_tensors(element, self._device)

    def get_next(self, name=None):
        """The next element; OutOfRangeError at the end (TF's text)."""
        try:
            return next(self)
        except StopIteration:
            raise OutOfRangeError(None, None, "End of sequence [Op:IteratorGetNext]") from None

    def get_next_as_optional(self):
        """The next element as a tf.experimental.Optional (empty at the end)."""
        from ..api.optional import Optional
        try:
            return Optional.from_value(next(self))
        except StopIteration:
            return Optional.empty(self._dataset.element_spec)

    def __repr__(self) -> str:
        return f"<placeflow.data.OwnedIterator element_spec={self._dataset.element_spec!r}>"
