"""Cases run on TensorFlow 2.21 (record_tf_io_queue_audio.py) and on placeflow (test_io_queue_audio.py): each
`case_<name>(tf)` returns JSON-able results (values rounded to 6 decimals, dtypes, shapes, or
[error class, first line of the message without TensorFlow's op-location decorations])."""

from __future__ import annotations

import re

import numpy as np


def _err(error) -> list:
    line = str(error).split("\n")[0]
    line = re.sub(r"^\{\{function_node [^}]*\}\} ", "", line)
    line = re.sub(r" \[Op:[^\]]*\].*$", "", line)
    line = re.sub(r"(Queue) '\d+'", r"\1 'N'", line)
    return [type(error).__name__, line.strip()]


def _v(value):
    if value is None:
        return None
    if isinstance(value, dict):
        return {k: _v(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_v(v) for v in value]
    array = np.asarray(value.numpy() if hasattr(value, "numpy") else value)
    if array.dtype == object or array.dtype.kind == "S":
        array = array.astype(object)
        return {"dtype": "string", "value": np.vectorize(lambda b: b.hex(), otypes=[object])(array).tolist()
                if array.ndim else array.item().hex()}
    out = np.round(array.astype(np.float64), 6) if array.dtype.kind in "fc" and array.dtype.kind != "c" else array
    if array.dtype.kind == "c":
        out = [np.round(array.real, 6).tolist(), np.round(array.imag, 6).tolist()]
        return {"dtype": value.dtype.name, "shape": list(array.shape), "value": out}
    return {"dtype": value.dtype.name if hasattr(value, "dtype") and hasattr(value.dtype, "name") else str(array.dtype),
            "shape": list(array.shape), "value": out.tolist()}


def _try(fn):
    try:
        return _v(fn())
    except Exception as error:  # noqa: BLE001 - the class is the result
        return _err(error)


# -- tf.autodiff.ForwardAccumulator -------------------------------------------------------------------
def case_jvp_basic(tf):
    x, v = tf.constant([1., 2., 3.]), tf.constant([1., 0., 2.])
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        y = tf.reduce_sum(tf.sin(x) * x)
        z = tf.constant(3.)
        w = tf.nn.softmax(tf.reshape(x, [1, 3]) * 2.0)
    return [_v(acc.jvp(y)), _v(acc.jvp(z)), _v(acc.jvp(z, unconnected_gradients="zero")),
            _v(acc.jvp(z, unconnected_gradients=tf.UnconnectedGradients.ZERO)), _v(acc.jvp([y, {"a": y, "b": w}])),
            _v(acc.jvp(x))]


def case_jvp_many_ops(tf):
    a = tf.constant([[1., 2.], [3., 4.]])
    x = tf.constant([0.5, -1.5, 2.0])
    with tf.autodiff.ForwardAccumulator({"a": a, "b": [x]}, {"a": tf.ones_like(a), "b": [tf.constant([1., 2., 3.])]}) \
            as acc:
        outs = {"matmul": tf.matmul(a, a), "prod": tf.reduce_prod(x), "inv": tf.linalg.inv(a),
                "tanh": tf.tanh(x), "concat": tf.concat([x, x * x], 0), "gather": tf.gather(x, [2, 0, 2]),
                "max": tf.reduce_max(x), "where": tf.where(x > 0, x, x ** 2), "log_sm": tf.nn.log_softmax(x),
                "logsumexp": tf.reduce_logsumexp(x), "div": x / (a[0, 0] + 1.0), "sqrt": tf.sqrt(tf.abs(x))}
    return _v(acc.jvp(outs))


def case_jvp_stop_gradient_and_integers(tf):
    x = tf.constant([1., 2., 3.])
    xi = tf.constant([1, 2])
    with tf.autodiff.ForwardAccumulator([x, xi], [tf.ones_like(x), tf.constant([1, 2])]) as acc:
        outs = [tf.stop_gradient(x) * 2, tf.identity(x), tf.cast(x, tf.int32), tf.argmax(x), xi * 2,
                tf.cast(x, tf.float64)]
    return [_v(acc.jvp(o)) for o in outs] + [_v(acc.jvp(xi))]


def case_jvp_variable_primal(tf):
    w = tf.Variable([1., 2.])
    with tf.autodiff.ForwardAccumulator(w, tf.constant([1., 1.])) as acc:
        y = w * w + tf.reduce_sum(w)
    return _v(acc.jvp(y))


def case_jvp_hvp_forward_over_backward(tf):
    x = tf.constant([1., 2.])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1., 0.5])) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(x ** 3) + tf.reduce_prod(tf.sin(x))
        g = tape.gradient(loss, x)
    return _v(acc.jvp(g))


def case_jvp_backward_over_forward(tf):
    x = tf.constant([1., 2.])
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, tf.constant([1., 0.])) as acc:
            loss = tf.reduce_sum(tf.exp(x) * x ** 3)
        j = acc.jvp(loss)
    return [_v(j), _v(tape.gradient(j, x))]


def case_jvp_forward_over_forward(tf):
    x = tf.constant([1., 2., 3.])
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as outer:
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as inner:
            y = x ** 3
        j = inner.jvp(y)
    return [_v(outer.jvp(j)), _v(inner.jvp(outer.jvp(y)))]


def case_jvp_in_function(tf):
    @tf.function
    def f(x):
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
            y = tf.exp(x) * tf.cos(x)
        return acc.jvp(y)

    @tf.function
    def h(x):
        return tf.exp(x) * x

    x = tf.constant([1., 2.])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([2., 1.])) as acc:
        y = h(x)
    return [_v(f(x)), _v(acc.jvp(y))]


