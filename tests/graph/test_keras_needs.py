"""TensorFlow behaviours Keras 3 relies on that have no value to record: AutoGraph's do_not_convert, and the
refusals of what placeflow does not implement (the recorded cases are tests/conformance `keras_needs_*`)."""

import pytest

import placeflow as tf


def _sign(x):
    if x > 0:
        return x
    return -x


def test_do_not_convert_leaves_the_function_as_written():
    converted = tf.function(_sign)
    assert float(converted(tf.constant(-2.0))) == 2.0          # AutoGraph turns the `if` into a cond
    plain = tf.function(tf.autograph.experimental.do_not_convert(_sign))
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="as a Python `bool`"):
        plain(tf.constant(-2.0))
    assert tf.autograph.experimental.do_not_convert()(_sign)(-3) == 3  # with parentheses, and eagerly
    assert tf.autograph.experimental.do_not_convert(_sign).__name__ == "_sign"


def test_convolution_dispatches_three_dimensional_filters_to_conv3d():
    out = tf.nn.convolution(tf.ones([1, 4, 4, 4, 1]), tf.ones([2, 2, 2, 1, 3]))
    assert out.shape == (1, 3, 3, 3, 3) and float(out[0, 0, 0, 0, 0]) == 8.0
    with pytest.raises(ValueError, match="must be of rank 3, 4 or 5"):
        tf.nn.convolution(tf.ones([1, 4, 4, 4, 4, 1]), tf.ones([2, 2, 2, 2, 1, 1]))
