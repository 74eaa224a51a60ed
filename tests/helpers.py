"""Run Python snippets in a fresh interpreter with a chosen environment (config freezes per process)."""

import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")
ENV_VARS = ("PLACEFLOW_SIMULATED_GPUS", "PLACEFLOW_DISABLE_CUDA", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
            "TF_FORCE_GPU_ALLOW_GROWTH")


def run_python(code: str, env: dict | None = None, args=()) -> subprocess.CompletedProcess:
    """Run `code` (or `-m` args when code is '') with src/ on the path; return the finished process."""
    environ = {k: v for k, v in os.environ.items() if k not in ENV_VARS}
    environ["PLACEFLOW_DISABLE_CUDA"] = "1"
    environ.update(env or {})
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [SRC, environ.get("PYTHONPATH")]))
    command = [sys.executable, *args] if not code else [sys.executable, "-c", textwrap.dedent(code)]
    return subprocess.run(command, env=environ, capture_output=True, text=True, timeout=120)


EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run_example(name: str, gpus: str = "4") -> tuple:
    """Run examples/<name> with that many simulated GPUs; return (stdout, stderr lines), asserting success."""
    out = run_python((EXAMPLES / name).read_text(), {"PLACEFLOW_SIMULATED_GPUS": gpus})
    assert out.returncode == 0, out.stderr
    return out.stdout, out.stderr.splitlines()


def same_as_recorded(ours, theirs, where="result", tol=1e-5):
    """Assert a case's JSON result equals TF's recording: floats within `tol` (relative or absolute, or a
    recorded dict's own "tol"), errors by class, everything else exactly."""
    if isinstance(theirs, float) and not isinstance(ours, str):
        assert isinstance(ours, (int, float)) and math.isclose(ours, theirs, rel_tol=tol, abs_tol=tol), \
            f"{where}: {ours} != {theirs}"
    elif isinstance(theirs, list) and len(theirs) == 2 and isinstance(theirs[0], str) and theirs[0].endswith(
            ("Error", "Exception")):
        assert isinstance(ours, list) and ours[0] == theirs[0], f"{where}: raised {ours}, TensorFlow {theirs}"
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{where}: {ours} != {theirs}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            same_as_recorded(a, b, f"{where}[{i}]", tol)
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(ours) == sorted(theirs), f"{where}: {ours} != {theirs}"
        for key in theirs:
            same_as_recorded(ours[key], theirs[key], f"{where}.{key}", theirs.get("tol", tol))
    else:
        assert ours == theirs, f"{where}: {ours} != {theirs}"


def error(fn):
    """[error class, first line of the message] of what `fn` raises (None when it returns)."""
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the class is the recorded result
        return [type(exc).__name__, str(exc).splitlines()[0] if str(exc) else ""]
    return None
