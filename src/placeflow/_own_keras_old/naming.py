"""Keras's automatic names: a class name in snake case, numbered from its second use in the process."""

from __future__ import annotations

import re
import threading

_counts: dict = {}
_lock = threading.Lock()


def snake_case(name: str) -> str:
    """Keras's snake case of a class name: Conv2D -> conv2d, MaxPooling2D -> max_pooling2d, LSTM -> lstm."""
    name = re.sub(r"\W+", "", name)
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def unique_name(base: str) -> str:
    """'base' the first time, then 'base_1', 'base_2', ... (one count per base, shared by layers and metrics)."""
    with _lock:
        count = _counts.get(base, 0)
        _counts[base] = count + 1
    return base if count == 0 else f"{base}_{count}"
