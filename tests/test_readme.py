"""Every Python snippet in the README runs as written (on two simulated GPUs, in a fresh process)."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"
SNIPPETS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_the_readme_has_snippets():
    assert len(SNIPPETS) >= 5


@pytest.mark.parametrize("index", range(len(SNIPPETS)))
def test_readme_snippet_runs(index, tmp_path):
    source = tmp_path / f"snippet_{index}.py"
    source.write_text(SNIPPETS[index])
    src = str(README.parent / "src")
    env = {**os.environ, "PLACEFLOW_SIMULATED_GPUS": "2", "PLACEFLOW_DISABLE_CUDA": "1",
           "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, str(source)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"README snippet {index} failed:\n{SNIPPETS[index]}\n{done.stderr[-3000:]}"
