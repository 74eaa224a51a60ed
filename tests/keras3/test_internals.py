"""The TensorFlow internals Keras 3 imports behave as TensorFlow's, each on its own (not only through Keras)."""

import copy

import numpy as np
import pytest

import placeflow as tf
from placeflow.compiler.tf2xla.python.xla import dynamic_update_slice
from placeflow.python.eager import context
from placeflow.python.framework import config, tensor_util
from placeflow.python.trackable.data_structures import ListWrapper, _DictWrapper


def test_dynamic_update_slice_writes_and_clamps_as_xla():
    base = tf.zeros([4, 3])
    out = dynamic_update_slice(base, tf.ones([2, 2]), [1, 1])
    assert out.numpy().sum() == 4 and out.numpy()[1:3, 1:3].tolist() == [[1, 1], [1, 1]]
    clamped = dynamic_update_slice(base, tf.ones([2, 2]), [3, 5])  # the start moves so the update fits
    assert clamped.numpy()[2:4, 1:3].tolist() == [[1, 1], [1, 1]]


def test_smart_cond_picks_a_branch_now_when_the_predicate_is_known():
    calls = []
    smart = tf.__internal__.smart_cond.smart_cond
    assert smart(True, lambda: calls.append("t") or 1, lambda: calls.append("f") or 2) == 1 and calls == ["t"]

    @tf.function
    def traced(flag):
        return smart(flag, lambda: tf.constant(1.0), lambda: tf.constant(2.0))
    assert float(traced(tf.constant(False))) == 2.0


def test_tracking_bases_record_dependencies_and_can_be_switched_off():
    class Holder(tf.__internal__.tracking.AutoTrackable):
        pass

    holder, child = Holder(), Holder()
    holder.child = child
    assert holder._trackable_children() == {"child": child}

    @tf.__internal__.tracking.no_automatic_dependency_tracking
    def assign_untracked(obj, value):
        obj.other = value
    assign_untracked(holder, Holder())
    assert set(holder._trackable_children()) == {"child"} and holder._setattr_tracking
    with pytest.raises(ValueError, match="already declared"):
        holder._track_trackable(Holder(), "child")


def test_types_and_context_and_config():
    assert isinstance(tf.constant(1.0), tf.__internal__.types.Tensor)
    assert isinstance(tf.Variable(1.0), tf.__internal__.types.Tensor)
    assert tensor_util.is_tf_type(tf.constant(1.0)) and not tensor_util.is_tf_type(np.ones(2))
    context.context().clear_kernel_cache()
    context.async_wait()
    config.enable_op_determinism()
    assert config.is_op_determinism_enabled()
    config.disable_op_determinism()
    assert not config.is_op_determinism_enabled()
    assert ListWrapper([1, 2]) == [1, 2] and _DictWrapper(a=1) == {"a": 1}


def test_maybe_merge_call_runs_in_cross_replica_context(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    seen = []

    def merged(distribution, value):
        seen.append((tf.distribute.in_cross_replica_context(), distribution is strategy))
        return value

    def replica():
        return tf.__internal__.distribute.interim.maybe_merge_call(merged, strategy, tf.constant(1.0))
    strategy.run(replica)
    assert seen == [(True, True)]
    assert tf.__internal__.distribute.strategy_supports_no_merge_call()  # outside any strategy


def test_deepcopy_of_a_variable_is_a_new_variable_and_of_a_tensor_the_same_tensor():
    var = tf.Variable([1.0, 2.0])
    twin = copy.deepcopy(var)
    twin.assign([3.0, 4.0])
    assert var.numpy().tolist() == [1.0, 2.0] and twin.device == var.device
    tensor = tf.constant(1.0)
    assert copy.deepcopy(tensor) is tensor


def test_indexed_slices_from_a_gather_gradient_and_scatter_updates():
    var = tf.Variable(np.zeros((4, 2), np.float32))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(var, [0, 2, 0]))
    grad = tape.gradient(loss, var)
    assert isinstance(grad, tf.IndexedSlices) and grad.indices.numpy().tolist() == [0, 2, 0]
    assert tf.convert_to_tensor(grad).numpy().tolist() == [[2, 2], [0, 0], [1, 1], [0, 0]]
    var.scatter_add(grad)
    var.scatter_update(tf.IndexedSlices(tf.fill([1, 2], 5.0), tf.constant([3]), tf.constant([4, 2])))
    assert var.numpy().tolist() == [[2, 2], [0, 0], [1, 1], [5, 5]]
    assert isinstance(tf.cast(grad, tf.float64), tf.IndexedSlices)
    with pytest.raises(TypeError, match="takes tf.IndexedSlices"):
        var.scatter_add(tf.ones([4, 2]))


def test_stateless_ops_take_seeds_known_only_when_the_function_runs():
    @tf.function
    def draw(seed):
        return tf.random.stateless_uniform([3], seed), tf.nn.experimental.stateless_dropout(tf.ones([8]), 0.5, seed)
    first, second = draw(tf.constant([1, 2])), draw(tf.constant([1, 3]))
    np.testing.assert_array_equal(first[0].numpy(), tf.random.stateless_uniform([3], [1, 2]).numpy())
    assert not np.array_equal(first[0].numpy(), second[0].numpy())
    assert set(np.unique(first[1].numpy())) <= {0.0, 2.0}


def test_tensor_shape_of_unknown_rank():
    unknown = tf.TensorShape(None)
    assert unknown.rank is None and str(unknown) == "<unknown>" and repr(unknown) == "TensorShape(None)"
    assert unknown == tf.TensorShape(None) and tf.TensorShape([]) != unknown
    with pytest.raises(ValueError, match="as_list"):
        unknown.as_list()
    assert tf.TensorShape([2, None]).merge_with([None, 3]) == [2, 3]
    with pytest.raises(ValueError, match="must have rank at least 3"):
        tf.TensorShape([2, 2]).with_rank_at_least(3)
