"""`placeflow run script.py`: run a program written for TensorFlow, with `tensorflow` meaning placeflow.

Before the script starts, `import tensorflow` (and every `tensorflow.x`) is routed to placeflow and Keras
is pointed at its TensorFlow backend, so `import keras` gives Keras 3 running on placeflow. The script runs
as `__main__` with its own argv, as `python script.py args` would run it."""

from __future__ import annotations

import os
import runpy
import sys


def run_script(script: str, args: list) -> int:
    """Run `script` with `args`; its exit status (SystemExit's code, else 0)."""
    if not os.path.exists(script):
        print(f"placeflow run: no such file: {script!r}", file=sys.stderr)
        return 2
    backend = os.environ.get("KERAS_BACKEND")
    if backend not in (None, "tensorflow"):
        print(f"placeflow run: KERAS_BACKEND={backend!r}; placeflow runs Keras's TensorFlow backend: unset it or set "
              "KERAS_BACKEND=tensorflow", file=sys.stderr)
        return 2
    os.environ["KERAS_BACKEND"] = "tensorflow"
    from . import as_tensorflow
    as_tensorflow.install()
    from .estimate import write_report_at_exit
    write_report_at_exit()   # when `placeflow estimate` runs this script
    sys.argv = [script] + list(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exit_:
        code = exit_.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0
