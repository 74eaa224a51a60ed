"""`tf.__internal__`: the TensorFlow internals that Keras 3's TensorFlow backend imports.

Each name lives in one small module here, with a comment naming its Keras caller. placeflow's own
code never uses them.
"""

from . import distribute, smart_cond, tracking, types  # noqa: F401
from .types import CompositeTensor  # noqa: F401
from ..eager.tensor import EagerTensor  # noqa: F401  (keras backend/tensorflow/nn.py: isinstance checks)
from ..graph.function import FuncGraph  # noqa: F401  (keras backend/tensorflow/core.py compute_output_spec)
