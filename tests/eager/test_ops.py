"""Op values against NumPy, on the CPU and on a simulated GPU."""

import numpy as np
import pytest

import placeflow as tf

X = np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, 0.5]], dtype=np.float32)
Y = np.array([[2.0, 1.0, -1.0], [0.5, 2.0, 4.0]], dtype=np.float32)


@pytest.fixture(params=["/cpu:0", "/GPU:0"])
def on(request, make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    with tf.device(request.param):
        yield request.param


def close(tensor, expected):
    np.testing.assert_allclose(np.asarray(tensor), expected, rtol=1e-6, atol=1e-6)
    assert tensor.dtype == tf.as_dtype(np.asarray(expected).dtype)


BINARY = [(tf.add, np.add), (tf.subtract, np.subtract), (tf.multiply, np.multiply), (tf.divide, np.divide),
          (tf.maximum, np.maximum), (tf.minimum, np.minimum), (tf.pow, lambda a, b: np.power(np.abs(a), b))]


@pytest.mark.parametrize("op,ref", BINARY)
def test_binary(on, op, ref):
    x = np.abs(X) if op is tf.pow else X
    close(op(tf.constant(x), tf.constant(Y)), ref(x, Y))


@pytest.mark.parametrize("op,ref", [(tf.equal, np.equal), (tf.less, np.less), (tf.greater, np.greater),
                                    (tf.less_equal, np.less_equal), (tf.greater_equal, np.greater_equal),
                                    (tf.not_equal, np.not_equal)])
def test_comparisons(on, op, ref):
    close(op(tf.constant(X), tf.constant(Y)), ref(X, Y))


@pytest.mark.parametrize("op,ref", [(tf.negative, np.negative), (tf.exp, np.exp), (tf.square, np.square),
                                    (tf.tanh, np.tanh), (tf.abs, np.abs),
                                    (tf.nn.relu, lambda a: np.maximum(a, 0)),
                                    (tf.sigmoid, lambda a: 1 / (1 + np.exp(-a)))])
def test_unary(on, op, ref):
    close(op(tf.constant(X)), ref(X).astype(np.float32))


def test_log_and_sqrt(on):
    close(tf.math.log(tf.constant(np.abs(X))), np.log(np.abs(X)))
    close(tf.sqrt(tf.constant(np.abs(X))), np.sqrt(np.abs(X)))


def test_softmax_and_log_softmax(on):
    e = np.exp(X - X.max(axis=-1, keepdims=True))
    close(tf.nn.softmax(tf.constant(X)), e / e.sum(-1, keepdims=True))
    close(tf.nn.log_softmax(tf.constant(X)), np.log(e / e.sum(-1, keepdims=True)))


@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
def test_sparse_softmax_cross_entropy_and_its_label_check(on, label_dtype):
    labels = np.array([2, 0], label_dtype)
    log_probs = X - X.max(-1, keepdims=True)
    log_probs -= np.log(np.exp(log_probs).sum(-1, keepdims=True))
    got = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant(labels), logits=tf.constant(X))
    close(got, -log_probs[[0, 1], labels])
    for bad in ([-1, 0], [2, 3]):  # below and above [0, 3): one check covers both ends
        with pytest.raises(tf.errors.InvalidArgumentError, match=f"Received a label value of {max(bad, key=abs)} "
                                                                 r"which is outside the valid range of \[0, 3\)"):
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant(np.array(bad, label_dtype)),
                                                           logits=tf.constant(X))


def test_matmul_and_transposes(on):
    a, b = tf.constant(X), tf.constant(Y)
    close(tf.matmul(a, b, transpose_b=True), X @ Y.T)
    close(tf.matmul(a, b, transpose_a=True), X.T @ Y)
    close(a @ tf.transpose(b), X @ Y.T)


def test_reductions(on):
    x = tf.constant(X)
    close(tf.reduce_sum(x), X.sum())
    close(tf.reduce_mean(x, axis=0), X.mean(0))
    close(tf.reduce_max(x, axis=1, keepdims=True), X.max(1, keepdims=True))
    close(tf.reduce_min(x, axis=[0, 1]), X.min())
    close(tf.argmax(x, axis=1), np.argmax(X, 1))
    assert tf.argmax(x, axis=1, output_type=tf.int32).dtype == tf.int32


def test_add_n_cast_clip_where(on):
    x, y = tf.constant(X), tf.constant(Y)
    close(tf.add_n([x, y, x]), X + Y + X)
    close(tf.cast(x, tf.int32), X.astype(np.int32))
    close(tf.clip_by_value(x, -1.0, 1.0), np.clip(X, -1, 1))
    close(tf.where(x > y, x, y), np.where(X > Y, X, Y))
    close(tf.where(tf.constant([True, False, True])), np.array([[0], [2]], dtype=np.int64))


