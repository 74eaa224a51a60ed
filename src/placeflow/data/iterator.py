"""tf.data.Iterator: the abstract iterator type.

placeflow's `iter(dataset)` is a Python generator, not registered here: it has no `get_next_as_optional`,
so code that tests `isinstance(it, tf.data.Iterator)` (Keras's trainer does) takes its plain-Python path
and pulls elements with `next()`."""

import abc


class Iterator(abc.ABC):  # noqa: B024
    """An iterator over a tf.data.Dataset with TF's iterator methods (none of placeflow's are yet)."""
