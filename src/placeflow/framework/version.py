"""placeflow.version: TensorFlow's tf.version. VERSION names the TensorFlow API placeflow implements (so checks
written for TF 2, such as `tf.__version__.startswith("2.")`, keep working), with placeflow's own version as its
local part: 2.21.0+placeflow.0.1.0."""

PLACEFLOW_VERSION = "0.1.0"
TF_API_VERSION = "2.21.0"
VERSION = f"{TF_API_VERSION}+placeflow.{PLACEFLOW_VERSION}"
GIT_VERSION = f"placeflow-{PLACEFLOW_VERSION}"
COMPILER_VERSION = "none (placeflow is pure Python over NumPy and CuPy)"
GRAPH_DEF_VERSION = 0