def test_shaping(on):
    x = tf.constant(X)
    close(tf.reshape(x, [3, 2]), X.reshape(3, 2))
    close(tf.reshape(x, [-1]), X.reshape(-1))
    close(tf.concat([x, x], axis=0), np.concatenate([X, X]))
    close(tf.stack([x, x], axis=1), np.stack([X, X], 1))
    parts = tf.split(x, 3, axis=1)
    assert len(parts) == 3
    close(parts[2], X[:, 2:])
    sized = tf.split(x, [1, 2], axis=1)
    close(sized[1], X[:, 1:])
    close(tf.expand_dims(x, 0), X[None])
    close(tf.squeeze(tf.expand_dims(x, 0)), X)
    close(tf.tile(x, [1, 2]), np.tile(X, [1, 2]))
    close(tf.shape(x), np.array([2, 3], dtype=np.int32))


def test_slicing(on):
    x = tf.constant(X)
    close(x[1], X[1])
    close(x[:, 1:], X[:, 1:])
    close(x[..., ::-1], X[..., ::-1])
    close(x[None, 0, tf.constant(2)], X[None, 0, 2])


def test_constructors(on):
    close(tf.zeros([2, 3]), np.zeros((2, 3), np.float32))
    close(tf.ones([2], tf.int64), np.ones(2, np.int64))
    close(tf.fill([2, 2], 7), np.full((2, 2), 7, np.int32))
    close(tf.range(5), np.arange(5, dtype=np.int32))
    close(tf.range(1.0, 2.0, 0.25), np.arange(1, 2, 0.25, dtype=np.float32))
    close(tf.eye(3, 2), np.eye(3, 2, dtype=np.float32))
    close(tf.zeros_like(tf.constant(X)), np.zeros_like(X))
    close(tf.ones_like(tf.constant(X)), np.ones_like(X))
    close(tf.one_hot([0, 2], 3), np.eye(3, dtype=np.float32)[[0, 2]])
    close(tf.one_hot([1], 2, on_value=5, off_value=-1, dtype=tf.int32), np.array([[-1, 5]], np.int32))


def test_errors_quote_bad_input(on):
    # TensorFlow 2.21's texts (C++ type names)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cannot compute AddV2 as input #1\(zero-based\) was "
                                                             r"expected to be a float tensor but is a int32 tensor"):
        tf.add(tf.constant([1.0]), tf.constant([1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cannot compute AddV2 as input #1\(zero-based\) was "
                                                             r"expected to be a int32 tensor but is a float tensor"):
        tf.constant([1, 2]) + 1.5
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Number of ways to split should evenly divide the "
                                                             r"split dimension, but got split_dim 1 \(size = 3\) and "
                                                             r"num_split 4 \[Op:Split\] name: split"):
        tf.split(tf.constant(X), 4, axis=1)
    with pytest.raises(ValueError, match="add_n needs at least one input"):
        tf.add_n([])


def test_raw_ops_name_the_ones_placeflow_has_when_one_is_missing():
    assert "MatMul" in dir(tf.raw_ops) and tf.raw_ops.AddV2(x=1.0, y=2.0).numpy() == 3.0
    with pytest.raises(AttributeError, match=r"no raw op of that name. Its raw ops: Abs, Acos, Acosh"):
        tf.raw_ops.NoSuchOp
    with pytest.raises(TypeError):  # keyword arguments only, as TensorFlow's raw ops
        tf.raw_ops.AddV2(1.0, 2.0)


def test_python_numbers_meet_float_tensors_as_tensorflow_converts_them():
    x = tf.constant([1.0, 2.0])
    assert (x * 1.5).numpy().tolist() == [1.5, 3.0] and (2 * x).numpy().tolist() == [2.0, 4.0]
    assert (1.0 - x).numpy().tolist() == [0.0, -1.0] and (x - 1).numpy().tolist() == [0.0, 1.0]
    assert (0.1 + tf.zeros([1])).numpy()[0] == np.float32(0.1)               # float32(0.1), not float64's
    half = tf.constant([1.0], tf.float16) * 0.1
    assert half.dtype == tf.float16 and half.numpy()[0] == np.float16(0.1)
    assert (tf.constant([1.0], tf.float64) * 0.1).numpy()[0] == 0.1
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        tf.constant([1, 2]) * 1.5
    with pytest.raises(ValueError):   # TF 2.21: "Can't convert Python sequence with out-of-range integer"
        x * 10 ** 400
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum((3.0 * v - 1.0) * v)
    assert tape.gradient(y, v).numpy().tolist() == [5.0, 11.0]   # 6v - 1
