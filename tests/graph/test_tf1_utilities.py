"""TF1 and config utilities: colocation_groups(), Session as the default graph, device policies, optimizer options."""

import logging

import pytest

import placeflow as tf


def test_colocation_groups_is_a_method_returning_bytes_as_tf():
    with tf.Graph().as_default():
        a = tf.constant(1.0, name="a")
        with tf.compat.v1.colocate_with(a):
            b = tf.constant(2.0, name="b")
    assert a.op.colocation_groups() == [b"loc:@a"] and b.op.colocation_groups() == [b"loc:@a"]  # TF 2.21
    assert b.op.get_attr("_class") == [b"loc:@a"]


def test_a_session_makes_its_graph_the_default_inside_with():
    graph = tf.Graph()
    with tf.compat.v1.Session(graph=graph) as session:
        assert tf.compat.v1.get_default_graph() is graph and session.graph is graph
    graph.switch_to_thread_local()  # placeflow's graph stacks are always per thread


def test_device_policies_for_implicit_copies(make_context, caplog):
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    with tf.device("/GPU:0"):
        on_gpu = tf.constant([1.0, 2.0])
    tf.config.experimental.set_device_policy("explicit")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tensors on conflicting devices: cannot compute Neg"):
        with tf.device("/CPU:0"):
            tf.negative(on_gpu)
    tf.config.experimental.set_device_policy("warn")
    with caplog.at_level(logging.WARNING, logger="placeflow"):
        with tf.device("/CPU:0"):
            assert tf.negative(on_gpu).numpy().tolist() == [-1.0, -2.0]
    assert "device policy 'warn'" in caplog.text
    tf.config.experimental.set_device_policy(None)
    assert tf.config.experimental.get_device_policy() == "silent"
    with pytest.raises(ValueError, match="Not a valid device policy"):
        tf.config.experimental.set_device_policy("loud")


def test_optimizer_options_are_stored_or_refused():
    tf.config.optimizer.set_experimental_options({"constant_folding": True, "layout_optimizer": False})
    assert tf.config.optimizer.get_experimental_options()["constant_folding"] is True
    with pytest.raises(NotImplementedError, match="no Grappler"):
        tf.config.optimizer.set_experimental_options({"remapping": True})
    with pytest.raises(NotImplementedError, match="no XLA"):
        tf.config.optimizer.set_jit(True)
    assert tf.config.optimizer.get_jit() is False
