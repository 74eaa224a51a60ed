"""Record TensorFlow 2.21's graph error texts for graph_errors_program.py (run in the scratch TF venv):
    python tests/graph/record_tf_graph_errors.py > tests/graph/tf_graph_errors.json
"""

import json
import pathlib
import subprocess
import sys

PROGRAM = pathlib.Path(__file__).with_name("graph_errors_program.py")

if __name__ == "__main__":
    out = subprocess.run([sys.executable, str(PROGRAM), "tensorflow"], capture_output=True, text=True, check=True,
                         env={"TF_CPP_MIN_LOG_LEVEL": "3", "PATH": "/usr/bin:/bin"})
    print(json.dumps({"tensorflow": "2.21.0", "cases": json.loads(out.stdout)}, indent=1))
