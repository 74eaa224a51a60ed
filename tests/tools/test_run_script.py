"""`placeflow run script.py` and `python -m placeflow script.py`: programs written for TensorFlow and Keras run
unchanged, with `tensorflow` meaning placeflow."""

import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent("""
    import sys
    import numpy as np
    import tensorflow as tf
    import keras
    from tensorflow.keras import layers
    import tensorflow.nn
    print(tf.__name__, tf.keras.layers.Dense is keras.layers.Dense, layers.Dense is keras.layers.Dense, sys.argv[1:])
    model = keras.Sequential([keras.Input((2,)), layers.Dense(1, kernel_initializer="ones")])
    print(model.predict(np.ones((1, 2), np.float32), verbose=0).tolist())
    print(tf.nn.relu(tf.constant([-1.0, 2.0])).numpy().tolist(), tensorflow.nn is tf.nn)
    sys.exit(3)
""")


def _run(command, tmp_path):
    script = tmp_path / "train.py"
    script.write_text(PROGRAM)
    return subprocess.run(command + [str(script), "--epochs", "1"], capture_output=True, text=True, timeout=300,
                          env={"PLACEFLOW_SIMULATED_GPUS": "1", "PATH": "/usr/bin:/bin"})


def test_placeflow_run_makes_tensorflow_and_keras_mean_placeflow(tmp_path):
    done = _run([sys.executable, "-m", "placeflow", "run"], tmp_path)
    assert done.returncode == 3, done.stderr[-2000:]
    assert done.stdout.splitlines() == ["placeflow True True ['--epochs', '1']", "[[2.0]]", "[0.0, 2.0] True"]


def test_python_dash_m_placeflow_script_is_placeflow_run(tmp_path):
    done = _run([sys.executable, "-m", "placeflow"], tmp_path)
    assert done.returncode == 3, done.stderr[-2000:]
    assert done.stdout.splitlines()[0] == "placeflow True True ['--epochs', '1']"


def test_run_refuses_another_keras_backend_and_a_missing_script(tmp_path):
    done = subprocess.run([sys.executable, "-m", "placeflow", "run", str(tmp_path / "none.py")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and "no such file" in done.stderr
    script = tmp_path / "x.py"
    script.write_text("print('ran')")
    done = subprocess.run([sys.executable, "-m", "placeflow", "run", str(script)], capture_output=True, text=True,
                          timeout=120, env={"KERAS_BACKEND": "jax", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2 and "KERAS_BACKEND='jax'" in done.stderr and "ran" not in done.stdout


def test_a_real_tensorflow_imported_first_is_never_replaced():
    code = textwrap.dedent("""
        import sys, types
        sys.modules["tensorflow"] = types.ModuleType("tensorflow")   # stands for a real TF imported earlier
        import placeflow.tools.as_tensorflow as alias
        try:
            alias.install()
        except ImportError as error:
            print("refused:", "already imported" in str(error))
        print(sys.modules["tensorflow"].__name__)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines() == ["refused: True", "tensorflow"]
