"""placeflow.version: TensorFlow's tf.version namespace (see framework/version.py)."""

from .framework.version import (  # noqa: F401
    COMPILER_VERSION, GIT_VERSION, GRAPH_DEF_VERSION, PLACEFLOW_VERSION, TF_API_VERSION, VERSION,
)
