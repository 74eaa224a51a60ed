"""Shared fixtures: every test gets a fresh process Context with an explicit environment."""

import logging
import os

import pytest

from placeflow.config.context import reset_context
from placeflow.config.cuda_probe import probe_cuda
from placeflow.api.random import set_seed
from placeflow.placement.cost_model import forget_measurements
from placeflow.data import pipeline as data_pipeline
from placeflow.runtime import op_times

NO_CUDA = {"PLACEFLOW_DISABLE_CUDA": "1"}


@pytest.fixture(autouse=True)
def _fresh_context():
    reset_context(dict(NO_CUDA))
    set_seed(None)  # the global seed is process state too: a test never sees another test's seed
    forget_measurements()   # measured op times (the cost-model placer's, and recorded ones) are process state too
    op_times.reset()
    logger = logging.getLogger("placeflow")
    saved = logger.level, list(logger.handlers), logger.propagate, list(logger.filters), logger.disabled
    yield
    reset_context(dict(NO_CUDA))
    data_pipeline.disable_debug()   # tf.data's debug mode is process state too
    logger.level, logger.handlers[:], logger.propagate, logger.filters[:], logger.disabled = saved  # any order


@pytest.fixture
def make_context():
    """make_context(PLACEFLOW_SIMULATED_GPUS='2', ...) -> a fresh Context over exactly that environment."""
    def make(**env):
        return reset_context({**NO_CUDA, **{k: str(v) for k, v in env.items()}})
    return make


def pytest_collection_modifyitems(config, items):
    probe = probe_cuda(os.environ)
    if probe.gpus:
        return
    skip = pytest.mark.skip(reason=f"needs a CUDA GPU: {probe.reason}")
    for item in items:
        if "cuda" in item.keywords:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter):
    """Print the pass rate of Keras's own test subset when it ran (tests/keras3/test_keras_suite.py)."""
    import sys
    module = sys.modules.get("tests.keras3.test_keras_suite")
    for report in getattr(module, "REPORTS", []):
        terminalreporter.write_sep("=", "Keras's own tests on placeflow")
        terminalreporter.write_line(report)
    for report in getattr(sys.modules.get("tests.api.test_api_coverage"), "REPORTS", []):
        terminalreporter.write_sep("=", "TensorFlow's public API in placeflow")
        terminalreporter.write_line(report)
