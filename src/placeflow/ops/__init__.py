"""ops: op kernels registered per device type with dtype constraints, written against `xp`."""

from . import array_kernels, collective_kernels, graph_kernels, math_kernels, nn_kernels, random_kernels, state_kernels  # noqa: F401  (registration)
from .registry import find_kernel, list_kernels, registered_ops  # noqa: F401