def case_jvp_complex(tf):
    c = tf.constant([1 + 2j, 3 - 1j], tf.complex64)
    with tf.autodiff.ForwardAccumulator(c, tf.constant([1 + 1j, 2j], tf.complex64)) as acc:
        y = c * c + tf.exp(c)
    return _v(acc.jvp(y))


def case_jvp_errors(tf):
    x = tf.constant([1., 2., 3.])
    out = [_try(lambda: tf.autodiff.ForwardAccumulator(x, tf.constant([1, 2, 3])))[0],
           _try(lambda: tf.autodiff.ForwardAccumulator([x], [x, x]))[0],
           _try(lambda: tf.autodiff.ForwardAccumulator(x, "a"))[0]]
    acc = tf.autodiff.ForwardAccumulator(x, x)
    out.append(_try(lambda: acc.jvp(x, unconnected_gradients="foo")))

    def twice():
        with acc:
            with acc:
                pass
    out.append(_try(twice))
    with acc:  # re-entering after exit is allowed
        y = x * x
    out.append(_v(acc.jvp(y)))
    out.append(tf.autodiff.GradientTape is tf.GradientTape)
    return out


# -- tf.audio ------------------------------------------------------------------------------------------
_ROUNDING = [[0.], [0.5], [-1.], [1.], [2.], [-0.99999], [0.00001526], [0.0000153], [-0.0000153], [-0.00002289],
             [0.00002289], [0.5 / 32768], [-0.5 / 32768], [1.5 / 32768], [-1.5 / 32768], [2.5 / 32768], [-3.0],
             [float("nan")], [float("inf")], [float("-inf")], [0.9999847], [-0.9999847]]


def case_audio_encode_bytes(tf):
    mono = tf.audio.encode_wav(tf.constant(_ROUNDING, tf.float32), 44100)
    stereo = tf.audio.encode_wav(tf.constant(np.linspace(-1, 1, 10, dtype=np.float32).reshape(5, 2)),
                                 tf.constant(8000))
    empty = tf.audio.encode_wav(tf.zeros([0, 2]), 100)
    return [_v(mono), _v(stereo), _v(empty)]


def case_audio_decode(tf):
    stereo = tf.audio.encode_wav(tf.constant(np.linspace(-1, 1, 10, dtype=np.float32).reshape(5, 2)), 8000)
    out = []
    for kwargs in ({}, {"desired_channels": 1}, {"desired_channels": 3}, {"desired_samples": 7},
                   {"desired_samples": 2}, {"desired_channels": 0}, {"desired_channels": 2, "desired_samples": 0}):
        decoded = tf.audio.decode_wav(stereo, **kwargs)
        out.append([_v(decoded.audio), _v(decoded.sample_rate), type(decoded).__name__])
    mono = tf.audio.decode_wav(tf.audio.encode_wav(tf.constant(_ROUNDING, tf.float32), 22050))
    out.append([_v(mono.audio), _v(mono.sample_rate)])
    out.append(_v(tf.audio.decode_wav(tf.audio.encode_wav(tf.zeros([0, 2]), 100)).audio))
    return out


def case_audio_in_function(tf):
    stereo = tf.audio.encode_wav(tf.constant(np.linspace(-1, 1, 10, dtype=np.float32).reshape(5, 2)), 8000)
    decode = tf.function(lambda s: tf.audio.decode_wav(s, desired_channels=1))
    encode = tf.function(lambda a, r: tf.audio.encode_wav(a, r))
    decoded = decode(stereo)
    return [_v(decoded.audio), _v(decoded.sample_rate), _v(encode(decoded.audio, tf.constant(16000)))]


def case_audio_errors(tf):
    stereo = tf.audio.encode_wav(tf.constant([[0.5, -0.5]]), 8000)
    return [_try(lambda: tf.audio.decode_wav(b"abc")),
            _try(lambda: tf.audio.decode_wav(b"RIFX" + b"\0" * 40)),
            _try(lambda: tf.audio.decode_wav(b"RIFF" + b"\0" * 40)),
            _try(lambda: tf.audio.decode_wav([stereo])),
            _try(lambda: tf.audio.encode_wav(tf.constant([1., 2.]), 44100)),
            _try(lambda: tf.audio.encode_wav(tf.constant([[1, 2]]), 44100)),
            _try(lambda: tf.audio.encode_wav(tf.constant([[1.]]), [44100])),
            _try(lambda: tf.audio.encode_wav(tf.constant([[1.]]), 44100.0))[0],
            _try(lambda: tf.audio.encode_wav(tf.constant([[1.]]), -5)),
            _try(lambda: tf.audio.encode_wav(tf.constant([[1.]]), 0))]


from tests.io_queue_audio.cases_queue import QUEUE_CASES  # noqa: E402

CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}
CASES.update(QUEUE_CASES)

# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason:
# queues are Python objects driven by their methods, from threads (placeflow refuses them inside function,
# docs/divergences.md), and the proxy reaches no function of theirs.
TRACED_EXCLUDED = {name: "a queue's methods, from threads: no tf function to run inside tf.function"
                   for name in QUEUE_CASES}
# Divergences in those runs: {case: {path in its result: (placeflow's, reason)}}.
TRACED_DIVERGENT = {
    "jvp_backward_over_forward": {(): (
        [{"dtype": "float32", "shape": [], "value": 10.873127}, {"dtype": "float32", "shape": [2],
                                                                  "value": [35.337662, 0.0]}],
        "TF 2.21 fails on a GradientTape over a ForwardAccumulator over function calls (InternalError: 'Recorded "
        "operation ... returned too few gradients', a TF bug); placeflow gives the values TF gives eagerly")},
}
