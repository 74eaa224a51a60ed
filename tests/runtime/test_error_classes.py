"""Bad inputs raise the same TensorFlow error class in eager mode, in `function` and in a Session.

Inputs reach the ops as tensors: eager constants, traced function arguments, and placeholders of
unknown shape in a Session (run-time errors, as TensorFlow raises them when shapes are not static).
"""

import numpy as np
import pytest

import placeflow as tf

IAE = tf.errors.InvalidArgumentError
f32 = np.float32


def ones(*shape):
    return np.ones(shape, f32)


CASES = [
    ("add shapes", lambda a, b: tf.add(a, b), [ones(2), ones(3)], IAE),
    ("add 2-D shapes", lambda a, b: a + b, [ones(2, 3), ones(3, 2)], IAE),
    ("subtract shapes", lambda a, b: a - b, [ones(4), ones(3)], IAE),
    ("multiply shapes", lambda a, b: a * b, [ones(2, 2), ones(3)], IAE),
    ("divide shapes", lambda a, b: a / b, [ones(5), ones(2)], IAE),
    ("maximum shapes", lambda a, b: tf.maximum(a, b), [ones(2), ones(3)], IAE),
    ("squared difference shapes", lambda a, b: tf.math.squared_difference(a, b), [ones(2), ones(3)], IAE),
    ("equal shapes", lambda a, b: tf.equal(a, b), [ones(2), ones(3)], IAE),
    ("matmul inner dims", lambda a, b: tf.matmul(a, b), [ones(2, 3), ones(2, 3)], IAE),
    ("matmul batch dims", lambda a, b: tf.matmul(a, b), [ones(2, 3, 4), ones(3, 4, 5)], IAE),
    ("matmul transposed dims", lambda a, b: tf.matmul(a, b, transpose_b=True), [ones(2, 3), ones(3, 2)], IAE),
    ("reshape size", lambda a: tf.reshape(a, [4]), [ones(6)], IAE),
    ("reshape -1 not divisible", lambda a: tf.reshape(a, [-1, 4]), [ones(2, 3)], IAE),
    ("reshape two -1", lambda a: tf.reshape(a, [-1, -1]), [ones(6)], IAE),
    ("reduce_sum axis", lambda a: tf.reduce_sum(a, axis=5), [ones(2, 2)], IAE),
    ("reduce_mean axis", lambda a: tf.reduce_mean(a, axis=-3), [ones(2, 2)], IAE),
    ("reduce_max axis", lambda a: tf.reduce_max(a, axis=2), [ones(2, 2)], IAE),
    ("argmax axis", lambda a: tf.argmax(a, axis=3), [ones(2, 2)], IAE),
    ("transpose perm rank", lambda a: tf.transpose(a, [0, 2]), [ones(2, 3)], IAE),
    ("transpose repeated perm", lambda a: tf.transpose(a, [0, 0]), [ones(2, 3)], IAE),
    ("concat shapes", lambda a, b: tf.concat([a, b], 0), [ones(2, 2), ones(3, 3)], IAE),
    ("concat axis", lambda a, b: tf.concat([a, b], 3), [ones(2, 2), ones(2, 2)], IAE),
    ("stack shapes", lambda a, b: tf.stack([a, b]), [ones(2), ones(3)], IAE),
    ("stack axis", lambda a, b: tf.stack([a, b], axis=3), [ones(2), ones(2)], IAE),
    ("tile multiples length", lambda a: tf.tile(a, [2, 2]), [ones(2)], IAE),
    ("expand_dims axis", lambda a: tf.expand_dims(a, 5), [ones(2)], IAE),
    ("squeeze a non-1 dim", lambda a: tf.squeeze(a, [0]), [ones(2, 3)], IAE),
    ("squeeze axis", lambda a: tf.squeeze(a, [2]), [ones(2, 1)], IAE),
    ("split unevenly", lambda a: tf.split(a, 2)[0], [ones(5)], IAE),
    ("split sizes", lambda a: tf.split(a, [1, 2])[0], [ones(4)], IAE),
    ("slice out of range", lambda a: a[5], [ones(3)], IAE),
    ("slice rank", lambda a: a[0, 0], [ones(3)], IAE),
    ("where shapes", lambda c, a, b: tf.where(c, a, b), [np.array([True, False]), ones(3), ones(4)], IAE),
    ("bias_add shapes", lambda a, b: tf.nn.bias_add(a, b), [ones(2, 3), ones(4)], IAE),
    ("sparse xent label", lambda labels, logits: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=logits), [np.array([5], np.int32), ones(1, 3)], IAE),
    ("softmax xent shapes", lambda labels, logits: tf.nn.softmax_cross_entropy_with_logits(labels, logits),
     [ones(2, 3), ones(2, 4)], IAE),
    ("add_n shapes", lambda a, b: tf.add_n([a, b]), [ones(2), ones(3)], IAE),
    ("clip_by_value shapes", lambda a, lo: tf.clip_by_value(a, lo, 1.0), [ones(2), ones(3)], IAE),
    ("matmul of vectors", lambda a, b: tf.matmul(a, b), [ones(2), ones(2)], IAE),
    ("integer floordiv by 0", lambda a, b: tf.math.floordiv(a, b), [np.array([5], np.int32), np.array([0], np.int32)],
     IAE),
    ("integer floormod by 0", lambda a, b: tf.math.floormod(a, b), [np.array([5], np.int32), np.array([0], np.int32)],
     IAE),
    ("one_hot depth -1", lambda a: tf.one_hot(a, -1), [np.array([0, 1], np.int32)], IAE),
    ("cast to string", lambda a: tf.cast(a, tf.string), [ones(2)], tf.errors.UnimplementedError),
]


def eager(fn, arrays):
    return fn(*[tf.constant(a) for a in arrays])


def in_function(fn, arrays):
    return tf.function(fn)(*[tf.constant(a) for a in arrays])


def in_session(fn, arrays):
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        holders = [tf.compat.v1.placeholder(tf.as_dtype(a.dtype), shape=None) for a in arrays]
        out = fn(*holders)
        return tf.compat.v1.Session(graph=graph).run(out, dict(zip(holders, arrays)))


@pytest.mark.parametrize("mode", [eager, in_function, in_session], ids=["eager", "function", "session"])
@pytest.mark.parametrize("name, fn, arrays, expected", CASES, ids=[c[0] for c in CASES])
def test_bad_input_raises_the_tf_error_class_in_every_mode(mode, name, fn, arrays, expected):
    with pytest.raises(expected) as info:
        mode(fn, arrays)
    assert type(info.value) is expected
    if mode is eager:
        assert " [Op:" in str(info.value).splitlines()[0]
    else:
        assert "[[{{node " in str(info.value)


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
