"""tf.experimental.numpy against TensorFlow 2.21: every case in cases.py, run with placeflow, must give what
TensorFlow gave (tf_2_21.json, written by record_tf_tnp.py). Integers, bools, strings, dtypes and shapes must
match exactly; floats within 1e-6 relative or 2e-5 absolute; an error must be of the same class.

As the recording does, the cases run with experimental_enable_numpy_behavior() in effect; the module fixture
undoes it afterwards (placeflow's private _disable_numpy_behavior), so other tests see plain tensors."""

import json
import math
import re
import pathlib

import pytest

import placeflow as tf
from placeflow.api.tnp.behavior import _disable_numpy_behavior

from tests.traced_api import expected, run_case, traced, traced_names

from . import cases

RECORDING = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())
RESULTS = RECORDING["results"]
CASES = cases.all_cases()


@pytest.fixture(scope="module", autouse=True)
def numpy_behavior():
    tf.experimental.numpy.experimental_enable_numpy_behavior()
    yield
    _disable_numpy_behavior()


def _is_error(value):
    return isinstance(value, list) and len(value) >= 2 and value[0] in ("error", "case raised")


def _same(got, want, path="result"):
    if _is_error(want) or _is_error(got):
        assert _is_error(got) and _is_error(want) and got[1] == want[1], f"{path}: got {got!r}, TensorFlow {want!r}"
        return
    if isinstance(want, float) or isinstance(got, float):
        assert isinstance(got, (int, float)) and not isinstance(got, bool) and isinstance(want, (int, float)), \
            f"{path}: got {got!r}, TensorFlow {want!r}"
        if math.isnan(want):
            assert math.isnan(got), f"{path}: got {got!r}, TensorFlow NaN"
        elif math.isinf(want):
            assert got == want, f"{path}: got {got!r}, TensorFlow {want!r}"
        else:
            assert abs(got - want) <= max(2e-5, 1e-6 * abs(want)), f"{path}: got {got!r}, TensorFlow {want!r}"
        return
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), f"{path}: got {got!r}, TensorFlow {want!r}"
        for key in want:
            _same(got[key], want[key], f"{path}.{key}")
        return
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: got {got!r}, TensorFlow {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{path}[{i}]")
        return
    assert type(got) is type(want) and got == want, f"{path}: got {got!r}, TensorFlow {want!r}"


def test_every_case_was_recorded():
    assert RECORDING["tensorflow"] == "2.21.0"
    assert sorted(CASES) == sorted(RESULTS), "re-run tests/tnp/record_tf_tnp.py with TensorFlow 2.21"


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(name):
    if name not in RESULTS:
        pytest.fail(f"case {name} is not recorded; re-run tests/tnp/record_tf_tnp.py")
    try:
        got = json.loads(json.dumps(CASES[name](tf)))
    except Exception as error:  # noqa: BLE001 - compared with the recording
        got = ["case raised", type(error).__name__, str(error)]
    _same(got, RESULTS[name])


TRACED = json.loads(pathlib.Path(__file__).with_name("tf_2_21_traced.json").read_text())


def test_every_case_was_recorded_in_a_function():
    assert TRACED["tensorflow"] == "2.21.0" and TRACED["excluded"] == cases.TRACED_EXCLUDED
    assert sorted(TRACED["cases"]) == traced_names(CASES, cases.TRACED_EXCLUDED)


@pytest.mark.parametrize("name", traced_names(CASES, cases.TRACED_EXCLUDED))
def test_case_in_a_function(name):
    """The case with every tf function run inside tf.function (tests/traced_api.py), against TF's run of it."""
    _same(run_case(CASES[name], traced(tf), "case raised"), expected(TRACED["cases"], name, cases.TRACED_DIVERGENT),
          name)


def test_every_implemented_name_is_covered():
    source = pathlib.Path(cases.__file__).read_text()
    listed = [line.split()[0][len("tf.experimental.numpy."):] for line in
              pathlib.Path(tf.__file__).with_name("framework").joinpath("tf_api_names.txt").read_text().splitlines()
              if line.startswith("tf.experimental.numpy.")]
    tnp = tf.experimental.numpy
    from placeflow.framework.tf_api import is_refusal
    implemented = []
    for name in listed:
        value = tnp
        for part in name.split("."):
            value = getattr(value, part)
        if not is_refusal(value) and not isinstance(value, type(tnp)):
            implemented.append(name)
    uncovered = [n for n in implemented if not re.search(rf"\.{re.escape(n)}\b", source)
                 and f'"{n}"' not in source]
    assert uncovered == [], f"implemented names without a case: {uncovered}"


def test_traced_cases_cover_at_least_40_names():
    assert len(cases.TRACED) >= 40


def test_import_stays_light():
    import subprocess
    import sys
    code = "import sys, placeflow; print(sorted(m for m in sys.modules if m.split('.')[0] in " \
           "('tensorflow', 'scipy', 'cupy', 'torch', 'jax')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=pathlib.Path(tf.__file__).parents[1])
    assert out.stdout.strip() == "[]"
