"""How long `import placeflow` takes, against `import numpy` (most of it), each in fresh processes.

    PYTHONPATH=src python3 benchmarks/import_time.py

The README's figure comes from here; tests/config/test_environment.py checks what keeps it low
(no optional heavy module is imported).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")
RUNS = 7
CODE = ("import sys, time; sys.path.insert(0, {src!r}); start = time.perf_counter(); import {module}; "
        "print(time.perf_counter() - start)")


def import_seconds(module: str) -> list:
    """Import times of `module` in RUNS fresh interpreters."""
    times = []
    for _ in range(RUNS):
        out = subprocess.run([sys.executable, "-c", CODE.format(src=SRC, module=module)], capture_output=True,
                             text=True, check=True, env={"PLACEFLOW_DISABLE_CUDA": "1"})
        times.append(float(out.stdout))
    return times


def main() -> None:
    numpy, placeflow = import_seconds("numpy"), import_seconds("placeflow")
    print(f"import time, {RUNS} fresh processes each   min s   median s")
    for name, times in (("import numpy", numpy), ("import placeflow (numpy included)", placeflow)):
        print(f"{name:38}{min(times):8.3f}{statistics.median(times):11.3f}")
    print(f"placeflow / numpy (medians): {statistics.median(placeflow) / statistics.median(numpy):.2f}x")


if __name__ == "__main__":
    main()
