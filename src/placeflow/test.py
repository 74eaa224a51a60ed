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
from .api.misc_names import (  # noqa: E402,F401 - tf.test's benchmark and decorator helpers (misc-names)
    Benchmark, assert_equal_graph_def, benchmark_config, disable_with_predicate, sync_devices,
    with_eager_op_as_function,
)


def create_local_cluster(num_workers, num_ps, protocol="grpc", worker_config=None, ps_config=None):
    """(workers, ps_servers): started in-process tf.distribute.Servers of a cluster of `num_workers` 'worker' and
    `num_ps` 'ps' tasks on free localhost ports (this process keeps its own device names; reach the tasks through
    their targets or tf.config.experimental_connect_to_cluster)."""
    import socket
    from .distribute.remote.server import Server
    from .placement import cluster_devices
    if int(num_workers) < 1 or int(num_ps) < 0:
        raise ValueError(f"create_local_cluster needs num_workers >= 1 and num_ps >= 0; got {num_workers} and "
                         f"{num_ps}.")

    def address():
        with socket.socket() as probe:
            probe.bind(("localhost", 0))
            return f"localhost:{probe.getsockname()[1]}"
    cluster = {"worker": [address() for _ in range(int(num_workers))]}
    if int(num_ps):
        cluster["ps"] = [address() for _ in range(int(num_ps))]
    before = cluster_devices.identity()
    try:
        workers = [Server(cluster, "worker", i, protocol, worker_config) for i in range(int(num_workers))]
        ps_servers = [Server(cluster, "ps", i, protocol, ps_config) for i in range(int(num_ps))]
    finally:
        cluster_devices.set_identity(*(before or (None, None)))
    return workers, ps_servers


class experimental:  # noqa: N801 - TensorFlow's namespace name
    """tf.test.experimental: sync_devices."""

    sync_devices = staticmethod(sync_devices)
