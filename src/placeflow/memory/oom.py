"""Out of device memory: TensorFlow's ResourceExhaustedError text, a summary and a hint."""

from __future__ import annotations

import logging

import numpy as np

from ..framework import dtypes
from ..framework.errors import ResourceExhaustedError
from .bfc import rounded_size

_log = logging.getLogger("placeflow.memory")
def human_bytes(nbytes: int | None) -> str:
    """TensorFlow's HumanReadableNumBytes: '256B', '2.5KiB', '1.00GiB'."""
    if nbytes is None:
        return "-"
    if nbytes < 1024:
        return f"{nbytes}B"
    value, unit = float(nbytes), "B"
    for unit in ("KiB", "MiB", "GiB", "TiB", "PiB"):
        value /= 1024
        if value < 1024:
            break
    return f"{value:.2f}{unit}" if unit != "KiB" else f"{value:.1f}{unit}"


def tf_type_name(dtype) -> str:
    """The type name TensorFlow prints in OOM messages ('float' for float32)."""
    return dtypes.cpp_name(dtypes.as_dtype(np.dtype(dtype)))


class DeviceOutOfMemory(ResourceExhaustedError):
    """Raised when a device's allocator cannot find room for a buffer, after collecting garbage."""

    def __init__(self, memory, nbytes: int, shape=None, dtype=None):
        self.memory, self.nbytes, self.shape, self.dtype = memory, nbytes, shape, dtype
        super().__init__(None, None, self._text(None, ""))

    def for_op(self, op: str, name: str | None) -> ResourceExhaustedError:
        """What the user gets eagerly: TensorFlow's class, the first line ending in ' [Op:<op>] name: <name>'."""
        return ResourceExhaustedError(None, None, self._text(op, name or ""))

    def for_node(self, node: str, graph_op=None) -> ResourceExhaustedError:
        """What the user gets from a graph: TensorFlow's class and '[[{{node <node>}}]]' line after the first."""
        return ResourceExhaustedError(None, graph_op, self._text(None, "", node))

    def _text(self, op, name, node=None) -> str:
        memory = self.memory
        if self.shape is not None:
            what = f"tensor with shape[{','.join(str(d) for d in self.shape)}] and type {tf_type_name(self.dtype)}"
        else:
            what = f"{self.nbytes} bytes"
        first = f"OOM when allocating {what} on {memory.device_name} by allocator {memory.name}"
        if op:
            first += f" [Op:{op}] name: {name}"
        if node:
            first += f"\n\t [[{{{{node {node}}}}}]]"
        stats = memory.allocator.stats()
        rounded = rounded_size(self.nbytes)
        summary = (f"placeflow: {memory.name} could not find {human_bytes(self.nbytes)} (rounded to {rounded}): "
                   f"{human_bytes(stats['bytes_in_use'])} in use of a {human_bytes(stats['bytes_limit'])} limit "
                   f"({human_bytes(stats['bytes_reserved'])} reserved, largest free chunk "
                   f"{human_bytes(stats['largest_free_block_bytes'])}).")
        return f"{first}\n{summary}\nHint: {_hint(rounded, stats)}"


def _hint(rounded: int, stats: dict) -> str:
    limit = stats["bytes_limit"]
    if rounded > limit:
        return ("the tensor is larger than the device's whole memory limit. Make it smaller, place its op on a "
                "device with more memory (with placeflow.device(...)), or raise memory_limit in "
                "placeflow.config.LogicalDeviceConfiguration.")
    if limit - stats["bytes_in_use"] >= rounded:
        return ("enough bytes are free, but not in one piece (fragmentation). Free the tensors you no longer "
                "need (del x) and call placeflow.config.experimental.release_unused_memory(device), or "
                "allocate large tensors first.")
    return ("live tensors hold the memory. Drop references you no longer need (del x), use a smaller batch, "
            "or see what holds it with placeflow.config.experimental.memory_stats(device) and "
            "placeflow.experimental.memory_summary().")


def log_exhausted(error: DeviceOutOfMemory, op: str) -> None:
    """TensorFlow's allocator warning before it gives up."""
    _log.warning("Allocator (%s) ran out of memory trying to allocate %s (rounded to %d)requested by op %s",
                 error.memory.name, human_bytes(error.nbytes), rounded_size(error.nbytes), op)
