"""Run a subset of Keras's own test files (from the installed Keras's source distribution) on placeflow.

The source distribution is downloaded at test time from the package registry into a cache outside the
repository (never copied into it). Keras's tests run in a child pytest with KERAS_BACKEND=tensorflow and
`tensorflow` meaning placeflow (keras_suite_plugin.py, which also records each test's outcome)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tarfile
import tempfile

SUBSET = ("layers/core", "layers/convolutional", "layers/rnn", "layers/normalization", "layers/merging",
          "layers/preprocessing", "layers/attention", "losses", "metrics", "optimizers", "trainers", "callbacks",
          "saving")


def keras_version() -> str:
    """The installed Keras's version (from its metadata: Keras itself is not imported)."""
    from importlib.metadata import version
    return version("keras")


def source_tree(version: str) -> pathlib.Path:
    """keras-<version>/ unpacked from the sdist (downloaded once into the temp folder); RuntimeError if it
    cannot be fetched."""
    cache = pathlib.Path(tempfile.gettempdir()) / f"placeflow-keras-sdist-{version}"
    tree = cache / f"keras-{version}"
    if (tree / "keras" / "src").is_dir():
        return tree
    cache.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                           f"keras=={version}", "-d", str(cache)], capture_output=True, text=True, timeout=300)
    archive = cache / f"keras-{version}.tar.gz"
    if done.returncode != 0 or not archive.exists():
        raise RuntimeError(f"could not fetch keras=={version}'s source distribution: {done.stderr[-500:]}")
    with tarfile.open(archive) as tar:
        tar.extractall(cache, filter="data")
    return tree


def run_subset(tree: pathlib.Path, subset=SUBSET, timeout: float = 1500) -> dict:
    """The outcomes of Keras's tests under `subset` (see count_outcomes)."""
    here = pathlib.Path(__file__).parent
    report = pathlib.Path(tempfile.mkdtemp(prefix="placeflow-keras-suite-")) / "outcomes.txt"
    python_path = [str(here), str(here.parents[1] / "src")] + [p for p in [os.environ.get("PYTHONPATH")] if p]
    env = dict(os.environ, KERAS_BACKEND="tensorflow", PYTHONPATH=os.pathsep.join(python_path),
               PLACEFLOW_KERAS_SUITE_REPORT=str(report))
    env.pop("PYTEST_ADDOPTS", None)
    paths = [str(tree / "keras" / "src" / area) for area in subset]
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "keras_suite_plugin", "-p", "no:cacheprovider",
                    "--import-mode=importlib", "--continue-on-collection-errors", *paths],
                   cwd=str(tree), env=env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    lines = report.read_text().splitlines() if report.exists() else []
    return count_outcomes(lines, subset)


def count_outcomes(lines, subset=SUBSET) -> dict:
    """{'passed', 'failed', 'errors', 'skipped', 'by_area': {area: [passed, not passed]}} from the plugin's
    `<nodeid> <outcome>` lines (a test file that cannot be imported counts as one error)."""
    totals = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0, "by_area": {a: [0, 0] for a in subset}}
    for line in lines:
        nodeid, _, outcome = line.rpartition(" ")
        key = {"passed": "passed", "failed": "failed", "error": "errors", "skipped": "skipped"}.get(outcome)
        if key is None:
            continue
        totals[key] += 1
        area = next((a for a in subset if f"keras/src/{a}/" in nodeid.replace(os.sep, "/")), None)
        if area is not None and key != "skipped":
            totals["by_area"][area][0 if key == "passed" else 1] += 1
    return totals


def pass_rate(totals: dict) -> float:
    """Passed over passed + failed + errors (skips excluded)."""
    ran = totals["passed"] + totals["failed"] + totals["errors"]
    return totals["passed"] / ran if ran else 0.0


def table(totals: dict) -> str:
    """The per-area pass rates as a text table."""
    rows = [f"{'area':24s} {'passed':>7s} {'of':>6s} {'rate':>7s}"]
    for area, (good, bad) in totals["by_area"].items():
        rows.append(f"{area:24s} {good:7d} {good + bad:6d} {good / max(1, good + bad):7.1%}")
    rows.append(f"{'all':24s} {totals['passed']:7d} {totals['passed'] + totals['failed'] + totals['errors']:6d} "
                f"{pass_rate(totals):7.1%}   ({totals['skipped']} skipped by Keras)")
    return "\n".join(rows)
