"""placeflow.experimental.dlpack: exchange tensors with NumPy, CuPy, PyTorch or JAX without copies."""

from __future__ import annotations

import numpy as np

from ..eager.tensor import EagerTensor
from ..eager.convert import convert_to_tensor


class _Capsule:
    """Wraps a DLPack capsule so libraries that take `__dlpack__` objects can import it."""

    def __init__(self, capsule, device):
        self._capsule, self._device = capsule, device

    def __dlpack__(self, **kwargs):
        return self._capsule

    def __dlpack_device__(self):
        return self._device


def to_dlpack(tf_tensor):
    """A DLPack capsule of `tf_tensor` (host memory for CPU and simulated GPU tensors, device memory on CUDA)."""
    tensor = convert_to_tensor(tf_tensor)
    return _Capsule(tensor.__dlpack__(), tensor.__dlpack_device__())


def from_dlpack(dlcapsule):
    """A tensor from a DLPack capsule or any object with __dlpack__ (CUDA data stays on its GPU)."""
    source = dlcapsule if hasattr(dlcapsule, "__dlpack__") else _Capsule(dlcapsule, (1, 0))
    device_type, device_id = source.__dlpack_device__()
    if int(device_type) == 2:  # kDLCUDA
        import cupy
        return _on_cuda(cupy.from_dlpack(source), device_id)
    return convert_to_tensor(np.from_dlpack(source))


def _on_cuda(array, device_id):
    from ..config.context import context
    from ..runtime import registry
    for device in registry.devices(context()):
        if not device.host_backed and device.cuda_ordinal == device_id:
            return EagerTensor(array, device)
    raise ValueError(f"The DLPack tensor lives on CUDA device {device_id}, which is not a placeflow device here.")
