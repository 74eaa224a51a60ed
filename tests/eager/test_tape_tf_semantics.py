"""GradientTape behaviours TensorFlow's own backprop tests check (tests/tf_unit found them): reset, gradients
inside the tape's context, variables and strings as targets, what watch() accepts, the jacobian checks."""

import numpy as np
import pytest

import placeflow as tf


def test_reset_forgets_the_watched_variables_too():
    with tf.GradientTape() as tape:
        v = tf.Variable(1.0)
        loss = v * v
        assert tape.watched_variables() == (v,)
        tape.reset()
        assert tape.watched_variables() == ()
        loss += v * v
        assert tape.watched_variables() == (v,)
    assert tape.gradient(loss, v).numpy() == 2.0


def test_a_persistent_tape_records_its_own_gradients_inside_its_context():
    with tf.GradientTape(persistent=True) as tape:
        x = tf.constant(3.0)
        tape.watch(x)
        y = x ** 3
        dy = tape.gradient(y, x)          # 3x^2, recorded on the tape
        d2y = tape.gradient(dy, x)        # 6x
    d3y = tape.gradient(d2y, x)
    assert [t.numpy() for t in (y, dy, d2y, d3y)] == [27.0, 27.0, 18.0, 6.0]


def test_a_non_persistent_tape_stops_recording_at_its_gradient_call():
    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        loss = 2 * v
        grad = tape.gradient(loss, v)
        after = v * v                     # not recorded any more
    assert grad.numpy() == 2.0
    assert after.numpy() == 1.0


def test_a_variable_target_is_its_own_gradient_source():
    xs = [tf.Variable(2.0), tf.Variable(3.0), tf.Variable(5.0)]
    with tf.GradientTape() as tape:
        top = max(xs)                     # the Variable object itself (compared by reading)
    grads = tape.gradient(top, xs)
    assert grads[0] is None and grads[1] is None and grads[2].numpy() == 1.0
    with tf.GradientTape() as tape:
        x, y = tf.Variable([3.0]), tf.Variable([2.0])
    assert tape.gradient(x, y) is None


def test_string_targets_give_no_gradient():
    x, y, s = tf.constant(3.0), tf.constant(5.0), tf.constant("unknown")
    with tf.GradientTape() as tape:
        tape.watch(x)
        tape.watch(y)
        tape.watch(s)
        z = y * y
    grads = tape.gradient([x, y, z, s], [x, y, s])
    assert [g.numpy() for g in grads[:2]] == [1.0, 11.0] and grads[2] is None
    with tf.GradientTape() as tape:
        tape.watch(s)
    assert tape.gradient(s, s) is None


def test_watch_refuses_non_tensors_and_expands_composites():
    with pytest.raises(ValueError, match="ndarray"):
        tf.GradientTape().watch(np.array(1.0))
    with tf.GradientTape() as tape:
        values = tf.constant([1.0, 2.0])
        sparse = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=values, dense_shape=[3, 4])
        tape.watch(sparse)
        total = tf.sparse.reduce_sum(sparse)
    assert tape.gradient(total, values).numpy().tolist() == [1.0, 1.0]


def test_reentering_an_active_tape_and_unknown_unconnected_gradients_raise():
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match="Tape is still recording"):
            with tape:
                pass
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 'nonsense'"):
        tape.gradient(y, x, unconnected_gradients="nonsense")


def test_batch_jacobian_checks_shapes_and_persistence():
    x = tf.random.uniform([2, 3])
    with tf.GradientTape() as tape:
        y = tf.concat([x, x], axis=0)
    with pytest.raises(ValueError, match="Need first dimension"):
        tape.batch_jacobian(y, x)
    with tf.GradientTape() as tape:
        y = tf.random.uniform([2, 2])
    with pytest.raises(ValueError, match="must have rank at least 2"):
        tape.batch_jacobian(y, tf.random.uniform([2]))
    with tf.GradientTape() as tape:
        x = tf.constant([[1.0, 2.0]])
        tape.watch(x)
        y = x * x
    with pytest.raises(RuntimeError, match="persistent"):
        tape.batch_jacobian(y, x, experimental_use_pfor=False)


def test_jacobians_of_empty_targets_are_empty_zeros():
    x = tf.zeros([1, 0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x ** 2
    assert tape.batch_jacobian(y, x).shape == (1, 0, 0)
    assert tape.jacobian(y, x).shape == (1, 0, 1, 0)


def test_a_jacobian_through_a_sparse_gradient_is_dense():
    with tf.GradientTape(persistent=True) as tape:
        table = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        tape.watch(table)
        rows = tf.nn.embedding_lookup(table, [0, 2])
    jacobian = tape.jacobian(rows, table).numpy()
    expected = np.zeros((2, 2, 3, 2))
    expected[0, 0, 0, 0] = expected[0, 1, 0, 1] = expected[1, 0, 2, 0] = expected[1, 1, 2, 1] = 1.0
    assert jacobian.shape == (2, 2, 3, 2) and np.array_equal(jacobian, expected)
