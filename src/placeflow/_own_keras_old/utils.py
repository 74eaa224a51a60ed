"""placeflow.keras.utils: set_random_seed and to_categorical."""

from __future__ import annotations

import random

import numpy as np

from ..api import random as random_ops


def set_random_seed(seed) -> None:
    """Seed Python's `random`, NumPy's global generator and placeflow's global seed (initializers, dropout and
    random ops), so a program's random numbers repeat across runs, as Keras 3's set_random_seed."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed!r} (of type {type(seed)})")
    random.seed(int(seed))
    np.random.seed(int(seed) % 2 ** 32)
    random_ops.set_seed(int(seed))


def to_categorical(x, num_classes=None):
    """Class indices as one-hot float64 rows, as Keras 3 (num_classes: max index + 1 when not given)."""
    labels = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if labels.size and (labels.dtype.kind not in "iu" and not np.all(labels == np.round(labels))):
        raise ValueError(f"to_categorical expects integer class indices, got {labels!r}.")
    labels = labels.astype(np.int64)
    if labels.ndim > 1 and labels.shape[-1] == 1:
        labels = labels.reshape(labels.shape[:-1])
    classes = int(labels.max()) + 1 if num_classes is None else int(num_classes)
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        raise ValueError(f"to_categorical: class indices must lie in [0, {classes}), got {labels.min()} to "
                         f"{labels.max()}.")
    return np.eye(classes, dtype=np.float64)[labels]
