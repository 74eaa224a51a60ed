"""tf.math.special, igamma, igammac and betainc against TensorFlow 2.21's recorded results (tf_2_21.json, written
by record_tf_special.py from cases.py).

Tolerances, |placeflow - TF| <= atol + rtol |TF|, with NaN, inf and their signs matching exactly:
  float64: rtol 1e-12, atol 1e-14 (the oscillating functions are accurate to about 1e-16 absolutely near their zeros,
           in TF as here), atol 1e-13 for igamma, igammac and betainc (TF's 1 - P and lgamma round-offs), atol 1e-12
           for the Fresnel integrals (both round pi x^2 / 2: about 1e-16 x absolutely);
  float64 gradients: rtol 1e-10, atol 1e-13;
  float32: against TF's float64 values at the same (float32) inputs, rounded to float32: rtol 1e-6, atol 1e-7
           (absolute near zeros of oscillating functions), values below 1.2e-38 (TF flushes them) equal to zero;
           TF's float32 kernels compute in float32 and lose digits (to 4e-6 at |x| = 20, more beyond, and in igamma and
           betainc), so against them only NaN and inf must match exactly and values within rtol 1e-4, atol 1e-5;
  float16: rtol 2e-3, atol 1e-3.
"""

import json
import math
import pathlib
import re

import numpy as np
import pytest

import placeflow as tf

from tests.traced_api import expected, run_case, traced, traced_names

from . import cases

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())


def _tolerance(case: str, dtype: str):
    if dtype == "float64":
        if "gradient" in case:
            return 1e-10, 1e-13
        if re.match(r"(igamma|betainc)", case):
            return 1e-12, 1e-13
        if case.startswith("fresnel"):
            return 1e-12, 1e-12     # both round pi x^2 / 2 in float64: about 1e-16 x absolutely (x up to 1e4 here)
        return 1e-12, 1e-14
    if dtype == "float32":
        return 1e-6, 1e-7
    return 2e-3, 1e-3


def _message(text: str) -> str:
    """The message without TF's decorations of where the op is: eager `{{function_node ...}}` and `[Op:...]`, and
    in a graph the node description (its input names are TF's graph's own) after ` for '{{node `."""
    text = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", text)
    text = re.sub(r" for '\{\{node .*$", "", text)
    return re.sub(r"\s*\[Op:.*$", "", text).strip()


def _compare_values(case, mine, ref, dtype=None, rtol=None, atol=None, where=None):
    assert mine["shape"] == ref["shape"], (case, mine["shape"], ref["shape"])
    if dtype is None:
        assert mine["dtype"] == ref["dtype"], (case, mine["dtype"], ref["dtype"])
    dtype = dtype or ref["dtype"]
    if rtol is None:
        rtol, atol = _tolerance(case, dtype)
    got, want = np.array(mine["values"], np.float64), np.array(ref["values"], np.float64)
    if dtype == "float32":
        want = want.astype(np.float32).astype(np.float64)
    if where is not None:
        got, want = got[where], want[where]
    assert np.array_equal(np.isnan(got), np.isnan(want)), (case, got[np.isnan(got) != np.isnan(want)],
                                                          want[np.isnan(got) != np.isnan(want)])
    infinite = np.isinf(want) | np.isinf(got)
    assert np.array_equal(got[infinite], want[infinite]), (case, got[infinite], want[infinite])
    finite = np.isfinite(want)
    floor = 1.2e-38 if dtype == "float32" else 0.0
    error = np.abs(got[finite] - want[finite]) - (atol + rtol * np.abs(want[finite]))
    bad = (error > 0) & ~((np.abs(want[finite]) < floor) & (np.abs(got[finite]) < floor))
    assert not bad.any(), (case, np.flatnonzero(finite)[bad][:5], got[finite][bad][:5], want[finite][bad][:5])


