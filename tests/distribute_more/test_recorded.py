"""placeflow's tf.distribute additions equal TensorFlow 2.21's recorded results (cases.py,
record_tf_distribute_more.py): floats within 1e-5, everything else exactly, errors by class."""

import json
import math
import pathlib

import pytest

import placeflow as tf
from tests.distribute_more import cases
from tests.traced_api import expected, run_case, traced, traced_names

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["cases"]
CASES = {name[len("case_"):]: fn for name, fn in vars(cases).items() if name.startswith("case_")}
TRACED_EXCLUDED, TRACED_DIVERGENT = cases.TRACED_EXCLUDED, cases.TRACED_DIVERGENT


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
            _same(ours[key], theirs[key], f"{where}.{key}", tol)
    else:
        assert ours == theirs, f"{where}: {ours} != {theirs}"


def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(make_context, name):
    make_context()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)


TRACED = json.loads(pathlib.Path(__file__).with_name("tf_2_21_traced.json").read_text())


def test_every_case_was_recorded_in_a_function():
    assert TRACED["tensorflow"] == "2.21.0" and TRACED["excluded"] == TRACED_EXCLUDED
    assert sorted(TRACED["cases"]) == traced_names(CASES, TRACED_EXCLUDED)


@pytest.mark.parametrize("name", traced_names(CASES, TRACED_EXCLUDED))
def test_case_in_a_function_equals_tensorflow(make_context, name):
    """The case with every tf function run inside tf.function (tests/traced_api.py), against TF's run of it."""
    make_context()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    _same(run_case(CASES[name], traced(tf)), expected(TRACED["cases"], name, TRACED_DIVERGENT), name)
