"""The graph pipeline (graph/pipeline.py) and its placer seam (placement/placers.py)."""

import numpy as np
import pytest

import placeflow as tf


def test_session_function_and_bodies_compile_through_the_one_pipeline(make_context, monkeypatch):
    from placeflow.graph import pipeline
    make_context(PLACEFLOW_SIMULATED_GPUS="1")
    calls = []
    for name in ("place", "plan", "run"):
        original = getattr(pipeline, name)
        monkeypatch.setattr(pipeline, name, lambda *a, _f=original, _n=name, **k: calls.append(_n) or _f(*a, **k))
    traced = tf.function(lambda x: tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0))
    assert float(traced(tf.constant(3.0))) == 6.0
    with tf.compat.v1.Graph().as_default():
        y = tf.constant(2.0) * 4.0
        assert tf.compat.v1.Session().run(y) == 8.0
    assert calls.count("place") >= 3 and calls.count("plan") >= 3 and calls.count("run") >= 3  # function, body, Session


def test_the_placer_is_tensorflows_by_default_and_the_cost_model_placer_can_be_chosen(make_context):
    make_context()
    assert tf.config.experimental.get_placer() == "simple"
    tf.config.experimental.set_placer("cost_model")   # tests/placement_cost/ tests it
    assert tf.config.experimental.get_placer() == "cost_model"
    with pytest.raises(ValueError, match="Unknown placer 'fastest'"):
        tf.config.experimental.set_placer("fastest")
    tf.config.experimental.set_placer("simple")
    assert tf.config.experimental.get_placer() == "simple"
    np.testing.assert_array_equal(tf.function(lambda x: x + 1.0)(tf.constant([1.0])).numpy(), [2.0])
