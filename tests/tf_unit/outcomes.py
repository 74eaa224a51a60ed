"""Counting and explaining the child runs' per-test records: the tables the harness prints."""

from __future__ import annotations

import collections
import re

OUTCOMES = ("passed", "failed", "error", "out_of_scope", "skipped")


FIXTURE_METHOD = "TensorFlow's TestCase.test_session: a fixture method collected for its name, not a test"


def normalised(records: list) -> list:
    """The records with each `test_session` entry counted as skipped on every target: it is TF's fixture method,
    which TF's own TestCase skips in some classes and lets pass in others, so it is no evidence either way."""
    return [dict(record, outcome="skipped", type="", message=FIXTURE_METHOD)
            if record["nodeid"].endswith("::test_session") else record for record in records]


def reason(record: dict) -> str:
    """A short, groupable reason for a record that did not pass."""
    kind, message = record.get("type", ""), record.get("message", "")
    message = re.sub(r"0x[0-9a-f]+", "0x..", message)
    if record["outcome"] == "out_of_scope":
        return f"out of scope: {message.split(' is out of scope: ')[-1][:100]}"
    if record["outcome"] == "skipped":
        return f"skipped: {message[:100]}"
    if kind == "MissingPublicName":
        found = re.search(r"missing public name (\S+)", message)
        return f"missing public name {found.group(1) if found else message[:80]}"
    if kind == "collection":
        return f"file not importable: {message.removeprefix('E ').strip()[:110]}"
    if kind == "Failed" and "Timeout" in message:
        return "timeout"
    if kind == "AttributeError":
        found = re.search(r"'([\w.]+)' (?:object|has no attribute)[^']*'(\w+)'", message)
        if found:
            return f"missing attribute {found.group(1).split('.')[-1]}.{found.group(2)}"
    if kind == "AssertionError":
        if "not raised" in message:
            return f"expected error not raised: {message[:80]}"
        if "Shape mismatch" in message or "shapes" in message.lower():
            return "wrong value: shape differs"
        if not message or "Not equal" in message or "not equal" in message or "Mismatch" in message \
                or "!=" in message or "is not" in message:
            return "wrong value"
        if "does not match" in message or "did not match" in message:
            return f"wrong error message: {message[:80]}"
        return f"assertion: {message[:90]}"
    return f"{kind}: {message[:100]}"


def count(records: list) -> dict:
    """{outcome: number} over the records."""
    totals = collections.Counter(record["outcome"] for record in records)
    return {outcome: totals.get(outcome, 0) for outcome in OUTCOMES}


def by_area(records_by_file: dict, area_of: dict) -> dict:
    """{area: [records]} from {file name: [records]}."""
    grouped = collections.defaultdict(list)
    for name, records in records_by_file.items():
        grouped[area_of[name]].extend(records)
    return grouped


def table(placeflow: dict, tensorflow: dict | None, areas) -> str:
    """Per area: passed / failed / errors / out of scope / skipped / total on placeflow, TF's passes and the gap."""
    header = f"{'area':14s} {'passed':>6s} {'failed':>6s} {'errors':>6s} {'o.o.s.':>6s} {'skip':>5s} {'total':>6s}"
    if tensorflow is not None:
        header += f" {'TF pass':>7s} {'gap':>5s}"
    rows = [header]
    overall = collections.Counter()
    for area in [*areas, "all"]:
        records = [r for a in areas for r in placeflow.get(a, [])] if area == "all" else placeflow.get(area, [])
        totals = count(records)
        row = (f"{area:14s} {totals['passed']:6d} {totals['failed']:6d} {totals['error']:6d} "
               f"{totals['out_of_scope']:6d} {totals['skipped']:5d} {len(records):6d}")
        if tensorflow is not None:
            tf_records = [r for a in areas for r in tensorflow.get(a, [])] if area == "all" \
                else tensorflow.get(area, [])
            tf_passed = {r["nodeid"] for r in tf_records if r["outcome"] == "passed"}
            ours = {r["nodeid"] for r in records if r["outcome"] == "passed"}
            row += f" {len(tf_passed):7d} {len(tf_passed - ours):5d}"
        overall.update(totals)
        rows.append(row)
    return "\n".join(rows)


def top_reasons(records: list, limit: int = 25, only_tf_passed: set | None = None) -> list:
    """[(reason, count, example test id)] for failures and errors, most common first."""
    counter, example = collections.Counter(), {}
    for record in records:
        if record["outcome"] not in ("failed", "error"):
            continue
        if only_tf_passed is not None and record["nodeid"] not in only_tf_passed:
            continue
        key = reason(record)
        counter[key] += 1
        example.setdefault(key, record["nodeid"])
    return [(key, number, example[key]) for key, number in counter.most_common(limit)]


def scope_reasons(records: list) -> list:
    """[(reason, count)] for out-of-scope and skipped tests."""
    counter = collections.Counter(reason(r) for r in records if r["outcome"] in ("out_of_scope", "skipped"))
    return counter.most_common()
