"""pytest plugin for the child process: one JSON line per test in $PLACEFLOW_TF_UNIT_REPORT.

Each line holds the test id, its outcome (passed, failed, error, skipped, out_of_scope) and, when it did not
pass, the exception class and the first line of its message (or the skip reason). A test that raised the
shim's OutOfScope, reached for a private attribute (`obj._name`: TF internals) or for an internal module by
its dotted path (`mock.patch("tensorflow.python...")`), or was skipped with an "out of scope: " reason, counts
as out_of_scope.
"""

from __future__ import annotations

import json
import os
import re

import pytest

_OUT_PREFIX = "out of scope: "


def _chain(error):
    seen = []
    while error is not None and error not in seen:
        seen.append(error)
        error = error.__cause__ or error.__context__
    return seen


def _internal_module(error):
    """The internal module (tensorflow.python.X) an error says was missing when a test reached it by its dotted
    path, not through an import the harness rewrites (unittest.mock.patch("tensorflow.python....") does); or None."""
    if isinstance(error, ModuleNotFoundError) and (error.name or "").startswith("tensorflow.python"):
        return error.name
    found = re.search(r"module '(?:placeflow|tensorflow)(\.python(?:\.\w+)*)' has no attribute '(\w+)'", str(error))
    if isinstance(error, AttributeError) and found:
        return f"tensorflow{found.group(1)}.{found.group(2)}"
    return None


def _describe(excinfo):
    """(outcome, exception class name, message) for an exception a test raised."""
    chain = _chain(excinfo.value)
    for error in chain:
        if type(error).__name__ == "OutOfScope":
            return "out_of_scope", "OutOfScope", str(error)
    for error in chain:
        if type(error).__name__ == "MissingPublicName":
            return "failed", "MissingPublicName", str(error)
    for error in chain:
        internal = _internal_module(error)
        if internal:
            return "out_of_scope", "OutOfScope", f"a TensorFlow internal module reached by its path ({internal})"
    error = chain[0]
    private = re.search(r"has no attribute '(_[A-Za-z]\w*)'", str(error)) if isinstance(error, AttributeError) else None
    if private:
        return "out_of_scope", "OutOfScope", f"a private attribute of a TensorFlow object ({private.group(1)})"
    return "failed", type(error).__name__, str(error)


def _write(record):
    path = os.environ.get("PLACEFLOW_TF_UNIT_REPORT")
    if path:
        with open(path, "a", encoding="utf-8") as report:
            report.write(json.dumps(record) + "\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Record the call phase's outcome, or the setup phase's when setup did not pass."""
    outcome = yield
    report = outcome.get_result()
    if call.when == "call" or (call.when == "setup" and report.outcome != "passed"):
        record = {"nodeid": item.nodeid, "outcome": report.outcome, "type": "", "message": ""}
        if report.skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            reason = reason.removeprefix("Skipped: ")
            record.update(outcome="out_of_scope" if reason.startswith(_OUT_PREFIX) else "skipped",
                          message=reason.removeprefix(_OUT_PREFIX))
        elif report.failed and call.excinfo is not None:
            kind, name, message = _describe(call.excinfo)
            if call.when == "setup" and kind == "failed":
                kind = "error"
            record.update(outcome=kind, type=name, message=message.strip().splitlines()[0][:300] if message else "")
        _write(record)


def pytest_collectreport(report):
    """A test file that cannot be imported counts as one error."""
    if report.failed:
        text = str(report.longrepr).strip().splitlines()
        last = next((line for line in reversed(text) if line.startswith("E ")), text[-1] if text else "")
        _write({"nodeid": report.nodeid, "outcome": "error", "type": "collection", "message": last[:300]})
