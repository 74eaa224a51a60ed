"""placeflow's CTC loss and decoders equal TensorFlow 2.21's recorded results (cases.py, record_tf_ctc.py):
floats within 1e-5 (relative or absolute), everything else exactly; errors by class."""

import json
import pathlib

import pytest

import placeflow as tf
from tests.helpers import same_as_recorded as _same
from tests.ctc.cases import CASES, TRACED_DIVERGENT, TRACED_EXCLUDED
from tests.traced_api import traced_tests

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["cases"]




def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(name):
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)


test_every_case_was_recorded_in_a_function, test_case_in_a_function_equals_tensorflow = traced_tests(
    __file__, CASES, TRACED_EXCLUDED, TRACED_DIVERGENT, _same)


def test_unique_is_refused_by_name():
    with pytest.raises(NotImplementedError, match="unique"):
        tf.nn.ctc_loss([[1]], tf.zeros([2, 1, 3]), [1], [2], unique=([[1]], [[0]]))


def test_compat_v1_nn_keeps_the_rest_of_nn():
    assert tf.compat.v1.nn.relu is tf.nn.relu
    assert tf.compat.v1.nn.ctc_loss is not tf.nn.ctc_loss
