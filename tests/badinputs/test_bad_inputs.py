"""Bad inputs: for each call of calls.py, placeflow raises what TensorFlow 2.21 raises (an instance of the
class TF raised, so TF's `except` catches it), or returns what TF returns. Recorded in tf_2_21.json by
record_tf_bad_inputs.py; the departures are documented below and in docs/divergences.md."""

import builtins
import json
import pathlib

import numpy as np
import pytest

import placeflow as tf

from . import calls, runner

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["results"]

# Where placeflow departs from TensorFlow on purpose: the class placeflow raises, and why.
DIVERGENCES = {
    "squeeze_axis_float": ("TypeError", "TF reads the axis 0.5 as 0; placeflow refuses float axes everywhere"),
    "constant_overflow_int8": ("TypeError", "TF wraps 300 to 44 in int8; placeflow refuses values that do not fit"),
    "cholesky_not_pd": (None, "TF leaves the upper triangle of a failed factorization uninitialized; placeflow "
                              "returns NaN below the diagonal and zeros above"),
    "conv2d_filter_too_large_valid": ("InvalidArgumentError", "TF's CPU kernel returns an array of the input's "
                                                              "shape; placeflow refuses a window larger than the input"),
    "random_set_seed_string": ("ValueError", "TF accepts a string seed; placeflow refuses it"),
    "data_bucket_boundaries_unsorted": ("ValueError", "TF accepts unsorted boundaries; placeflow refuses them"),
}
# Where TF 2.21 fails inside its own code (an AttributeError, a Python assert), placeflow's error is an instance
# of TF's class too (so TF's `except` catches it) and of the class that names the problem.
ALSO = {"range_string": TypeError, "data_filter_vector": ValueError, "data_interleave_returns_tensor": TypeError,
        "data_flat_map_returns_tensor": TypeError, "data_options_bad": TypeError}
MESSAGE_FLOOR = 0.60  # the share of first lines equal to TF's (normalized by runner.first_line) when last raised (62.1%)


@pytest.fixture(scope="module")
def names():
    return runner.namespace(tf)


def test_every_call_was_recorded():
    assert sorted(calls.CALLS) == sorted(RECORDED)


def _tf_class(name):
    return getattr(builtins, name, None) or getattr(tf.errors, name)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_call_matches_tensorflow(name, names):
    recorded = RECORDED[name]
    error = runner.raised(calls.CALLS[name], names)
    if name in DIVERGENCES:
        ours, reason = DIVERGENCES[name]
        assert (type(error).__name__ if error is not None else None) == ours, (name, reason, error)
        return
    if "returns" in recorded:
        assert error is None, f"{name}: TensorFlow returns {recorded['returns']}; placeflow raised {error!r}"
        got = json.loads(json.dumps(runner.outcome(calls.CALLS[name], names)))["returns"]
        assert _same(got, recorded["returns"]), f"{name}: placeflow {got}, TensorFlow {recorded['returns']}"
        return
    assert error is not None, f"{name}: TensorFlow raises {recorded['raises']}: {recorded['message']}; placeflow " \
                              "returned a value"
    if name in ALSO:
        assert isinstance(error, ALSO[name]), (name, error)
    assert isinstance(error, _tf_class(recorded["raises"])), (
        f"{name}: TensorFlow raises {recorded['raises']}: {recorded['message']}\nplaceflow raised "
        f"{type(error).__name__}: {error}")


def _same(got, want):
    if isinstance(want, dict) and isinstance(got, dict):
        return got.keys() == want.keys() and all(_same(got[k], want[k]) for k in want)
    if isinstance(want, list) and isinstance(got, list):
        return len(got) == len(want) and all(_same(g, w) for g, w in zip(got, want))
    if isinstance(want, float) and isinstance(got, (int, float)):
        return bool(np.isclose(got, want, rtol=1e-6, atol=2e-5, equal_nan=True))
    return got == want


def test_messages_match_tensorflow_at_least_as_often_as_recorded(names):
    raising = [n for n, r in RECORDED.items() if "raises" in r and n not in DIVERGENCES]
    same = 0
    for name in raising:
        error = runner.raised(calls.CALLS[name], names)
        same += error is not None and runner.first_line(str(error)) == runner.first_line(RECORDED[name]["message"])
    share = same / len(raising)
    print(f"\nbad inputs: {same} of {len(raising)} first lines equal TensorFlow's ({share:.1%})")
    assert share >= MESSAGE_FLOOR
