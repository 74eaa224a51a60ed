"""What is known about one physical GPU, real or simulated, before any CUDA context exists."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GpuInfo:
    """One physical GPU as discovered (NVML, CuPy or simulation), in enumeration order."""

    name: str
    uuid: str
    pci_bus_id: str
    total_memory: int
    free_memory: int
    compute_capability: tuple | None
    simulated: bool = False
    model: str | None = None  # the performance-model preset of a simulated GPU ('H100'; placeflow.perf)

    def short_description(self, index: int) -> str:
        """TensorFlow's physical_device_desc: 'device: 0, name: ..., pci bus id: ..., compute capability: 9.0'."""
        text = f"device: {index}, name: {self.name}, pci bus id: {self.pci_bus_id}"
        if self.compute_capability is not None:
            text += f", compute capability: {self.compute_capability[0]}.{self.compute_capability[1]}"
        if self.simulated:
            text += ", simulated (NumPy kernels, no CUDA)"
        return text
