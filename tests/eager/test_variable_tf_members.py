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
