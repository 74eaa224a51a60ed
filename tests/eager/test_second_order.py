"""Second derivatives of every op of the gradient checks: a Hessian-vector product by nested tapes equals the
central difference of the first gradient along v. A gradient rule that cannot be differentiated again must
raise (LookupError naming the op), never give None or zeros where the true value is not zero."""

import numpy as np
import pytest

import placeflow as tf
from tests.eager.test_gradients import CASES

FLOAT32 = {"Cast", "MaxPool3D", "MaxPool3DGrad", "_MaxPool3DGradGrad", "CTCLoss", "CTCLossDense"}
# second order is piecewise constant or undefined in TF as well: skipped with the reason
NOT_TWICE = {
    "EagerPyFunc": "TF gives None; placeflow zeros (docs/divergences.md)",
}
# inputs TF's rule treats as constants in second order (placeflow follows TF; recorded in tests/conformance):
# the labels of softmax_cross_entropy_with_logits have no term in the backprop output's gradient
HELD_CONSTANT = {"SoftmaxCrossEntropyWithLogits": {1}}


def _tensors(arrays):
    return [tf.constant(a) for a in arrays]


def _gradient_along(fn, arrays, w):
    tensors = _tensors(arrays)
    with tf.GradientTape() as tape:
        for t in tensors:
            tape.watch(t)
        total = tf.reduce_sum(fn(*tensors) * w)
    return [np.zeros(np.shape(a)) if g is None else tf.convert_to_tensor(g).numpy().astype(np.float64)
            for g, a in zip(tape.gradient(total, tensors), arrays)]


def _real_cases():
    """The ops whose inputs are all real (second order is checked there; every op of the table is, today)."""
    return sorted(op for op, (fn, arrays) in CASES.items() if fn is not None and op not in NOT_TWICE
                  and all(np.asarray(a).dtype.kind == "f" for a in arrays))


@pytest.mark.parametrize("op", _real_cases())
def test_hessian_vector_product_matches_central_differences(op):
    fn, arrays = CASES[op]
    arrays = [np.asarray(a) for a in arrays]
    rng = np.random.RandomState(5)
    y = fn(*_tensors(arrays))
    w = tf.constant(rng.uniform(-1, 1, y.shape).astype(y.dtype.as_numpy_dtype))
    v = [np.zeros(a.shape, a.dtype) if i in HELD_CONSTANT.get(op, ()) else rng.uniform(-1, 1, a.shape).astype(a.dtype)
         for i, a in enumerate(arrays)]
    tensors = _tensors(arrays)
    try:
        with tf.GradientTape() as outer:
            for t in tensors:
                outer.watch(t)
            with tf.GradientTape() as inner:
                for t in tensors:
                    inner.watch(t)
                total = tf.reduce_sum(fn(*tensors) * w)
            grads = inner.gradient(total, tensors, unconnected_gradients="zero")
            along = tf.add_n([tf.reduce_sum(tf.cast(tf.convert_to_tensor(g), tf.float64) * tf.constant(d, tf.float64))
                              for g, d in zip(grads, v)])
        hvp = outer.gradient(along, tensors, unconnected_gradients="zero")
    except LookupError:
        return  # refused by name: never a silent answer
    eps, rtol = (1e-2, 2e-3) if op in FLOAT32 else (1e-5, 1e-4)
    plus = _gradient_along(fn, [a + eps * d for a, d in zip(arrays, v)], w)
    minus = _gradient_along(fn, [a - eps * d for a, d in zip(arrays, v)], w)
    for index, (got, high, low) in enumerate(zip(hvp, plus, minus)):
        if index in HELD_CONSTANT.get(op, ()):
            continue
        np.testing.assert_allclose(tf.convert_to_tensor(got).numpy(), (high - low) / (2 * eps), rtol=rtol, atol=1e-5)


def _hvp(fn, tensors, w, v):
    with tf.GradientTape() as outer:
        for t in tensors:
            outer.watch(t)
        with tf.GradientTape() as inner:
            for t in tensors:
                inner.watch(t)
            total = tf.reduce_sum(fn(*tensors) * w)
        grads = inner.gradient(total, tensors, unconnected_gradients="zero")
        along = tf.add_n([tf.reduce_sum(tf.cast(tf.convert_to_tensor(g), tf.float64) * tf.cast(d, tf.float64))
                          for g, d in zip(grads, v)])
    return outer.gradient(along, tensors, unconnected_gradients="zero")


@pytest.mark.parametrize("op", _real_cases())
def test_hessian_vector_product_inside_a_function_equals_eager(op):
    fn, arrays = CASES[op]
    rng = np.random.RandomState(5)
    tensors = _tensors(arrays)
    y = fn(*tensors)
    w = tf.constant(rng.uniform(-1, 1, y.shape).astype(y.dtype.as_numpy_dtype))
    v = [tf.constant(rng.uniform(-1, 1, np.shape(a)).astype(np.asarray(a).dtype)) for a in arrays]
    try:
        eager = _hvp(fn, tensors, w, v)
    except LookupError:
        with pytest.raises(LookupError):  # refused eagerly: refused when traced too
            tf.function(lambda *t: _hvp(fn, list(t), w, v))(*tensors)
        return
    traced = tf.function(lambda *t: _hvp(fn, list(t), w, v))(*tensors)
    for a, b in zip(eager, traced):
        np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=1e-5, atol=1e-6)
