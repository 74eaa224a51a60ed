"""Host kernels of tf.image's sampled and batched boxes, as TensorFlow 2.21 computes them: the tiled batched
non-max suppression of non_max_suppression_padded (TF composes it from ops in Python; here it runs in NumPy,
float32 step for step), and (Stateless)SampleDistortedBoundingBox drawing from TF's Philox stream."""

from __future__ import annotations

import threading

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError
from . import philox
from .registry import NOT_DIFFERENTIABLE, define, no_gradient_registered

_F = np.float32


def _host(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


# -- non_max_suppression_padded --------------------------------------------------------------------------------

def _overlap(a, b):
    """[batch, len(a), len(b)] IoU of canonical boxes, with TF's epsilon in the union."""
    ay0, ax0, ay1, ax1 = (a[..., k][:, :, None] for k in range(4))
    by0, bx0, by1, bx1 = (b[..., k][:, None, :] for k in range(4))
    inter = np.maximum(np.minimum(ax1, bx1) - np.maximum(ax0, bx0), _F(0)) * \
        np.maximum(np.minimum(ay1, by1) - np.maximum(ay0, by0), _F(0))
    union = (ay1 - ay0) * (ax1 - ax0) + (by1 - by0) * (bx1 - bx0) - inter + _F(1e-8)
    return (inter / union).astype(np.float32)


def _suppress_tile(boxes, tile, size, threshold):
    """Tile `tile` of `boxes` after suppression by the earlier tiles' survivors and within itself."""
    piece = boxes[:, tile * size:(tile + 1) * size].copy()
    for earlier in range(tile):
        iou = _overlap(boxes[:, earlier * size:(earlier + 1) * size], piece)
        piece *= np.all(iou < threshold, axis=1).astype(np.float32)[:, :, None]
    iou = _overlap(piece, piece)
    upper = np.arange(size)[None, :] > np.arange(size)[:, None]
    iou *= (upper[None] & (iou >= threshold)).astype(np.float32)
    total, changed = iou.sum(axis=(1, 2), dtype=np.float32), True
    while changed:
        free = (iou.max(axis=1) < threshold).astype(np.float32)[:, :, None]
        iou = (np.max(free * iou, axis=1) < threshold).astype(np.float32)[:, :, None] * iou
        new_total = iou.sum(axis=(1, 2), dtype=np.float32)
        changed, total = bool(np.any(total - new_total > threshold)), new_total
    piece *= (1.0 - (iou.sum(axis=1) > 0).astype(np.float32))[:, :, None]
    return piece


def _padded_shape(shapes, attrs):
    batch = shapes[0][0] if shapes[0] is not None else None
    return [(batch, attrs["max_output_size"]), (batch,)]


@define("_NonMaxSuppressionPadded", {d.float16, d.float32, d.float64}, gpu=(), shape=_padded_shape,
        grad=NOT_DIFFERENTIABLE, dtype=lambda dtype, attrs: [d.int32, d.int32])
def _nms_padded(xp, boxes, scores, max_output_size=0, iou_threshold=0.5, score_threshold=None, sorted_input=False,
                canonicalized_coordinates=False, tile_size=512):
    """non_max_suppression_padded's batched tiled algorithm ([batch, n, 4] boxes): the first max_output_size
    surviving indices per image (0-padded) and their count. A box counts only if a coordinate is positive."""
    boxes, scores = _host(boxes).astype(np.float32), _host(scores).astype(np.float32)
    batch, count = scores.shape
    if score_threshold is not None:
        mask = (scores > _F(score_threshold)).astype(np.float32)
        scores, boxes = scores * mask, boxes * mask[:, :, None]
    if not canonicalized_coordinates and batch and count:
        if not boxes[0, 0, 0] <= boxes[0, 0, 2]:            # TF decides by the first box of the first image
            boxes = boxes[:, :, [2, 1, 0, 3]]
        if not boxes[0, 0, 1] <= boxes[0, 0, 3]:
            boxes = boxes[:, :, [0, 3, 2, 1]]
    order = np.zeros((batch, count), np.int64)
    if not sorted_input:
        order = np.argsort(-scores, axis=1, kind="stable")
        boxes = np.take_along_axis(boxes, order[:, :, None], axis=1)
    padded = -(-max(count, max_output_size) // tile_size) * tile_size
    boxes = np.concatenate([boxes, np.zeros((batch, padded - count, 4), np.float32)], axis=1)
    found, tile = np.zeros(batch, np.int32), 0
    while found.min(initial=max_output_size) < max_output_size and tile < padded // tile_size:
        piece = _suppress_tile(boxes, tile, tile_size, _F(iou_threshold))
        boxes[:, tile * tile_size:(tile + 1) * tile_size] = piece
        found += np.any(piece > 0, axis=2).sum(axis=1).astype(np.int32)
        tile += 1
    valid = np.minimum(found, max_output_size).astype(np.int32)
    alive = np.any(boxes > 0, axis=2)
    indices = np.zeros((batch, max_output_size), np.int32)
    for b in range(batch):
        kept = np.flatnonzero(alive[b])[:valid[b]]
        indices[b, :len(kept)] = order[b, kept] if not sorted_input else kept
    return xp.asarray(indices), xp.asarray(valid)


# -- sample_distorted_bounding_box -------------------------------------------------------------------------------

class _Draws:
    """TF's SimplePhilox over one Philox stream: 32-bit words one at a time, floats from one word, and exact
    uniform integers by rejection."""

    def __init__(self, key, counter):
        self._key, self._counter, self._words, self._calls = key, counter, [], 0

    def word(self) -> int:
        if not self._words:
            self._words = [int(w) for w in philox.words(self._key, self._counter, 1, self._calls)[0]]
            self._calls += 1
        return self._words.pop(0)

    def unit(self) -> float:
        return float(philox._float_from_bits(np.array([self.word()], np.uint32))[0])

    def below(self, n: int) -> int:
        if n & (n - 1) == 0:
            return self.word() & (n - 1)
        reject = (0xFFFFFFFF % n) + 1
        while True:
            value = self.word()
            if value >= reject:
                return value % n


def _lrint(value) -> int:
    return int(np.rint(_F(value)))


def _random_crop(draws, width, height, low, high, ratio):
    """(x0, y0, x1, y1) of a crop with aspect `ratio` and relative area in [low, high], or None."""
    if high <= 0 or ratio <= 0 or low > high:
        return None
    min_area, max_area = _F(_F(low) * _F(width)) * _F(height), _F(_F(high) * _F(width)) * _F(height)
    rows, most = _lrint(np.sqrt(_F(min_area / ratio))), _lrint(np.sqrt(_F(max_area / ratio)))
    if _lrint(_F(most) * ratio) > width:
        most = int(_F(width + 0.5 - 0.0000001) / ratio)
        if _lrint(_F(most) * ratio) > width:
            most -= 1
    most = min(most, height)
    rows = min(rows, most)
    if rows < most:
        rows += draws.below(most - rows + 1)
    cols = _lrint(_F(rows) * ratio)
    area = _F(cols * rows)
    if area < min_area:
        rows += 1
        cols = _lrint(_F(rows) * ratio)
        area = _F(cols * rows)
    if area > max_area:
        rows -= 1
        cols = _lrint(_F(rows) * ratio)
        area = _F(cols * rows)
    if area < min_area or area > max_area or cols > width or rows > height or cols <= 0 or rows <= 0:
        return None
    y = draws.below(height - rows) if rows < height else 0
    x = draws.below(width - cols) if cols < width else 0
    return x, y, x + cols, y + rows


def _area(rect) -> int:
    return (rect[2] - rect[0]) * (rect[3] - rect[1])


def _covers(crop, boxes, covered) -> bool:
    if _area(crop) < 1:
        return False
    for box in boxes:
        if _area(box) < 1:
            continue
        inter = (max(crop[0], box[0]), max(crop[1], box[1]), min(crop[2], box[2]), min(crop[3], box[3]))
        part = _area(inter) if inter[0] <= inter[2] and inter[1] <= inter[3] else 0
        if _F(part) / _F(_area(box)) >= _F(covered):
            return True
    return False


def _sample_box(draws, image_size, bounding_boxes, min_object_covered, aspect_ratio_range, area_range,
                max_attempts, use_image_if_no_bounding_boxes):
    size = _host(image_size).reshape(-1)
    if size.shape[0] != 3:
        raise InvalidArgumentError(None, None, f"image_size must contain 3 elements{list(size.shape)}")
    height, width = int(size[0]), int(size[1])
    if height <= 0 or width <= 0:
        raise InvalidArgumentError(None, None, f"image height and width must be positive: {height}, {width}")
    raw = _host(bounding_boxes).astype(np.float32)
    if raw.shape[-1:] != (4,):
        raise InvalidArgumentError(None, None, f"input boxes must have 4 coordinates{list(raw.shape)}")
    boxes = []
    for box in raw.reshape(-1, 4):
        for value in box:
            if not 0.0 <= value <= 1.0:
                raise InvalidArgumentError(None, None, f"All bounding box coordinates must be in [0.0, 1.0]: "
                                                       f"{value:g}")
        boxes.append((int(box[1] * _F(width)), int(box[0] * _F(height)), int(box[3] * _F(width)),
                      int(box[2] * _F(height))))
    image = (0, 0, width, height)
    if not boxes:
        if not use_image_if_no_bounding_boxes:
            raise InvalidArgumentError(None, None, "No bounding boxes provided as input. One must enable "
                                                   "use_image_if_no_bounding_boxes if you wish to not provide any "
                                                   "bounding boxes.")
        boxes.append(image)
    covered = float(np.asarray(_host(min_object_covered)))
    low_ratio, high_ratio = (float(v) for v in aspect_ratio_range)
    crop = image
    for _ in range(int(max_attempts)):
        ratio = _F(draws.unit()) * _F(high_ratio - low_ratio) + _F(low_ratio)
        candidate = _random_crop(draws, width, height, float(area_range[0]), float(area_range[1]), _F(ratio))
        if candidate is not None and _covers(candidate, boxes, covered):
            crop = candidate
            break
    dtype = size.dtype
    begin = np.array([crop[1], crop[0], 0], dtype)
    extent = np.array([crop[3] - crop[1], crop[2] - crop[0], -1], dtype)
    box = np.array([[[crop[1] / _F(height), crop[0] / _F(width), crop[3] / _F(height), crop[2] / _F(width)]]],
                   np.float32)
    return begin, extent, box


def _sample_shape(shapes, attrs):
    return [(3,), (3,), (1, 1, 4)]


def _sample_dtype(dtype, attrs):
    return [dtype, dtype, d.float32]


_SIZES = {d.uint8, d.int8, d.int16, d.int32, d.int64}


@define("StatelessSampleDistortedBoundingBox", _SIZES, gpu=(), shape=_sample_shape, dtype=_sample_dtype,
        grad=no_gradient_registered("StatelessSampleDistortedBoundingBox"))
def _stateless_sample(xp, image_size, bounding_boxes, min_object_covered, seed, aspect_ratio_range=(0.75, 1.33),
                      area_range=(0.05, 1.0), max_attempts=100, use_image_if_no_bounding_boxes=False):
    """A random crop covering enough of a box: TF's attempts, drawn from the Philox stream of the seed pair."""
    key, counter = philox.key_counter(_host(seed))
    found = _sample_box(_Draws(key, counter), image_size, bounding_boxes, min_object_covered, aspect_ratio_range,
                        area_range, max_attempts, use_image_if_no_bounding_boxes)
    return tuple(xp.asarray(v) for v in found)


class CallStream:
    """The Philox stream of one SampleDistortedBoundingBoxV2 kernel (seed, seed2): each run takes max_attempts
    Philox calls from it, as TF's kernel reserves."""

    def __init__(self, seed: int, seed2: int):
        self._key = (seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF)
        self._counter = (0, 0, seed2 & 0xFFFFFFFF, (seed2 >> 32) & 0xFFFFFFFF)
        self._lock = threading.Lock()

    def reserve(self, calls: int) -> tuple:
        """(key, counter) of the next run; the stream moves past `calls` Philox calls."""
        with self._lock:
            key, counter = self._key, self._counter
            self._counter = tuple(philox._counters(counter, int(calls), 1)[0].tolist())
        return key, counter


@define("SampleDistortedBoundingBoxV2", _SIZES, gpu=(), shape=_sample_shape, dtype=_sample_dtype,
        grad=NOT_DIFFERENTIABLE)
def _stateful_sample(xp, image_size, bounding_boxes, min_object_covered, generator=None,
                     aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0), max_attempts=100,
                     use_image_if_no_bounding_boxes=False):
    """A random crop covering enough of a box, drawn from the op's own Philox stream."""
    key, counter = generator.reserve(int(max_attempts))
    found = _sample_box(_Draws(key, counter), image_size, bounding_boxes, min_object_covered, aspect_ratio_range,
                        area_range, max_attempts, use_image_if_no_bounding_boxes)
    return tuple(xp.asarray(v) for v in found)
