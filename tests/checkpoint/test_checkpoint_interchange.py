"""Checkpoints are TensorFlow 2.21's, both ways: placeflow writes the bytes TF writes for the same objects
(and TF restored them: record_tf_checkpoints.py), restores TF's own fixtures, and behaves as TF did in the
recorded cases (values, files, state file, error classes and texts)."""

import hashlib
import json
import os
import pathlib
import re
import sys

import pytest

import placeflow as tf

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import checkpoint_programs as programs  # noqa: E402

RECORDED = json.loads((HERE / "tf_checkpoints.json").read_text())


def _digests(prefix: str) -> dict:
    directory, base = os.path.split(prefix)
    return {name: hashlib.sha256((pathlib.Path(directory) / name).read_bytes()).hexdigest()
            for name in sorted(os.listdir(directory)) if name.startswith(base + ".")}


@pytest.mark.parametrize("name", sorted(programs.PROGRAMS))
def test_placeflow_writes_the_bytes_tensorflow_writes(name, tmp_path):
    prefix = programs.PROGRAMS[name](tf).save(str(tmp_path / "ckpt"))
    assert os.path.basename(prefix) == "ckpt-1"
    assert _digests(prefix) == RECORDED["programs"][name]["digests"]
    assert RECORDED["tf_reads_placeflow"][name] == {"assert_consumed": "passed", "digests": _digests(prefix),
                                                    "values_equal": True}
    assert programs.saved_values(tf, prefix) == RECORDED["programs"][name]["values"]


@pytest.mark.parametrize("name", sorted(programs.PROGRAMS))
def test_placeflow_restores_what_tensorflow_wrote(name, tmp_path):
    checkpoint = programs.PROGRAMS[name](tf)
    programs.scramble(tf, checkpoint)
    checkpoint.restore(str(HERE / RECORDED["programs"][name]["prefix"])).assert_consumed()
    again = checkpoint.write(str(tmp_path / "again"))
    assert programs.saved_values(tf, again) == RECORDED["programs"][name]["values"]


def _normalized(value, directory: str):
    text = json.dumps(value)
    return json.loads(text.replace(directory, "<dir>"))


@pytest.mark.parametrize("name", sorted(programs.CASES))
def test_behaviour_matches_tensorflow(name, tmp_path):
    got = programs.CASES[name](tf, str(tmp_path))
    want = RECORDED["cases"][name]
    assert _normalized(got, str(tmp_path)) == _normalized_recording(want)


def _normalized_recording(value):
    return json.loads(re.sub(r"/tmp/tmp[a-z0-9_]+", "<dir>", json.dumps(value)))
