"""tf.random.stateless_categorical gives TensorFlow 2.21's samples (its Philox stream and CPU sampling; the
values below were recorded from TF 2.21), and integer bounds that are not scalars fail as TF fails."""

import numpy as np
import pytest

import placeflow as tf


@pytest.mark.parametrize("logits, samples, seed, expected", [
    (np.log([[0.5, 0.5]]).astype(np.float32), 6, [1, 2], [[1, 1, 0, 1, 1, 1]]),
    (np.log([[0.1, 0.25, 0.5, 0.15]]).astype(np.float32), 6, [7, 17], [[2, 0, 2, 2, 0, 2]]),
    (np.array([[0.1, 0.25, 0.5, 0.15]]), 6, [7, 17], [[2, 0, 2, 1, 0, 2]]),
])
def test_stateless_categorical_matches_tensorflow(logits, samples, seed, expected):
    drawn = tf.random.stateless_categorical(tf.constant(logits), samples, seed=seed)
    assert drawn.dtype == tf.int64 and drawn.numpy().tolist() == expected


def test_stateless_categorical_skips_non_finite_logits_and_batches_rows():
    logits = np.array([[0.0, -np.inf, 1.0], [2.0, 0.5, -1.0]], dtype=np.float32)
    drawn = tf.random.stateless_categorical(logits, 40, seed=[3, 4]).numpy()
    assert drawn.shape == (2, 40) and not (drawn[0] == 1).any() and set(drawn[1]) <= {0, 1, 2}
    again = tf.random.stateless_categorical(logits, 40, seed=[3, 4]).numpy()
    assert np.array_equal(drawn, again)


def test_integer_bounds_must_be_scalars():
    shape = [2, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"minval must be 0-D, got shape \[2,3\]"):
        tf.random.stateless_uniform(shape, seed=[1, 2], minval=tf.zeros(shape, tf.int32), maxval=100, dtype=tf.int32)

    @tf.function
    def traced():
        return tf.random.stateless_uniform(shape, seed=[1, 2], minval=0, maxval=tf.ones(shape, tf.int32) * 100,
                                           dtype=tf.int32)
    with pytest.raises(ValueError, match="maxval must be a scalar; got a tensor of shape"):
        traced()


def test_key_counter_raw_ops_give_tensorflows_philox_state():
    key, counter = tf.raw_ops.StatelessRandomGetKeyCounter(seed=[1, 2])
    assert key.dtype == tf.uint64 and key.numpy().tolist() == [10413732777507651514]
    assert counter.numpy().tolist() == [0, 17830669156045600267]
    assert tf.raw_ops.StatelessRandomGetAlg().numpy() == 1
    key, counter, alg = tf.raw_ops.StatelessRandomGetKeyCounterAlg(seed=[7, 17])
    drawn = tf.raw_ops.StatelessRandomUniformV2(shape=[3], key=key, counter=counter, alg=alg)
    assert drawn.numpy().tolist() == tf.random.stateless_uniform([3], seed=[7, 17]).numpy().tolist()
