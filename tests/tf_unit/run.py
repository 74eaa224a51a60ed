"""Run TensorFlow's own unit tests (sources.SOURCES) on placeflow, and optionally on TensorFlow, and print tables.

    .venv/bin/python -m tests.tf_unit.run [--tf | --tf-only] [--area AREA ...] [--file NAME ...] [--record FILE]

Each test file runs in a child pytest (launcher.py) with a deadline per file and per test. `--tf` runs the
same files through the same shim on TensorFlow 2.21 from $PLACEFLOW_TF_PYTHON (default
/tmp/placeflow-tf-venv/bin/python), which gives the TF column and the gap (tests TF passes and placeflow does
not); later runs without --tf reuse the last TF results kept in the scratch folder. Not part of `make test`
(a full run takes ~4 minutes on placeflow, ~12 on TF); tests/tf_unit/RESULTS.md records the last tables.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

from tests.tf_unit import outcomes, sources

HERE = pathlib.Path(__file__).resolve().parent
DEPS = ("scipy", "six", "pytest-timeout")
_IMPORT = re.compile(r"^(\s*(?:from|import)\s+)tensorflow\.python\b", re.MULTILINE)
_CORE = re.compile(r"^(\s*(?:from|import)\s+)tensorflow\.core\b", re.MULTILINE)


def rewrite(text: str) -> str:
    """The test file with its `tensorflow.python` imports pointed at the shim (`tfshim`), and its
    `tensorflow.core` (protocol buffer) imports at `tfshim.core` (out of scope: see tfshim/table.py)."""
    return _CORE.sub(r"\1tfshim.core", _IMPORT.sub(r"\1tfshim", text))


def deps_dir() -> pathlib.Path | None:
    """A folder with the test-only packages TF's tests import (installed there once, outside every venv)."""
    folder = pathlib.Path(os.environ.get("PLACEFLOW_TF_UNIT_DEPS",
                                         pathlib.Path(tempfile.gettempdir()) / "placeflow-tf-unit-deps"))
    if (folder / "scipy").is_dir() and (folder / "six.py").exists():
        return folder
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", str(folder), *DEPS],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        print(f"tf_unit: could not install {', '.join(DEPS)} into {folder}: test files needing them will error\n"
              f"{done.stderr[-400:]}", file=sys.stderr)
        return None
    return folder


def prepare(selected, scratch: pathlib.Path) -> dict:
    """{file name: rewritten copy under scratch}; a file that cannot be fetched is reported and left out."""
    prepared = {}
    for source in selected:
        try:
            text = sources.fetch(source).read_text(encoding="utf-8")
        except RuntimeError as error:
            print(f"tf_unit: skipping {source.path}: {error}", file=sys.stderr)
            continue
        target = scratch / "files" / source.area / f"{source.name}.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(rewrite(text), encoding="utf-8")
        prepared[source.name] = target
    return prepared


