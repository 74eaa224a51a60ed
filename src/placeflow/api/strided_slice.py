"""tf.strided_slice with TensorFlow's signature: begin, end and strides vectors with TF's five bit masks (the
Python index they stand for is built by raw_ops_state._key, then sliced as `tensor[key]` is)."""

from __future__ import annotations

from . import array_ops
from .raw_ops_state import _key


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """input_[begin:end:strides] per dimension, with TF's begin/end/ellipsis/new-axis/shrink-axis bit masks."""
    if var is not None:
        raise NotImplementedError("tf.strided_slice(var=...) (slice assignment through a variable) is not "
                                  "implemented in placeflow; use variable[...].assign(value).")
    if strides is None:
        strides = [1] * len(array_ops.get_static_value(begin) if hasattr(begin, "dtype") else begin)
    key = _key(begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)
    return array_ops.strided_slice(input_, key, name=name)
