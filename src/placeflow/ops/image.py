"""Image kernels on the host: ImageProjectiveTransformV3 (images resampled through projective transforms: Keras's
RandomRotation, RandomTranslation, RandomZoom, RandomShear) with TensorFlow's fill modes and interpolations, and
AdjustHue/AdjustSaturation in TF's per-pixel HSV arithmetic."""

import numpy as np

from ..framework import dtypes as d
from .registry import NOT_DIFFERENTIABLE, NUMBERS, define


def _transform_shape(shapes, attrs):
    images = shapes[0]
    size = attrs.get("output_size")
    if images is None or size is None:
        return None
    return (images[0], int(size[0]), int(size[1]), images[3])


def _reflect(coord, length):
    if length <= 1:
        return np.zeros_like(coord)
    size2 = 2.0 * length
    low = coord < 0
    folded = np.where(coord < size2, size2 * np.trunc(-coord / size2) + coord, coord)
    low_value = np.where(folded < -length, folded + size2, -folded - 1.0)
    high = coord > length - 1
    shifted = coord - size2 * np.trunc(coord / size2)
    high_value = np.where(shifted >= length, size2 - shifted - 1.0, shifted)
    return np.clip(np.where(low, low_value, np.where(high, high_value, coord)), 0, length - 1)


def _wrap(coord, length):
    if length <= 1:
        return np.zeros_like(coord)
    size = length - 1.0
    low = coord + length * (np.trunc(-coord / size) + 1.0)
    high = coord - length * np.trunc(coord / size)
    return np.clip(np.where(coord < 0, low, np.where(coord > length - 1, high, coord)), 0, length - 1)


_MODES = {"REFLECT": _reflect, "WRAP": _wrap, "NEAREST": lambda c, n: np.clip(c, 0, n - 1),
          "CONSTANT": lambda c, n: c}


def _round(values):
    """std::round: halves away from zero (NumPy's round goes to even)."""
    return np.sign(values) * np.floor(np.abs(values) + 0.5)


def _read(image, rows, cols, fill):
    """image[rows, cols] per channel, `fill` where a coordinate falls outside the image."""
    height, width = image.shape[:2]
    inside = (rows >= 0) & (rows <= height - 1) & (cols >= 0) & (cols <= width - 1)
    values = image[np.clip(rows, 0, height - 1).astype(np.int64), np.clip(cols, 0, width - 1).astype(np.int64)]
    return np.where(inside[..., None], values, fill)


@define("ImageProjectiveTransformV3", NUMBERS, gpu=(), shape=_transform_shape, grad=NOT_DIFFERENTIABLE)
def _projective_transform(xp, images, transforms, fill_value, output_size=None, interpolation="BILINEAR",
                          fill_mode="CONSTANT"):
    """Each output pixel (x, y) reads the input at ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k),
    k = c0 x + c1 y + 1, with the fill mode applied to coordinates outside the image."""
    host = images.get() if hasattr(images, "get") else np.asarray(images)
    # float32 throughout, as TF's kernel: a coordinate that lands on .5 must round as TF's does
    matrices = np.asarray(transforms.get() if hasattr(transforms, "get") else transforms, np.float32)
    fill = float(np.asarray(fill_value.get() if hasattr(fill_value, "get") else fill_value))
    batch, height, width, _ = host.shape
    out_height, out_width = (int(v) for v in output_size)
    ys, xs = np.meshgrid(np.arange(out_height, dtype=np.float32), np.arange(out_width, dtype=np.float32),
                         indexing="ij")
    remap = _MODES[fill_mode.upper()]
    out = np.empty((batch, out_height, out_width, host.shape[3]), np.float32)
    for index in range(batch):
        a0, a1, a2, b0, b1, b2, c0, c1 = matrices[index if len(matrices) > 1 else 0]
        one = np.float32(1.0)
        projection = c0 * xs + c1 * ys + one
        in_x = remap((a0 * xs + a1 * ys + a2) / projection, np.float32(width))
        in_y = remap((b0 * xs + b1 * ys + b2) / projection, np.float32(height))
        image = host[index].astype(np.float32)
        if interpolation.upper() == "NEAREST":
            out[index] = _read(image, _round(in_y), _round(in_x), fill)
            continue
        y0, x0 = np.floor(in_y), np.floor(in_x)
        y1, x1 = y0 + 1.0, x0 + 1.0
        top = (x1 - in_x)[..., None] * _read(image, y0, x0, fill) + (in_x - x0)[..., None] * _read(image, y0, x1, fill)
        bottom = (x1 - in_x)[..., None] * _read(image, y1, x0, fill) + (in_x - x0)[..., None] * _read(image, y1, x1,
                                                                                                      fill)
        out[index] = (y1 - in_y)[..., None] * top + (in_y - y0)[..., None] * bottom
    return xp.asarray(out.astype(host.dtype))  # integer images: truncated, as TF's cast




# -- hue and saturation, in TF's AdjustHue/AdjustSaturation arithmetic (float32, per pixel via HSV) ---------------

def _rgb_to_hsv(rgb):
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    value = np.maximum(r, np.maximum(g, b))
    spread = value - np.minimum(r, np.minimum(g, b))
    saturation = np.where(value > 0, spread / np.where(value > 0, value, 1), np.float32(0)).astype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        norm = np.float32(1.0) / (np.float32(6.0) * spread)
        hue = np.where(r == value, norm * (g - b),
                       np.where(g == value, norm * (b - r) + np.float32(2.0 / 6.0), norm * (r - g) + np.float32(4.0 / 6.0)))
    hue = np.where(spread <= 0, np.float32(0), hue).astype(np.float32)
    hue = np.where(hue < 0, hue + np.float32(1), hue).astype(np.float32)
    return hue, saturation, value


