"""A reduction axis named twice is TF's InvalidArgumentError (TF 2.21's text)."""

import numpy as np
import pytest

import placeflow as tf


@pytest.mark.parametrize("axis", [(0, 0), (0, -2), (1, -1)])
def test_duplicate_reduction_axes(axis):
    x = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid reduction arguments: Axes contains duplicate "
                                                             "dimension"):
        tf.reduce_sum(x, axis=axis)
    assert tf.reduce_sum(x, axis=(-2, -1)).numpy() == 21
