"""Small helpers behind internal names whose public equivalent is a composition of public calls."""

from __future__ import annotations

import tempfile


def convert_n_to_tensor(values, dtype=None, name=None, preferred_dtype=None):
    """ops.convert_n_to_tensor: tf.convert_to_tensor of each value."""
    import tensorflow as tf
    return [tf.convert_to_tensor(value, dtype=dtype, dtype_hint=preferred_dtype) for value in values]


def as_shape(shape):
    """tensor_shape.as_shape: a TensorShape from a shape-like value."""
    import tensorflow as tf
    return shape if isinstance(shape, tf.TensorShape) else tf.TensorShape(shape)


def unknown_shape(rank=None):
    """tensor_shape.unknown_shape: a TensorShape of unknown rank, or of `rank` unknown dimensions."""
    import tensorflow as tf
    return tf.TensorShape(None if rank is None else [None] * rank)


def get_temp_dir() -> str:
    """platform.test.get_temp_dir: a fresh temporary directory."""
    return tempfile.mkdtemp(prefix="tf_unit_")


def max_error(grad1, grad2):
    """gradient_checker_v2.max_error: the largest absolute difference between two lists of Jacobians."""
    import numpy as np
    error = 0.0
    for first, second in zip(grad1, grad2):
        if np.size(first) or np.size(second):
            error = max(error, float(np.max(np.abs(np.asarray(first) - np.asarray(second)))))
    return error
