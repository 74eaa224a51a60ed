"""placeflow computes what TensorFlow 2.21 computed for each program in programs.py (tf_2_21.json)."""

import json
import pathlib
import types

import pytest

import placeflow as tf

from . import programs
from .harness import cases, outcome

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["results"]
ENV = types.SimpleNamespace(devices=["/gpu:0", "/gpu:1"])


def test_every_case_was_recorded():
    assert sorted(cases(programs)) == sorted(RECORDED)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_case_matches_tensorflow(name, make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    got = outcome(cases(programs)[name], tf, ENV)
    assert got == _approx(RECORDED[name]), f"{name}: placeflow {got}, TensorFlow {RECORDED[name]}"


def _approx(value):
    if isinstance(value, dict):
        return {k: _approx(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_approx(v) for v in value]
    if isinstance(value, float):
        return pytest.approx(value, abs=2e-5)
    return value
