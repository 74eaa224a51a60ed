"""placeflow.test: whether GPUs are available and which one tests should use."""

from __future__ import annotations

import importlib.util

from .config.context import context


def _gpus() -> list:
    return [d for d in context().plan() if d.device_type == "GPU"]


def is_gpu_available(cuda_only: bool = False, min_cuda_compute_capability=None) -> bool:
    """True when a logical GPU exists (simulated ones count unless cuda_only or a capability is asked)."""
    for gpu in _gpus():
        if gpu.simulated and (cuda_only or min_cuda_compute_capability is not None):
            continue
        capability = gpu.physical.gpu.compute_capability
        if min_cuda_compute_capability is None or (capability and capability >= tuple(min_cuda_compute_capability)):
            return True
    return False


def is_built_with_cuda() -> bool:
    """True when CuPy, placeflow's CUDA backend, is installed (it is not imported)."""
    return importlib.util.find_spec("cupy") is not None


def is_built_with_gpu_support() -> bool:
    """Same as is_built_with_cuda(): CUDA through CuPy is placeflow's only GPU backend."""
    return is_built_with_cuda()


def gpu_device_name() -> str:
    """'/device:GPU:0' when a GPU is available, else ''."""
    gpus = _gpus()
    return gpus[0].short_name if gpus else ""


def is_built_with_rocm() -> bool:
    """False: placeflow has no ROCm backend."""
    return False


def is_built_with_xla() -> bool:
    """False: placeflow has no XLA."""
    return False


def is_cpu_target_available(target) -> bool:
    """Whether placeflow can compile for a CPU target: it has no compiler of its own (False)."""
    return False


from .api.test_case import TestCase, compute_gradient, main  # noqa: E402,F401 - tf.test's test harness
