"""tf.Variable members TensorFlow 2.21 has eagerly (values recorded from it): initializer (None), get_shape,
sparse_read, gather_nd, is_initialized."""

import placeflow as tf


def test_eager_variable_members():
    v = tf.Variable([1.0, 2.0])
    assert v.initializer is None
    assert v.get_shape() == (2,)
    assert v.sparse_read([1]).numpy().tolist() == [2.0]
    assert v.gather_nd([[0]]).numpy().tolist() == [1.0]
    assert v.is_initialized().numpy()


def test_sparse_read_is_differentiable_and_traceable():
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v.sparse_read([1]) * 3.0)
    grad = tape.gradient(y, v)
    assert tf.convert_to_tensor(grad).numpy().tolist() == [0.0, 3.0]

    @tf.function
    def read():
        return v.sparse_read([0]), v.gather_nd([[1]])
    first, second = read()
    assert first.numpy().tolist() == [1.0] and second.numpy().tolist() == [2.0]


def test_an_assigns_unread_variable_is_the_variable_inside_a_function_too():
    """The _UnreadVariable an eager assign returns (recorded from TF in tests/conformance, case
    eager_assign_returns_the_variable_read_when_used) is the same variable wherever it is used."""
    v = tf.Variable(1.0, name="v")
    unread = v.assign(2.0)

    @tf.function
    def bump():
        unread.assign_add(1.0)
        return unread * 2.0

    assert float(bump()) == 6.0 and float(v.numpy()) == 3.0
    assert unread.trainable and unread.device == v.device and unread._unique_id == v._unique_id
    unread.assign(7.0, read_value=False)
    assert float(v.numpy()) == 7.0 and "_value" not in unread.__dict__
    assert tf.convert_to_tensor(unread).numpy() == 7.0
