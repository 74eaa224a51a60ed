"""tf.image: resize (bilinear, nearest, bicubic, area) as TensorFlow 2 computes it (half-pixel centers, no
antialiasing), built as two small linear maps (one per spatial axis), so gradients follow."""

from __future__ import annotations



import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes
from . import math_ops


class ResizeMethod:
    """The names tf.image.resize takes."""

    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


def _bilinear(out_size: int, in_size: int) -> np.ndarray:
    matrix = np.zeros((out_size, in_size), np.float64)
    scale = in_size / out_size
    for i in range(out_size):
        source = min(max((i + 0.5) * scale - 0.5, 0.0), in_size - 1)
        low = int(np.floor(source))
        high = min(low + 1, in_size - 1)
        fraction = source - low
        matrix[i, low] += 1.0 - fraction
        matrix[i, high] += fraction
    return matrix


def _nearest(out_size: int, in_size: int) -> np.ndarray:
    matrix = np.zeros((out_size, in_size), np.float64)
    scale = in_size / out_size
    for i in range(out_size):
        matrix[i, min(int(np.floor((i + 0.5) * scale)), in_size - 1)] = 1.0
    return matrix


def _cubic_weight(x: float, a: float = -0.5) -> float:
    x = abs(x)
    if x <= 1:
        return (a + 2) * x ** 3 - (a + 3) * x ** 2 + 1
    if x < 2:
        return a * x ** 3 - 5 * a * x ** 2 + 8 * a * x - 4 * a
    return 0.0


def _bicubic(out_size: int, in_size: int) -> np.ndarray:
    """Keys' cubic (a = -0.5); taps outside the image are dropped and the rest renormalized (TF 2's bicubic
    without antialiasing)."""
    matrix = np.zeros((out_size, in_size), np.float64)
    scale = in_size / out_size
    for i in range(out_size):
        source = (i + 0.5) * scale - 0.5
        base = int(np.floor(source))
        taps = [(base + k, _cubic_weight(source - (base + k))) for k in range(-1, 3) if 0 <= base + k < in_size]
        total = sum(weight for _, weight in taps)
        for index, weight in taps:
            matrix[i, index] += weight / total
    return matrix


def _area(out_size: int, in_size: int) -> np.ndarray:
    """Each output pixel: the mean of the input interval it covers (fractional pixels weighed by overlap)."""
    matrix = np.zeros((out_size, in_size), np.float64)
    scale = in_size / out_size
    for i in range(out_size):
        start, end = i * scale, (i + 1) * scale
        for j in range(int(np.floor(start)), min(int(np.ceil(end)), in_size)):
            overlap = min(end, j + 1) - max(start, j)
            if overlap > 0:
                matrix[i, j] = overlap / scale
    return matrix


_MAPS = {"bilinear": _bilinear, "nearest": _nearest, "bicubic": _bicubic, "area": _area}


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False, antialias=False, name=None):
    """`images` ([b, h, w, c] or [h, w, c]) resized to `size` = [new_h, new_w] (float32 out, as TF, except
    nearest, which keeps the dtype)."""
    method = str(method).lower()
    if method not in _MAPS:
        raise NotImplementedError(f"tf.image.resize(method={method!r}) is not implemented in placeflow; "
                                  f"implemented: {sorted(_MAPS)}.")
    x = convert_to_tensor(images)
    single = len(x.shape) == 3
    if len(x.shape) not in (3, 4):
        raise ValueError(f"'images' must have either 3 or 4 dimensions; got shape {x.shape}")
    height, width = (int(d) for d in x.shape[-3:-1])
    new_height, new_width = (int(v) for v in np.asarray(convert_to_tensor(size).numpy()).reshape(-1))
    if preserve_aspect_ratio:
        ratio = min(new_height / height, new_width / width)
        new_height, new_width = int(round(height * ratio)), int(round(width * ratio))
    if antialias and (new_height < height or new_width < width) and method != "nearest":
        raise NotImplementedError("tf.image.resize(antialias=True) when shrinking is not implemented in placeflow; "
                                  "use antialias=False.")
    dtype = x.dtype if method == "nearest" else dtypes.float32
    if method != "nearest" and x.dtype != dtypes.float32:
        x = math_ops.cast(x, dtypes.float32)
    rows = convert_to_tensor(_MAPS[method](new_height, height).astype(dtype.numpy_dtype))
    cols = convert_to_tensor(_MAPS[method](new_width, width).astype(dtype.numpy_dtype))
    equation = "hH,HWc,wW->hwc" if single else "hH,bHWc,wW->bhwc"
    return math_ops.einsum(equation, rows, x, cols, name=name) if dtype.is_floating else _gather_nearest(
        x, rows, cols, single)


def _gather_nearest(x, rows, cols, single):
    """Nearest-neighbour resize of an integer image: gathers (exact for every dtype)."""
    from .indexing import gather
    row_index = np.argmax(rows.numpy(), axis=1).astype(np.int32)
    col_index = np.argmax(cols.numpy(), axis=1).astype(np.int32)
    axis = 0 if single else 1
    return gather(gather(x, row_index, axis=axis), col_index, axis=axis + 1)


__all__ = ["ResizeMethod", "resize"]
