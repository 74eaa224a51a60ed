"""placeflow's tf.nn additions equal TensorFlow 2.21's recorded results (cases.py, record_tf_nn_more.py): floats
within 1e-5 (relative or absolute), everything else exactly; errors by class. The candidate samplers' draws are
not TensorFlow's (see ops/nn_sampling.py): their expected counts are compared with the recording, their samples
checked statistically here."""

import json
import math
import pathlib

import numpy as np
import pytest

import placeflow as tf
from tests.helpers import same_as_recorded as _same
from tests.nn_more.cases import CASES, TRACED_DIVERGENT, TRACED_EXCLUDED
from tests.traced_api import traced_tests

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["cases"]




def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(name):
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)


test_every_case_was_recorded_in_a_function, test_case_in_a_function_equals_tensorflow = traced_tests(
    __file__, CASES, TRACED_EXCLUDED, TRACED_DIVERGENT, _same)


@pytest.mark.parametrize("sampler, probability", [
    (lambda t: tf.random.uniform_candidate_sampler(t, 1, 4000, False, 5, seed=1), lambda k: 0.2),
    (lambda t: tf.random.log_uniform_candidate_sampler(t, 1, 4000, False, 5, seed=2),
     lambda k: math.log((k + 2) / (k + 1)) / math.log(6)),
    (lambda t: tf.random.fixed_unigram_candidate_sampler(t, 1, 4000, False, 5, unigrams=[1, 2, 3, 4, 5], seed=3),
     lambda k: (k + 1) / 15),
])
def test_sampled_classes_follow_the_distribution(sampler, probability):
    sampled = sampler(tf.constant([[0]], tf.int64)).sampled_candidates.numpy()
    frequencies = np.bincount(sampled, minlength=5) / len(sampled)
    expected = np.array([probability(k) for k in range(5)])
    assert np.all(np.abs(frequencies - expected) < 5 * np.sqrt(expected * (1 - expected) / len(sampled)) + 1e-3)


def test_unique_samples_are_distinct_and_counts_follow_their_tries():
    result = tf.random.log_uniform_candidate_sampler(tf.constant([[0, 3]], tf.int64), 2, 6, True, 12, seed=4)
    sampled = result.sampled_candidates.numpy()
    assert len(set(sampled.tolist())) == 6
    p = np.log((sampled + 2.0) / (sampled + 1.0)) / np.log(13.0)
    tries = np.log1p(-result.sampled_expected_count.numpy()) / np.log1p(-p)  # 1 - (1 - p) ** tries
    assert np.allclose(tries, np.round(tries[0]), atol=1e-3) and round(tries[0]) >= 6


def test_a_seed_repeats_the_samples_of_a_fresh_program():
    first = tf.random.uniform_candidate_sampler(tf.constant([[1]], tf.int64), 1, 5, True, 50, seed=9)
    assert first.sampled_candidates.shape == (5,) and first.sampled_candidates.dtype == tf.int64


def test_unimplemented_arguments_are_refused_by_name():
    with pytest.raises(NotImplementedError, match="vocab_file"):
        tf.random.fixed_unigram_candidate_sampler(tf.constant([[1]], tf.int64), 1, 2, False, 4, vocab_file="v.txt")
    for name in ("fractional_max_pool", "fractional_avg_pool"):
        with pytest.raises(NotImplementedError, match=name):
            getattr(tf.nn, name)(tf.zeros([1, 4, 4, 1]), [1.0, 1.5, 1.5, 1.0])


def test_dilated_depthwise_backprops_are_refused():
    """TF 2.21's CPU kernels silently ignore `dilations` here (they return the undilated result): refused."""
    with pytest.raises(NotImplementedError, match="dilations"):
        tf.nn.depthwise_conv2d_backprop_input([1, 4, 4, 2], tf.zeros([2, 2, 2, 1]), tf.zeros([1, 4, 4, 2]),
                                              [1, 1, 1, 1], "SAME", dilations=[1, 2, 2, 1])
