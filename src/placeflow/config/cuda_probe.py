"""Find real CUDA GPUs cheaply, without creating a CUDA context, and say why there are none.

Probe order (cheapest first): PLACEFLOW_DISABLE_CUDA, the driver library (libcuda.so.1, ~50 us
when absent, skipping CuPy's 120-200 ms import), CuPy's presence (find_spec, no import), then
NVML through ctypes (no context; it ignores CUDA_VISIBLE_DEVICES, which placeflow then applies).
If NVML is unusable, CuPy's runtime is asked instead (it applies the CUDA variables itself).
"""

from __future__ import annotations

import ctypes
import importlib.util
from dataclasses import dataclass, field

from .gpu_info import GpuInfo

DISABLE_ENV_VAR = "PLACEFLOW_DISABLE_CUDA"
INSTALL_HINT = "install CuPy with: pip install 'placeflow[cuda12]' (or 'placeflow[cuda13]' for CUDA 13)"


@dataclass
class CudaProbe:
    """The outcome of looking for CUDA GPUs: the GPUs found and a readable reason."""

    gpus: list = field(default_factory=list)
    reason: str = ""
    needs_visibility_filter: bool = True  # False when CUDA itself already applied CUDA_VISIBLE_DEVICES


def probe_cuda(environ) -> CudaProbe:
    """Look for usable CUDA GPUs. Never raises; never creates a CUDA context."""
    if environ.get(DISABLE_ENV_VAR, "") not in ("", "0"):
        return CudaProbe(reason=f"CUDA disabled by {DISABLE_ENV_VAR}={environ[DISABLE_ENV_VAR]}")
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError as exc:
        return CudaProbe(reason=f"no NVIDIA driver found ({exc})")
    if importlib.util.find_spec("cupy") is None:
        return CudaProbe(reason=f"an NVIDIA driver is present but CuPy is not installed; {INSTALL_HINT}")
    try:
        gpus = _nvml_gpus()
        return CudaProbe(gpus, f"{len(gpus)} CUDA GPU(s) found by NVML")
    except OSError:
        pass
    try:
        gpus = _cupy_gpus()
    except Exception as exc:  # CuPy raises CUDARuntimeError, ImportError, ... on broken set-ups
        return CudaProbe(reason=f"CuPy could not use CUDA: {type(exc).__name__}: {exc}")
    return CudaProbe(gpus, f"{len(gpus)} CUDA GPU(s) found by CuPy", needs_visibility_filter=False)


class _PciInfo(ctypes.Structure):
    _fields_ = [("busIdLegacy", ctypes.c_char * 16), ("domain", ctypes.c_uint), ("bus", ctypes.c_uint),
                ("device", ctypes.c_uint), ("pciDeviceId", ctypes.c_uint), ("pciSubSystemId", ctypes.c_uint),
                ("busId", ctypes.c_char * 32)]


class _Memory(ctypes.Structure):
    _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]


def _check(status: int, call: str) -> None:
    if status != 0:
        raise OSError(f"NVML {call} failed with status {status}")


def _nvml_gpus() -> list:
    """Enumerate GPUs with NVML (raises OSError when NVML is missing or fails)."""
    nvml = ctypes.CDLL("libnvidia-ml.so.1")
    _check(nvml.nvmlInit_v2(), "nvmlInit_v2")
    try:
        count = ctypes.c_uint()
        _check(nvml.nvmlDeviceGetCount_v2(ctypes.byref(count)), "nvmlDeviceGetCount_v2")
        return [_nvml_gpu(nvml, i) for i in range(count.value)]
    finally:
        nvml.nvmlShutdown()


def _nvml_gpu(nvml, index: int) -> GpuInfo:
    handle = ctypes.c_void_p()
    _check(nvml.nvmlDeviceGetHandleByIndex_v2(index, ctypes.byref(handle)), "nvmlDeviceGetHandleByIndex_v2")
    name, uuid = ctypes.create_string_buffer(96), ctypes.create_string_buffer(96)
    _check(nvml.nvmlDeviceGetName(handle, name, 96), "nvmlDeviceGetName")
    _check(nvml.nvmlDeviceGetUUID(handle, uuid, 96), "nvmlDeviceGetUUID")
    pci, memory = _PciInfo(), _Memory()
    _check(nvml.nvmlDeviceGetPciInfo_v3(handle, ctypes.byref(pci)), "nvmlDeviceGetPciInfo_v3")
    _check(nvml.nvmlDeviceGetMemoryInfo(handle, ctypes.byref(memory)), "nvmlDeviceGetMemoryInfo")
    major, minor = ctypes.c_int(), ctypes.c_int()
    _check(nvml.nvmlDeviceGetCudaComputeCapability(handle, ctypes.byref(major), ctypes.byref(minor)),
           "nvmlDeviceGetCudaComputeCapability")
    return GpuInfo(
        name=name.value.decode(), uuid=uuid.value.decode(),
        pci_bus_id=f"{pci.domain:04x}:{pci.bus:02x}:{pci.device:02x}.0",
        total_memory=memory.total, free_memory=memory.free,
        compute_capability=(major.value, minor.value),
    )


def _cupy_gpus() -> list:
    """Enumerate GPUs through CuPy's runtime (already filtered and ordered by CUDA)."""
    import cupy

    runtime = cupy.cuda.runtime
    gpus = []
    for ordinal in range(runtime.getDeviceCount()):
        props = runtime.getDeviceProperties(ordinal)
        uuid = props.get("uuid", b"")
        uuid_text = "GPU-" + bytes(uuid).hex() if uuid else f"GPU-ordinal-{ordinal}"
        gpus.append(GpuInfo(
            name=props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"]),
            uuid=uuid_text,
            pci_bus_id=f"{props.get('pciDomainID', 0):04x}:{props.get('pciBusID', 0):02x}:"
                       f"{props.get('pciDeviceID', 0):02x}.0",
            total_memory=int(props["totalGlobalMem"]), free_memory=int(props["totalGlobalMem"]),
            compute_capability=(props["major"], props["minor"]),
        ))
    return gpus


def build_info() -> dict:
    """tf.sysconfig.get_build_info's keys: whether CUDA (CuPy, not imported) is available, never ROCm/TensorRT."""
    import importlib.util
    from ..framework.version import PLACEFLOW_VERSION
    return {"is_cuda_build": importlib.util.find_spec("cupy") is not None, "is_rocm_build": False,
            "is_tensorrt_build": False, "placeflow_version": PLACEFLOW_VERSION}
