"""pytest plugin for Keras's own tests on placeflow: `tensorflow` means placeflow before Keras is imported, and
every test's outcome is appended to $PLACEFLOW_KERAS_SUITE_REPORT as `<nodeid> <outcome>`."""

import os

os.environ["KERAS_BACKEND"] = "tensorflow"

from placeflow.tools import as_tensorflow  # noqa: E402

as_tensorflow.install()


def _conftest_shim():
    """The `conftest` module some Keras test files import helpers from (the source distribution ships no
    conftest.py): skip_if_backend, as its tests use it."""
    import sys
    import types

    import pytest

    def skip_if_backend(given_backend, reason):
        return pytest.mark.skipif(os.environ["KERAS_BACKEND"] == given_backend, reason=reason)

    module = types.ModuleType("conftest", "Helpers Keras's test files import from its repository's conftest.py.")
    module.skip_if_backend = skip_if_backend
    sys.modules.setdefault("conftest", module)


_conftest_shim()


def _record(nodeid, outcome):
    path = os.environ.get("PLACEFLOW_KERAS_SUITE_REPORT")
    if path:
        with open(path, "a", encoding="utf-8") as report:
            report.write(f"{nodeid} {outcome}\n")


def pytest_runtest_logreport(report):
    """One line per test: its call's outcome, or its setup's when setup failed or skipped."""
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        outcome = "error" if report.when == "setup" and report.failed else report.outcome
        _record(report.nodeid, outcome)


def pytest_collectreport(report):
    """A test file that cannot be collected (e.g. it needs a package placeflow's tests do not install)."""
    if report.failed:
        _record(report.nodeid, "error")
