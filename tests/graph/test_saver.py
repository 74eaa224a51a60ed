"""train.Saver: a TF1 training loop saves its variables and a fresh session restores them."""

import pytest

import placeflow as tf


def test_save_restore_and_latest_checkpoint(tmp_path):
    with tf.Graph().as_default():
        w = tf.Variable([1.0, 2.0], name="w")
        step = tf.compat.v1.train.get_or_create_global_step()
        bump = w.assign_add([1.0, 1.0])
        saver = tf.compat.v1.train.Saver(max_to_keep=2)
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            paths = []
            for i in range(3):
                session.run(bump)
                paths.append(saver.save(session, str(tmp_path / "model"), global_step=i))
        assert paths[-1].endswith("model-2") and tf.compat.v1.train.latest_checkpoint(str(tmp_path)) == paths[-1]
        assert not (tmp_path / "model-0.index").exists()  # max_to_keep=2
        with tf.compat.v1.Session() as fresh:
            saver.restore(fresh, paths[1])
            assert fresh.run(w).tolist() == [3.0, 4.0] and int(fresh.run(step)) == 0
            with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files"):
                saver.restore(fresh, str(tmp_path / "nothing"))
    assert tf.train.list_variables(paths[-1]) == [("global_step", []), ("w", [2])]  # TF's name-based checkpoint
    assert tf.train.load_variable(paths[-1], "w:0").tolist() == [4.0, 5.0]


def test_saver_and_tf1_optimizer_options_are_implemented_or_refused(tmp_path):
    with tf.Graph().as_default():
        w = tf.Variable([1.0], name="w")
        loss = tf.reduce_sum(w * w)
        saver = tf.compat.v1.train.Saver()
        optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.1)
        with pytest.raises(NotImplementedError, match="aggregation_method and grad_loss"):
            optimizer.minimize(loss, grad_loss=tf.constant(2.0))
        with pytest.raises(NotImplementedError, match="aggregation_method"):
            tf.gradients(loss, [w], aggregation_method=2)
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            with pytest.raises(NotImplementedError, match="write_state=False"):
                saver.save(session, str(tmp_path / "m"), write_state=False)
    with pytest.raises(NotImplementedError, match="experimental_aggregate_gradients=False"):
        tf.compat.v1.train.GradientDescentOptimizer(0.1).apply_gradients([(tf.constant(1.0), tf.Variable(1.0))],
                                                                         experimental_aggregate_gradients=False)
    with pytest.raises(TypeError):  # Keras 3's optimizers have no such argument (as with TensorFlow)
        tf.keras.optimizers.SGD(0.1).apply_gradients([(tf.constant(1.0), tf.Variable(1.0))],
                                                     experimental_aggregate_gradients=False)