def _compare_float32(case, mine, ref):
    """placeflow's float32 against TF's float64 values rounded (where TF's float32 kernel gives a finite value),
    and against TF's float32 kernel: NaN and inf exactly, values within rtol 1e-4, atol 1e-5."""
    assert mine["dtype"] == ref["float32"]["dtype"] == "float32"
    _compare_values(case, mine, ref["float32"], rtol=1e-4, atol=1e-5)
    tf32 = np.array(ref["float32"]["values"])
    _compare_values(case, mine, ref["float64"], dtype="float32", where=np.isfinite(tf32))


def _compare(case, mine, ref):
    if isinstance(ref, dict) and "float32" in ref:          # TF's float32 kernel vs placeflow's: see the docstring
        _compare_float32(case, mine["float32"], ref)
        _compare_values(case, mine["float64"], ref["float64"])
    elif isinstance(ref, dict):
        _compare_values(case, mine, ref)
    elif isinstance(ref, list) and len(ref) == 2 and isinstance(ref[0], str) and ref[0].endswith("Error"):
        assert isinstance(mine, list) and mine[0] == ref[0], (case, mine, ref)
        if ref[0] != "NotFoundError":                       # placeflow prints T=bfloat16 where TF prints DT_BFLOAT16
            assert _message(mine[1]) == _message(ref[1]), (case, mine, ref)
    elif isinstance(ref, list):
        assert isinstance(mine, list) and len(mine) == len(ref), (case, mine, ref)
        for index, (m, r) in enumerate(zip(mine, ref)):
            _compare(f"{case}[{index}]", m, r)
    else:
        assert mine == ref, (case, mine, ref)


def test_every_case_was_recorded_from_tensorflow_2_21():
    assert RECORDED["tensorflow"] == "2.21.0"
    assert sorted(RECORDED["cases"]) == cases.CASES


@pytest.mark.parametrize("case", cases.CASES)
def test_case_matches_tensorflow(case):
    _compare(case, getattr(cases, f"case_{case}")(tf), RECORDED["cases"][case])


TRACED = json.loads(pathlib.Path(__file__).with_name("tf_2_21_traced.json").read_text())


def test_every_case_was_recorded_in_a_function():
    assert TRACED["tensorflow"] == "2.21.0" and TRACED["excluded"] == cases.TRACED_EXCLUDED
    assert sorted(TRACED["cases"]) == traced_names(cases.CASES, cases.TRACED_EXCLUDED)


@pytest.mark.parametrize("case", traced_names(cases.CASES, cases.TRACED_EXCLUDED))
def test_case_in_a_function_matches_tensorflow(case):
    """The case with every tf function run inside tf.function (tests/traced_api.py), against TF's run of it."""
    _compare(case, run_case(getattr(cases, f"case_{case}"), traced(tf)),
             expected(TRACED["cases"], case, cases.TRACED_DIVERGENT))


def test_public_functions_have_docstrings():
    from placeflow.api import special_more
    names = list(cases.UNARY) + ["igamma", "igammac", "betainc"]
    for name in names:
        fn = getattr(tf.math.special, name, None) or getattr(tf.math, name)
        assert fn.__doc__ and fn.__doc__.strip(), name
    assert all(getattr(special_more, n).__doc__ for n in dir(special_more) if not n.startswith("_")
               and callable(getattr(special_more, n)) and getattr(special_more, n).__module__ == special_more.__name__)


def test_large_inputs_are_vectorized():
    x = tf.constant(np.geomspace(1e-3, 1e3, 20000), tf.float64)
    for name in cases.UNARY:
        assert np.isfinite(getattr(tf.math.special, name)(x).numpy()).sum() > 0, name
    a = tf.constant(np.geomspace(0.01, 100.0, 20000), tf.float64)
    assert math.isclose(float(tf.reduce_sum(tf.math.igamma(a, a) + tf.math.igammac(a, a))), 20000.0, rel_tol=1e-12)