def _hsv_to_rgb(hue, saturation, value):
    chroma = saturation * value
    low = value - chroma
    scaled = hue * np.float32(6)
    category = scaled.astype(np.int32)
    wrapped = np.mod(scaled, np.float32(2.0)).astype(np.float32)
    x = chroma * (np.float32(1) - np.abs(wrapped - np.float32(1)))
    zero = np.zeros_like(chroma)
    table = [(chroma, x, zero), (x, chroma, zero), (zero, chroma, x), (zero, x, chroma), (x, zero, chroma),
             (chroma, zero, x)]
    channels = []
    for channel in range(3):
        out = zero.copy()
        for index, row in enumerate(table):
            out = np.where(category == index, row[channel], out)
        channels.append(out + low)
    return np.stack(channels, axis=-1).astype(np.float32)


def _adjust(images, change):
    host = np.asarray(images)
    if host.shape[-1] != 3:
        from ..framework.errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, f"input must have 3 channels but instead has {host.shape[-1]} "
                                               "channels.")
    hue, saturation, value = _rgb_to_hsv(host.astype(np.float32))
    hue, saturation = change(hue, saturation)
    return _hsv_to_rgb(hue, saturation, value).astype(host.dtype)


@define("AdjustHue", {d.float16, d.float32}, gpu=(), shape=lambda shapes, attrs: shapes[0], grad=NOT_DIFFERENTIABLE)
def _adjust_hue(xp, images, delta):
    """RGB images with the hue turned by `delta` (TF's AdjustHue: HSV on float32, hue wrapped into [0, 1))."""
    turn = np.float32(np.asarray(delta))

    def change(hue, saturation):
        hue = np.mod(hue + turn, np.float32(1.0)).astype(np.float32)
        return np.where(hue < 0, hue + np.float32(1.0), hue).astype(np.float32), saturation
    return xp.asarray(_adjust(images, change))


@define("AdjustSaturation", {d.float16, d.float32}, gpu=(), shape=lambda shapes, attrs: shapes[0],
        grad=NOT_DIFFERENTIABLE)
def _adjust_saturation(xp, images, scale):
    """RGB images with the saturation scaled by `scale` and clipped to [0, 1] (TF's AdjustSaturation)."""
    factor = np.float32(np.asarray(scale))
    return xp.asarray(_adjust(images, lambda hue, saturation: (hue, np.clip(saturation * factor, 0, 1)
                                                                 .astype(np.float32))))


def _nms_shape(shapes, attrs):
    return [(None,), (None,)]


@define("_NonMaxSuppression", {d.float16, d.float32, d.float64}, gpu=(), shape=_nms_shape, grad=NOT_DIFFERENTIABLE,
        dtype=lambda dtype, attrs: [d.int32, dtype])
def _non_max_suppression(xp, boxes, scores, max_output_size=0, iou_threshold=0.5, score_threshold=float("-inf"),
                         sigma=0.0):
    """TF's greedy (and Gaussian soft) non-max suppression (NonMaxSuppressionV5's CPU kernel): candidates by
    descending score (ties: lower index first), each checked lazily against the boxes selected since it was last
    looked at; a re-scored candidate goes back into the queue."""
    import heapq
    from ..framework.errors import InvalidArgumentError
    if max_output_size < 0:
        raise InvalidArgumentError(None, None, "output size must be non-negative")
    if not 0 <= iou_threshold <= 1:
        raise InvalidArgumentError(None, None, "iou_threshold must be in [0, 1]")
    boxes = np.asarray(boxes, np.float32)
    scores_in = np.asarray(scores)
    scale = np.float32(-0.5 / sigma if sigma > 0 else 0.0)
    queue = [(-float(s), i, 0) for i, s in enumerate(scores_in.astype(np.float32)) if s > score_threshold]
    heapq.heapify(queue)
    selected, kept = [], []
    while len(selected) < max_output_size and queue:
        negative, index, begin = heapq.heappop(queue)
        original = score = np.float32(-negative)
        hard = False
        for j in range(len(selected) - 1, begin - 1, -1):
            similarity = _iou(boxes[index], boxes[selected[j]])
            weight = np.exp(scale * similarity * similarity) if sigma > 0 or similarity <= iou_threshold else 0.0
            score = np.float32(score * np.float32(weight))
            if sigma <= 0 and similarity > iou_threshold:
                hard = True
                break
            if score <= score_threshold:
                break
        if hard:
            continue
        if score == original:
            selected.append(index)
            kept.append(score)
        elif score > score_threshold:
            heapq.heappush(queue, (-float(score), index, len(selected)))
    return np.asarray(selected, np.int32), np.asarray(kept, scores_in.dtype)


def _iou(a, b) -> float:
    """Intersection over union of two [y1, x1, y2, x2] float32 boxes (corners in either order), in float32 as
    TF's kernel computes it; 0 for empty boxes."""
    zero = np.float32(0)
    ay1, ay2 = min(a[0], a[2]), max(a[0], a[2])
    ax1, ax2 = min(a[1], a[3]), max(a[1], a[3])
    by1, by2 = min(b[0], b[2]), max(b[0], b[2])
    bx1, bx2 = min(b[1], b[3]), max(b[1], b[3])
    area_a, area_b = (ay2 - ay1) * (ax2 - ax1), (by2 - by1) * (bx2 - bx1)
    if area_a <= 0 or area_b <= 0:
        return zero
    inter = max(min(ay2, by2) - max(ay1, by1), zero) * max(min(ax2, bx2) - max(ax1, bx1), zero)
    return inter / (area_a + area_b - inter)
