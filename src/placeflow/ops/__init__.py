"""ops: every op declared once (kernels per device type with dtypes, shape rule, gradient, folding, cost)."""

from . import (  # noqa: F401  (definitions)
    array, collective, complex, control_flow, conv, debug, graph_nodes, indexing, iterators, linalg, math, nn, random,
    sorting, state, strings,
)
from .registry import find_kernel, list_kernels, op_def, registered_ops  # noqa: F401
