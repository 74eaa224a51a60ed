"""placeflow's tf.nn additions equal TensorFlow 2.21's recorded results (cases.py, record_tf_io_queue_audio.py): floats
within 1e-5 (relative or absolute), everything else exactly; errors by class. The candidate samplers' draws are
not TensorFlow's (see ops/nn_sampling.py): their expected counts are compared with the recording, their samples
checked statistically here."""

import json
import pathlib

import pytest

import placeflow as tf
from tests.helpers import same_as_recorded as _same
from tests.io_queue_audio.cases import CASES, TRACED_DIVERGENT, TRACED_EXCLUDED
from tests.traced_api import traced_tests

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["cases"]




def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(name):
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)


test_every_case_was_recorded_in_a_function, test_case_in_a_function_equals_tensorflow = traced_tests(
    __file__, CASES, TRACED_EXCLUDED, TRACED_DIVERGENT, _same)
