"""Constant folding at plan build: cheap stateless ops on known inputs become plan constants."""

import numpy as np

import placeflow as tf
from placeflow.graph.constant_folding import MAX_ELEMENTS


def plan_nodes(function, *args):
    function(*args)
    plan = function.get_concrete_function(*args)._plan
    return {n.name: n for n in plan.nodes}


def test_shape_only_and_constant_inputs_fold():
    @tf.function
    def f(x):
        seed = tf.ones_like(x)           # only x's (static) shape matters
        scale = tf.constant(2.0) * 3.0   # constants only
        return x * (seed * scale)

    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    nodes = plan_nodes(f, x)
    assert nodes["OnesLike"].kind == "const" and nodes["mul"].kind == "const" and nodes["mul_1"].kind == "const"
    assert nodes["mul_2"].kind == "kernel"  # it reads the argument
    np.testing.assert_array_equal(f(x).numpy(), [[6.0, 12.0], [18.0, 24.0]])
    np.testing.assert_array_equal(f(tf.constant([[1.0, 1.0], [1.0, 1.0]])).numpy(), np.full((2, 2), 6.0))


def test_gradient_seed_and_loss_scaling_fold():
    w = tf.Variable([[0.5], [-0.5]])

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul(x, w)) / 4.0
        return tape.gradient(loss, w)

    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    nodes = plan_nodes(grad, x)
    folded = {n.type for n in nodes.values() if n.kind == "const" and n.op is not None and n.type != "Const"}
    assert {"OnesLike", "_ReduceGrad"} <= folded
    np.testing.assert_allclose(grad(x).numpy(), [[1.0], [1.5]])


def test_random_stateful_large_and_controlled_ops_stay_kernels():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        noise = tf.random.uniform([3])
        big = tf.ones_like(tf.zeros([MAX_ELEMENTS + 1]))
        update = v.assign_add(1.0)
        with tf.control_dependencies([update]):
            after = tf.constant(2.0) * 2.0
        return x + noise, tf.reduce_sum(big), after

    x = tf.zeros([3])
    nodes = plan_nodes(f, x)
    assert nodes["RandomUniform"].kind == "kernel"
    assert nodes["mul"].kind == "kernel"  # a control input: it must wait for the update
    big = [n for n in nodes.values() if n.type == "OnesLike"][0]
    assert big.kind == "kernel"
    first, second = f(x)[0].numpy(), f(x)[0].numpy()
    assert not np.array_equal(first, second)