def run_file(python: str, target: str, path: pathlib.Path, report: pathlib.Path, deps, timeout: float,
             src: pathlib.Path = HERE.parents[1] / "src") -> list:
    """The records of one test file run in a child pytest on `target` (one error record if it timed out),
    placeflow imported from `src`."""
    report.parent.mkdir(parents=True, exist_ok=True)
    report.unlink(missing_ok=True)
    env = dict(os.environ, PLACEFLOW_TF_UNIT_REPORT=str(report), PYTHONPATH=str(src))
    if deps:
        env["PLACEFLOW_TF_UNIT_DEPS"] = str(deps)
    env.pop("PYTEST_ADDOPTS", None)
    command = [python, str(HERE / "launcher.py"), target, "-q", "--import-mode=importlib",
               str(path)]
    try:
        subprocess.run(command, cwd=str(path.parent), env=env, capture_output=True, text=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
        timed_out = False
    except subprocess.TimeoutExpired:
        timed_out = True
    records = [json.loads(line) for line in report.read_text().splitlines()] if report.exists() else []
    if timed_out:
        records.append({"nodeid": f"{path.name}::<file>", "outcome": "error", "type": "Timeout",
                        "message": f"the file did not finish within {timeout:.0f} s"})
    for record in records:
        record["nodeid"] = record["nodeid"].split("/")[-1]
    return one_per_test(records)


_SEVERITY = {"error": 0, "failed": 1, "passed": 2, "out_of_scope": 3, "skipped": 4}


def one_per_test(records: list) -> list:
    """One record per test id: a test whose subtests report several outcomes takes the worst (an error, then a
    failure, ...), so the tables count tests, not subtests."""
    chosen = {}
    for record in records:
        kept = chosen.get(record["nodeid"])
        if kept is None or _SEVERITY.get(record["outcome"], 9) < _SEVERITY.get(kept["outcome"], 9):
            chosen[record["nodeid"]] = record
    return list(chosen.values())


def main(argv=None) -> int:
    """Run the selected files and print the tables; exit status 0 unless nothing could run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tf", action="store_true", help="also run the files on TensorFlow (the TF column)")
    parser.add_argument("--tf-only", action="store_true", help="run the files on TensorFlow only")
    parser.add_argument("--area", action="append", help="only these areas")
    parser.add_argument("--file", action="append", help="only these test files (base names)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per test file")
    parser.add_argument("--tf-from", help="take the TF column from this results.json instead of the last TF run "
                                          "kept in the scratch folder (valid while the shim and files are unchanged)")
    parser.add_argument("--record", help="also write the tables to this markdown file")
    parser.add_argument("--scratch", default=str(pathlib.Path(tempfile.gettempdir()) / "placeflow-tf-unit-run"))
    parser.add_argument("--placeflow-src", default=str(HERE.parents[1] / "src"),
                        help="the src folder placeflow is imported from (another checkout, to compare)")
    args = parser.parse_args(argv)
    selected = [s for s in sources.SOURCES if (not args.area or s.area in args.area)
                and (not args.file or s.name in args.file)]
    scratch = pathlib.Path(args.scratch)
    prepared = prepare(selected, scratch)
    if not prepared:
        print("tf_unit: no test file could be fetched (see above)", file=sys.stderr)
        return 1
    deps = deps_dir()
    targets = [] if args.tf_only else [("placeflow", sys.executable)]
    if args.tf or args.tf_only:
        targets.append(("tensorflow", os.environ.get("PLACEFLOW_TF_PYTHON", "/tmp/placeflow-tf-venv/bin/python")))
    area_of = {s.name: s.area for s in selected}
    stored = scratch / "results.json"
    kept = json.loads(stored.read_text()) if stored.exists() else {}  # earlier runs' files stay (merged)
    results = {}
    for target, python in targets:
        per_file = {}
        for name, path in prepared.items():
            per_file[name] = run_file(python, target, path, scratch / target / f"{name}.jsonl", deps, args.timeout,
                                      pathlib.Path(args.placeflow_src))
            print(f"tf_unit: {target:10s} {name:32s} {outcomes.count(per_file[name])}", file=sys.stderr)
        results[target] = per_file
        kept.setdefault(target, {}).update(per_file)
    if args.tf_from and "tensorflow" not in results:
        earlier = json.loads(pathlib.Path(args.tf_from).read_text()).get("tensorflow", {})
        results["tensorflow"] = {name: earlier.get(name, []) for name in prepared}
    elif "tensorflow" not in results and all(name in kept.get("tensorflow", {}) for name in prepared):
        results["tensorflow"] = {name: kept["tensorflow"][name] for name in prepared}  # the last TF run of them
    stored.write_text(json.dumps(kept, indent=1))
    text = render(results, area_of, [a for a in sources.AREAS if a in area_of.values()], selected)
    print(text)
    if args.record:
        pathlib.Path(args.record).write_text(text + "\n")
    return 0


def render(results: dict, area_of: dict, areas, selected) -> str:
    """The tables and the grouped reasons as text."""
    if "placeflow" not in results:
        results = {"placeflow": results["tensorflow"]}
    results = {target: {name: outcomes.normalised(records) for name, records in per_file.items()}
               for target, per_file in results.items()}
    ours = outcomes.by_area(results["placeflow"], area_of)
    theirs = outcomes.by_area(results["tensorflow"], area_of) if "tensorflow" in results else None
    lines = ["TensorFlow's own unit tests on placeflow (o.o.s. = out of scope; gap = TF passes, placeflow not)", "",
             outcomes.table(ours, theirs, areas), ""]
    all_ours = [r for rs in results["placeflow"].values() for r in rs]
    tf_passed = None
    if theirs is not None:
        tf_passed = {r["nodeid"] for rs in results["tensorflow"].values() for r in rs if r["outcome"] == "passed"}
    lines.append("Top reasons placeflow fails tests" + (" that TF passes:" if tf_passed is not None else ":"))
    for key, number, example in outcomes.top_reasons(all_ours, only_tf_passed=tf_passed):
        lines.append(f"  {number:4d}  {key}   (e.g. {example})")
    if theirs is not None:
        all_theirs = [r for rs in results["tensorflow"].values() for r in rs]
        lines += ["", "Why TF itself fails through the shim (file age, TF1 idioms; not placeflow gaps):"]
        for key, number, _ in outcomes.top_reasons(all_theirs, limit=12):
            lines.append(f"  {number:4d}  {key}")
    lines += ["", "Out of scope / skipped on placeflow:"]
    for key, number in outcomes.scope_reasons(all_ours):
        lines.append(f"  {number:4d}  {key}")
    lines += ["", "Sources (tensorflow/tensorflow, per-file commits):"]
    lines += [f"  {s.path} @ {s.commit}" for s in selected]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
