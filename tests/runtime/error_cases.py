"""Bad inputs for the error-class table: run by tests/runtime/test_error_classes.py on placeflow and by
record_tf_error_classes.py on TensorFlow 2.21, in eager mode, inside a `function`, and in a TF1 Session
fed through placeholders of unknown shape."""

import numpy as np

f32 = np.float32


def ones(*shape):
    return np.ones(shape, f32)


def ints(*values):
    return np.array(values, np.int32)


def cases(tf) -> list:
    """(name, fn(*tensors), input arrays) for every bad input."""
    return [
        ("add shapes", lambda a, b: tf.add(a, b), [ones(2), ones(3)]),
        ("add 2-D shapes", lambda a, b: a + b, [ones(2, 3), ones(3, 2)]),
        ("subtract shapes", lambda a, b: a - b, [ones(4), ones(3)]),
        ("multiply shapes", lambda a, b: a * b, [ones(2, 2), ones(3)]),
        ("divide shapes", lambda a, b: a / b, [ones(5), ones(2)]),
        ("maximum shapes", lambda a, b: tf.maximum(a, b), [ones(2), ones(3)]),
        ("squared difference shapes", lambda a, b: tf.math.squared_difference(a, b), [ones(2), ones(3)]),
        ("equal shapes", lambda a, b: tf.equal(a, b), [ones(2), ones(3)]),
        ("matmul inner dims", lambda a, b: tf.matmul(a, b), [ones(2, 3), ones(2, 3)]),
        ("matmul batch dims", lambda a, b: tf.matmul(a, b), [ones(2, 3, 4), ones(3, 4, 5)]),
        ("matmul transposed dims", lambda a, b: tf.matmul(a, b, transpose_b=True), [ones(2, 3), ones(3, 2)]),
        ("reshape size", lambda a: tf.reshape(a, [4]), [ones(6)]),
        ("reshape -1 not divisible", lambda a: tf.reshape(a, [-1, 4]), [ones(2, 3)]),
        ("reshape two -1", lambda a: tf.reshape(a, [-1, -1]), [ones(6)]),
        ("reduce_sum axis", lambda a: tf.reduce_sum(a, axis=5), [ones(2, 2)]),
        ("reduce_mean axis", lambda a: tf.reduce_mean(a, axis=-3), [ones(2, 2)]),
        ("reduce_max axis", lambda a: tf.reduce_max(a, axis=2), [ones(2, 2)]),
        ("argmax axis", lambda a: tf.argmax(a, axis=3), [ones(2, 2)]),
        ("transpose perm rank", lambda a: tf.transpose(a, [0, 2]), [ones(2, 3)]),
        ("transpose repeated perm", lambda a: tf.transpose(a, [0, 0]), [ones(2, 3)]),
        ("concat shapes", lambda a, b: tf.concat([a, b], 0), [ones(2, 2), ones(3, 3)]),
        ("concat axis", lambda a, b: tf.concat([a, b], 3), [ones(2, 2), ones(2, 2)]),
        ("stack shapes", lambda a, b: tf.stack([a, b]), [ones(2), ones(3)]),
        ("stack axis", lambda a, b: tf.stack([a, b], axis=3), [ones(2), ones(2)]),
        ("tile multiples length", lambda a: tf.tile(a, [2, 2]), [ones(2)]),
        ("expand_dims axis", lambda a: tf.expand_dims(a, 5), [ones(2)]),
        ("squeeze a non-1 dim", lambda a: tf.squeeze(a, [0]), [ones(2, 3)]),
        ("squeeze axis", lambda a: tf.squeeze(a, [2]), [ones(2, 1)]),
        ("split unevenly", lambda a: tf.split(a, 2)[0], [ones(5)]),
        ("split sizes", lambda a: tf.split(a, [1, 2])[0], [ones(4)]),
        ("slice out of range", lambda a: a[5], [ones(3)]),
        ("slice rank", lambda a: a[0, 0], [ones(3)]),
        ("where shapes", lambda c, a, b: tf.where(c, a, b), [np.array([True, False]), ones(3), ones(4)]),
        ("bias_add shapes", lambda a, b: tf.nn.bias_add(a, b), [ones(2, 3), ones(4)]),
        ("sparse xent label", lambda labels, logits: tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=labels, logits=logits), [np.array([5], np.int32), ones(1, 3)]),
        ("softmax xent shapes", lambda labels, logits: tf.nn.softmax_cross_entropy_with_logits(labels, logits),
         [ones(2, 3), ones(2, 4)]),
        ("add_n shapes", lambda a, b: tf.add_n([a, b]), [ones(2), ones(3)]),
        ("clip_by_value shapes", lambda a, lo: tf.clip_by_value(a, lo, 1.0), [ones(2), ones(3)]),
        ("matmul of vectors", lambda a, b: tf.matmul(a, b), [ones(2), ones(2)]),
        ("integer floordiv by 0", lambda a, b: tf.math.floordiv(a, b), [ints(5), ints(0)]),
        ("integer floormod by 0", lambda a, b: tf.math.floormod(a, b), [ints(5), ints(0)]),
        ("one_hot depth -1", lambda a: tf.one_hot(a, -1), [ints(0, 1)]),
        ("cast to string", lambda a: tf.cast(a, tf.string), [ones(2)]),
    ]


def eager(tf, fn, arrays):
    return fn(*[tf.constant(a) for a in arrays])


def in_function(tf, fn, arrays):
    return tf.function(fn)(*[tf.constant(a) for a in arrays])


def in_session(tf, fn, arrays):
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        holders = [tf.compat.v1.placeholder(tf.as_dtype(a.dtype), shape=None) for a in arrays]
        out = fn(*holders)
        return tf.compat.v1.Session(graph=graph).run(out, dict(zip(holders, arrays)))


MODES = {"eager": eager, "function": in_function, "session": in_session}


def outcome(tf, mode, fn, arrays) -> str:
    """The class name of the error `fn` raises in `mode` ('no error' when it raises none)."""
    try:
        MODES[mode](tf, fn, arrays)
    except Exception as error:  # noqa: BLE001 - the class is the recorded outcome
        return type(error).__name__
    return "no error"
