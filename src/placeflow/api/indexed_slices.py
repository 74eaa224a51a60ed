"""tf.IndexedSlices (defined with the ops, whose gather gradient makes one: ops/indexed_slices.py)."""

from ..ops.indexed_slices import IndexedSlices  # noqa: F401
