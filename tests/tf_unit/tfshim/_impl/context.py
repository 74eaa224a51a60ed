"""Shim for tensorflow.python.eager.context: what its tests use, from the public API."""

from __future__ import annotations

import contextlib

from .. import OutOfScope, OutOfScopeName


def executing_eagerly() -> bool:
    """tf.executing_eagerly()."""
    import tensorflow as tf
    return tf.executing_eagerly()


@contextlib.contextmanager
def eager_mode():
    """Eager execution for the block: already the case in TF2 outside graphs and functions."""
    if not executing_eagerly():
        raise OutOfScope("context.eager_mode() inside a graph switches TF's internal execution mode")
    yield


def graph_mode():
    """A fresh TF1 graph as the default for the block."""
    import tensorflow as tf
    return tf.Graph().as_default()


def device(name):
    """tf.device(name)."""
    import tensorflow as tf
    return tf.device(name)


context = OutOfScopeName("eager.context.context", "TF's internal eager Context object")


def set_global_seed(seed):
    """The global random seed: tf.random.set_seed(seed)."""
    import tensorflow as tf
    tf.random.set_seed(seed)
