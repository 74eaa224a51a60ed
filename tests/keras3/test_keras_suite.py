"""Keras's own tests (a subset, from the installed Keras's source distribution) run on placeflow; the pass rate
is printed at the end of the pytest run and must not fall below FLOOR.

FLOOR is the issue's goal (95%; measured 95.4% when it was set). The failures are TensorFlow APIs placeflow
lacks (RaggedTensor, SavedModel export, tf.io, CTC, ...) and Keras test files that need packages the suite does
not install (scipy, orbax, grain, jax)."""

import pytest

from tests.keras3 import keras_suite

FLOOR = 0.95
REPORTS: list = []  # read by tests/conftest.py's terminal summary


def test_keras_own_tests_pass_on_placeflow():
    version = keras_suite.keras_version()
    try:
        tree = keras_suite.source_tree(version)
    except RuntimeError as error:
        pytest.skip(f"Keras's test subset needs keras=={version}'s source distribution from the package "
                    f"registry: {error}")
    totals = keras_suite.run_subset(tree)
    REPORTS.append(f"Keras {version}'s own tests on placeflow (subset: {', '.join(keras_suite.SUBSET)}):\n"
                   + keras_suite.table(totals))
    assert totals["passed"] > 1000, keras_suite.table(totals)  # the subset ran
    assert keras_suite.pass_rate(totals) >= FLOOR, keras_suite.table(totals)
