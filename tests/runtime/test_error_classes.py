"""Bad inputs raise the error class TensorFlow 2.21 raises for them, in eager mode, in `function` and in a
Session (tf_2_21_error_classes.json, recorded by record_tf_error_classes.py from error_cases.py).

TensorFlow checks static shapes while a graph is built: inside a `function` (whose arguments have known
shapes) most bad shapes are a ValueError at trace time; a Session fed through placeholders of unknown
shape meets them when it runs, as InvalidArgumentError.
"""

import json
import pathlib

import numpy as np
import pytest

import placeflow as tf

from . import error_cases
from .error_cases import ones

IAE = tf.errors.InvalidArgumentError
RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21_error_classes.json").read_text())["results"]
CASES = {name: (fn, arrays) for name, fn, arrays in error_cases.cases(tf)}


def eager(fn, arrays):
    return error_cases.eager(tf, fn, arrays)


def in_function(fn, arrays):
    return error_cases.in_function(tf, fn, arrays)


def test_every_case_was_recorded():
    assert sorted(CASES) == sorted(RECORDED)


@pytest.mark.parametrize("mode", sorted(error_cases.MODES))
@pytest.mark.parametrize("name", sorted(RECORDED))
def test_bad_input_raises_the_tf_error_class_in_every_mode(mode, name):
    fn, arrays = CASES[name]
    expected = RECORDED[name][mode]
    with pytest.raises(Exception) as info:
        error_cases.MODES[mode](tf, fn, arrays)
    assert type(info.value).__name__ == expected, f"{name} ({mode}): {info.value!r}"
    text = str(info.value)
    if isinstance(info.value, tf.errors.OpError):
        assert (" [Op:" in text.splitlines()[0]) if mode == "eager" else ("[[{{node " in text), text
    elif mode != "eager" and "shape" in name:
        assert "{{node " in text, text   # shapes refused while the graph is built name the node


def test_there_are_at_least_thirty_cases():
    assert len(CASES) >= 30


@pytest.mark.parametrize("mode", [eager, in_function], ids=["eager", "function"])
def test_out_of_memory_is_resource_exhausted_in_every_mode(make_context, mode):
    make_context(PLACEFLOW_SIMULATED_GPUS="1:64MiB")
    with tf.device("/GPU:0"):
        with pytest.raises(tf.errors.ResourceExhaustedError):
            mode(lambda a: tf.tile(a, [4096, 1]), [ones(4096, 4)])


def test_range_with_an_empty_direction_is_an_error():
    with pytest.raises(IAE, match="Requires start <= limit when delta > 0: 10/0"):
        tf.range(10, 0, 1)
    with pytest.raises(IAE, match="Requires start >= limit when delta < 0: 0/10"):
        tf.range(0, 10, -1)
    assert tf.range(10, 0, -3).numpy().tolist() == [10, 7, 4, 1]


@pytest.mark.parametrize("value, dtype, error, text", [
    (None, None, ValueError, r"Attempt to convert a value \(None\) with an unsupported type"),
    (object(), None, ValueError, "with an unsupported type"),
    (2 ** 40, tf.int32, TypeError, "Cannot convert 1099511627776 to EagerTensor of dtype int32"),
    (-1, tf.uint8, TypeError, "Cannot convert -1 to EagerTensor of dtype uint8"),
])
def test_constants_refuse_what_tensorflow_refuses(value, dtype, error, text):
    with pytest.raises(error, match=text):
        tf.constant(value, dtype=dtype)


def test_shapes_and_operands_refuse_what_tensorflow_refuses():
    with pytest.raises(ValueError, match=r"Attempt to convert a value \(None\)"):
        tf.add(tf.constant([1.0, 2.0]), None)
    with pytest.raises(TypeError, match=r"Cannot convert \[1.5\] to EagerTensor of dtype int32"):
        tf.zeros([1.5])


def test_max_and_min_of_nothing_are_the_identities():  # TF 2.21: -inf / +inf, the int extremes
    assert float(tf.reduce_max(tf.zeros([0]))) == -np.inf
    assert float(tf.reduce_min(tf.zeros([0]))) == np.inf
    assert tf.reduce_min(tf.zeros([0, 2], tf.int32), axis=0).numpy().tolist() == [2 ** 31 - 1] * 2
    assert tf.reduce_max(tf.zeros([0], tf.int32)).numpy() == -2 ** 31
