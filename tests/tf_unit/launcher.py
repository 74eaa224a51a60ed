"""Child-process entry: make `tensorflow` the target, install the shim, run pytest on the given files.

    python launcher.py (placeflow|tensorflow) <pytest arguments...>

With `placeflow`, `import tensorflow` means placeflow (placeflow.tools.as_tensorflow); with `tensorflow`, the
real TensorFlow of the running interpreter. $PLACEFLOW_TF_UNIT_DEPS (test-only packages: scipy, six,
pytest-timeout) goes at the end of sys.path so the interpreter's own packages win.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pathlib
import sys


def main(argv) -> int:
    """Run pytest in this process against the target named by argv[0]."""
    target, pytest_args = argv[0], argv[1:]
    here = pathlib.Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    deps = os.environ.get("PLACEFLOW_TF_UNIT_DEPS")
    if deps:
        sys.path.append(deps)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    if target == "placeflow":
        from placeflow.tools import as_tensorflow
        as_tensorflow.install()
    elif target != "tensorflow":
        raise SystemExit(f"launcher: target must be 'placeflow' or 'tensorflow', got {target!r}")
    importlib.import_module("tensorflow")  # the target, imported before any test file
    import tfshim
    tfshim.install()
    import pytest
    timeout = []  # per-test deadlines when pytest-timeout is there (it loads as an entry point)
    if importlib.util.find_spec("pytest_timeout") is not None:
        timeout = [f"--timeout={os.environ.get('PLACEFLOW_TF_UNIT_TEST_TIMEOUT', '120')}"]
    return pytest.main(["-p", "tf_unit_plugin", "-p", "no:cacheprovider", *timeout, *pytest_args])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
