"""tf.data.Iterator: the abstract iterator type.

placeflow's `iter(dataset)` is an OwnedIterator (data/owned_iterator.py: next, get_next, get_next_as_optional,
element_spec), not registered here: code that tests `isinstance(it, tf.data.Iterator)` (Keras's trainer does)
takes its plain-Python path and pulls elements with `next()`, which placeflow runs eagerly."""

import abc


class Iterator(abc.ABC):  # noqa: B024
    """An iterator over a tf.data.Dataset with TF's iterator methods (none of placeflow's are yet)."""
