"""placeflow.version: TensorFlow's tf.version namespace (see framework/version.py)."""

from .framework.version import (  # noqa: F401
    COMPILER_VERSION, GIT_VERSION, GRAPH_DEF_VERSION, PLACEFLOW_VERSION, TF_API_VERSION, VERSION,
)

GRAPH_DEF_VERSION_MIN_CONSUMER = 0  # the oldest GraphDef version a consumer reads (TensorFlow 2.21's value)
GRAPH_DEF_VERSION_MIN_PRODUCER = 0  # the oldest GraphDef version a producer may write (TensorFlow 2.21's value)
