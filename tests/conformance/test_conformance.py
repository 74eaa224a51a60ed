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

# Where placeflow departs from TensorFlow on purpose (docs/divergences.md): TF's recorded outcome, and ours.
DIVERGENCES = {
    "error_constant_int32_overflow": ({"value": 0}, {"raises": "TypeError"}),      # TF wraps 2**40 to 0
    "error_constant_uint8_negative": ({"value": 255}, {"raises": "TypeError"}),    # TF wraps -1 to 255
    "cond_branch_structures_must_match": ({"raises": "AssertionError"}, {"raises": "ValueError"}),  # TF: an assert
    # TF's graph optimizer rewrites int Pow(x, -1) into a Reciprocal it has no int kernel for; eagerly TF says
    # "Integers to negative integer powers are not allowed" (InvalidArgumentError), as placeflow does in both
    "semantics_int_pow_negative_exponent_traced": ({"raises": "NotFoundError"}, {"raises": "InvalidArgumentError"}),
}


def test_every_case_was_recorded():
    assert sorted(cases(programs)) == sorted(RECORDED)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_case_matches_tensorflow(name, make_context):
    count = getattr(cases(programs)[name], "replicas", 2)
    make_context(PLACEFLOW_SIMULATED_GPUS=str(count))
    env = ENV if count == 2 else types.SimpleNamespace(devices=[f"/gpu:{i}" for i in range(count)])
    got = outcome(cases(programs)[name], tf, env)
    if name in DIVERGENCES:
        tensorflow, ours = DIVERGENCES[name]
        assert RECORDED[name] == tensorflow, f"{name}: TensorFlow now gives {RECORDED[name]}; update the divergence"
        assert got == ours, f"{name}: placeflow {got}, documented {ours}"
        return
    assert got == _approx(RECORDED[name]), f"{name}: placeflow {got}, TensorFlow {RECORDED[name]}"


def _approx(value):
    if isinstance(value, dict):
        return {k: _approx(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_approx(v) for v in value]
    if isinstance(value, float):  # 2e-5 absolute, or a few float32 ulps of a large value (1e-6 relative)
        return pytest.approx(value, abs=2e-5, rel=1e-6, nan_ok=True)
    return value


def test_no_helper_of_the_programs_shadows_another():
    import collections
    import pathlib
    import re
    source = pathlib.Path(__file__).with_name("programs.py").read_text()
    counts = collections.Counter(re.findall(r"^def (\w+)\(", source, re.M))
    assert [name for name, count in counts.items() if count > 1] == []
    constants = collections.Counter(re.findall(r"^(_[A-Z][A-Z0-9_]*) = ", source, re.M))  # module-level data
    assert [name for name, count in constants.items() if count > 1] == [], "a later constant changes earlier cases"
