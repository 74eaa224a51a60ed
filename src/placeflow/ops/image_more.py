"""Host kernels of tf.image's box ops as TensorFlow 2.21's CPU kernels compute them: DrawBoundingBoxesV2,
ExtractGlimpseV2 (noise 'zero', or a glimpse needing no noise), CombinedNonMaxSuppression, the tiled batched
non-max suppression of non_max_suppression_padded, NonMaxSuppressionWithOverlaps, EncodeJpegVariableQuality
and DecodeWebP (still images, through Pillow). Sampled boxes are in image_sample.py."""

from __future__ import annotations

import io

import numpy as np

from ..framework import dtypes as d
from ..framework.errors import InvalidArgumentError, UnimplementedError
from .image import _non_max_suppression
from .image_codecs import _encode_jpeg, _scalar_bytes
from .registry import define, no_gradient_registered, NOT_DIFFERENTIABLE
from .shape_rules import Incompatible

# TF's colours when none are given: yellow, blue, red, lime, purple, olive, maroon, navy, aqua, fuchsia
_COLOURS = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1],
                     [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


def _host(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


@define("DrawBoundingBoxesV2", {d.float16, d.float32}, gpu=(), shape=lambda shapes, attrs: shapes[0],
        grad=no_gradient_registered("DrawBoundingBoxesV2"))
def _draw_boxes(xp, images, boxes, colors):
    """Each box's one-pixel outline in the colour of its index (cycling through the colour rows)."""
    canvas, boxes, table = _host(images).copy(), _host(boxes).astype(np.float32), _host(colors).astype(np.float32)
    if canvas.ndim != 4:
        raise InvalidArgumentError(None, None, f"The rank of the images should be 4. Received: {canvas.ndim}")
    batch, height, width, depth = canvas.shape
    if depth not in (1, 3, 4):
        raise InvalidArgumentError(None, None, "Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)")
    if boxes.ndim != 3 or boxes.shape[2] != 4:
        raise InvalidArgumentError(None, None, f"The size of the third dimension of the box must be 4. Received: "
                                               f"{boxes.shape[-1] if boxes.ndim else 0}")
    if boxes.shape[0] != batch:
        raise InvalidArgumentError(None, None, f"boxes and images must have the same batch size: {boxes.shape[0]} "
                                               f"vs {batch}")
    table = table.reshape(-1, table.shape[-1]) if table.size else _COLOURS
    if table.shape[1] < depth:
        raise InvalidArgumentError(None, None, f"colors must have equal or more channels than the image provided: "
                                               f"{list(table.shape)}")
    for b in range(batch):
        for index, box in enumerate(boxes[b]):
            colour = table[index % len(table)][:depth].astype(canvas.dtype)
            top, left = int(box[0] * np.float32(height - 1)), int(box[1] * np.float32(width - 1))
            bottom, right = int(box[2] * np.float32(height - 1)), int(box[3] * np.float32(width - 1))
            if top > bottom or left > right or top >= height or bottom < 0 or left >= width or right < 0:
                continue   # inverted, or wholly outside the image: TF draws nothing
            rows = slice(max(top, 0), min(bottom, height - 1) + 1)
            cols = slice(max(left, 0), min(right, width - 1) + 1)
            if top >= 0:
                canvas[b, top, cols] = colour
            if bottom < height:
                canvas[b, bottom, cols] = colour
            if left >= 0:
                canvas[b, rows, left] = colour
            if right < width:
                canvas[b, rows, right] = colour
    return xp.asarray(canvas)


def _glimpse_shape(shapes, attrs):
    images, offsets = shapes[0], shapes[1]
    if images is not None and len(images) != 4:
        raise Incompatible(f"Shape must be rank 4 but is rank {len(images)}")
    if offsets is not None and len(offsets) != 2:
        raise Incompatible(f"Shape must be rank 2 but is rank {len(offsets)}")
    if images is not None and offsets is not None and None not in (images[0], offsets[0]) and \
            images[0] != offsets[0]:
        raise Incompatible(f"Dimensions must be equal, but are {images[0]} and {offsets[0]}")
    if offsets is not None and offsets[1] is not None and offsets[1] != 2:
        raise Incompatible(f"Dimension must be 2 but is {offsets[1]}")
    rows, cols = attrs["size"]
    return None if images is None else (images[0], rows, cols, images[3])


@define("ExtractGlimpseV2", {d.float32}, gpu=(), shape=_glimpse_shape, grad=no_gradient_registered("ExtractGlimpseV2"))
def _extract_glimpse(xp, images, offsets, size=(1, 1), centered=True, normalized=True, noise="uniform"):
    """The size[0] x size[1] window of each image at its (y, x) offset (TF 2's coordinates: normalized offsets
    scale by the image size, centered ones are from its centre, and the window is placed by its centre when
    both); the part outside the image is zero (noise='zero')."""
    images, offsets = _host(images).astype(np.float32), _host(offsets).astype(np.float32)
    if images.ndim != 4:
        raise InvalidArgumentError(None, None, f"input must be 4-dimensional{list(images.shape)}")
    batch, height, width, channels = images.shape
    if offsets.ndim != 2 or offsets.shape[0] != batch:
        raise InvalidArgumentError(None, None, f"first dimension should be batch{list(offsets.shape)}")
    if offsets.shape[1] != 2:
        raise InvalidArgumentError(None, None, f"offsets must be of shape [batch, 2]{list(offsets.shape)}")
    rows, cols = (int(v) for v in size)
    out = np.zeros((batch, rows, cols, channels), np.float32)
    for b in range(batch):
        y, x = offsets[b]
        if normalized:
            y, x = y * np.float32(height), x * np.float32(width)
            if centered:
                y, x = y / np.float32(2) + np.float32(height / 2.0), x / np.float32(2) + np.float32(width / 2.0)
        elif centered:
            y, x = y + np.float32(height / 2.0), x + np.float32(width / 2.0)
        if centered and normalized:
            y, x = y - np.float32(rows / 2.0), x - np.float32(cols / 2.0)
        top, left = int(y), int(x)          # truncated toward zero, as TF's kernel
        src_rows, dst_rows = _overlap(top, rows, height)
        src_cols, dst_cols = _overlap(left, cols, width)
        covered = (dst_rows.stop - dst_rows.start) * (dst_cols.stop - dst_cols.start)
        if noise != "zero" and covered < rows * cols:   # the API refuses these first where it can see them
            raise UnimplementedError(None, None, f"extract_glimpse(noise={noise!r}) reaching outside the image is "
                                                 "not implemented in placeflow; use noise='zero'.")
        if covered:
            out[b, dst_rows, dst_cols] = images[b, src_rows, src_cols]
    return xp.asarray(out)


def _overlap(start, length, size):
    """(source slice, destination slice) of a window [start, start + length) over an axis of `size`."""
    low, high = max(start, 0), min(start + length, size)
    if high <= low:
        return slice(0, 0), slice(0, 0)
    return slice(low, high), slice(low - start, high - start)


def _combined_shape(shapes, attrs):
    boxes, scores = shapes[0], shapes[1]
    if boxes is not None and len(boxes) != 4:
        raise Incompatible(f"Shape must be rank 4 but is rank {len(boxes)}")
    if scores is not None and len(scores) != 3:
        raise Incompatible(f"Shape must be rank 3 but is rank {len(scores)}")
    if boxes is not None and scores is not None:
        for i in (0, 1):
            if None not in (boxes[i], scores[i]) and boxes[i] != scores[i]:
                raise Incompatible(f"Dimensions must be equal, but are {boxes[i]} and {scores[i]}")
        if None not in (boxes[2], scores[2]) and boxes[2] not in (1, scores[2]):
            raise Incompatible("third dimension of boxes must be either 1 or equal to the third dimension of scores")
    batch = shapes[0][0] if shapes[0] is not None else None
    size = attrs["max_detections"]
    return [(batch, size, 4), (batch, size), (batch, size), (batch,)]


@define("CombinedNonMaxSuppression", {d.float32}, gpu=(), shape=_combined_shape,
        grad=no_gradient_registered("CombinedNonMaxSuppression"),
        dtype=lambda dtype, attrs: [d.float32, d.float32, d.float32, d.int32])
def _combined_nms(xp, boxes, scores, max_output_size_per_class=0, max_detections=0, iou_threshold=0.5,
                  score_threshold=float("-inf"), clip_boxes=True):
    """Greedy non-max suppression per image and class, then the best `max_detections` of all classes."""
    boxes, scores = _host(boxes).astype(np.float32), _host(scores).astype(np.float32)
    if boxes.ndim != 4 or boxes.shape[3] != 4:
        raise InvalidArgumentError(None, None, f"boxes must be 4-D [batch, num_boxes, q, 4]{list(boxes.shape)}")
    if scores.ndim != 3 or scores.shape[:2] != boxes.shape[:2]:
        raise InvalidArgumentError(None, None, f"scores must be 3-D [batch, num_boxes, num_classes] matching boxes"
                                               f"{list(scores.shape)}")
    batch, _, q, _ = boxes.shape
    classes = scores.shape[2]
    if q not in (1, classes):
        raise InvalidArgumentError(None, None, "third dimension of boxes must be either 1 or num classes")
    out_boxes = np.zeros((batch, max_detections, 4), np.float32)
    out_scores = np.zeros((batch, max_detections), np.float32)
    out_classes = np.zeros((batch, max_detections), np.float32)
    valid = np.zeros((batch,), np.int32)
    for b in range(batch):
        found = []
        for c in range(classes):
            chosen, kept = _non_max_suppression(np, boxes[b, :, 0 if q == 1 else c], scores[b, :, c],
                                                max_output_size=max_output_size_per_class,
                                                iou_threshold=iou_threshold, score_threshold=score_threshold)
            found += [(-float(s), c, rank, int(i)) for rank, (i, s) in enumerate(zip(chosen, kept))]
        found.sort()
        found = found[:max_detections]
        valid[b] = len(found)
        for k, (negative, c, _, i) in enumerate(found):
            box = boxes[b, i, 0 if q == 1 else c]
            out_boxes[b, k] = np.clip(box, 0, 1) if clip_boxes else box
            out_scores[b, k], out_classes[b, k] = -negative, c
    return xp.asarray(out_boxes), xp.asarray(out_scores), xp.asarray(out_classes), xp.asarray(valid)


def _overlaps_shape(shapes, attrs):
    overlaps, scores = shapes[0], shapes[1]
    if overlaps is not None and len(overlaps) != 2:
        raise Incompatible(f"Shape must be rank 2 but is rank {len(overlaps)}")
    if scores is not None and len(scores) != 1:
        raise Incompatible(f"Shape must be rank 1 but is rank {len(scores)}")
    if overlaps is not None and None not in overlaps and overlaps[0] != overlaps[1]:
        raise Incompatible(f"Dimensions must be equal, but are {overlaps[0]} and {overlaps[1]}")
    if overlaps is not None and scores is not None and None not in (overlaps[0], scores[0]) and \
            overlaps[0] != scores[0]:
        raise Incompatible(f"Dimensions must be equal, but are {overlaps[0]} and {scores[0]}")
    return (None,)


@define("NonMaxSuppressionWithOverlaps", {d.float32}, gpu=(), shape=_overlaps_shape,
        grad=NOT_DIFFERENTIABLE, dtype=lambda dtype, attrs: d.int32)
def _nms_overlaps(xp, overlaps, scores, max_output_size=0, overlap_threshold=0.5, score_threshold=float("-inf")):
    """Greedy non-max suppression by a given overlap matrix: overlaps[candidate, selected] above the threshold
    suppresses the candidate."""
    overlaps, scores = _host(overlaps).astype(np.float32), _host(scores).astype(np.float32)
    if overlaps.ndim != 2 or overlaps.shape[0] != overlaps.shape[1]:
        raise InvalidArgumentError(None, None, f"overlaps must be square{list(overlaps.shape)}")
    if scores.ndim != 1 or scores.shape[0] != overlaps.shape[0]:
        raise InvalidArgumentError(None, None, f"scores has incompatible shape{list(scores.shape)}")
    if max_output_size < 0:
        raise InvalidArgumentError(None, None, "max_output_size must be non-negative")
    selected = []
    for i in sorted(range(len(scores)), key=lambda k: (-scores[k], k)):
        if len(selected) >= max_output_size or not scores[i] > score_threshold:
            break
        if all(not overlaps[i, j] > overlap_threshold for j in selected):
            selected.append(i)
    return xp.asarray(np.asarray(selected, np.int32))


def _encode_quality_shape(shapes, attrs):
    image, quality = shapes[0], shapes[1]
    if image is not None and len(image) != 3:
        raise Incompatible(f"Shape must be rank 3 but is rank {len(image)}")
    if quality is not None and len(quality) != 0:
        raise Incompatible(f"Shape must be rank 0 but is rank {len(quality)}")
    return ()


@define("EncodeJpegVariableQuality", {d.uint8}, gpu=(), shape=_encode_quality_shape,
        grad=no_gradient_registered("EncodeJpegVariableQuality"), dtype=lambda dtype, attrs: d.string)
def _encode_jpeg_quality(xp, image, quality):
    """A JPEG file of an [height, width, 1 or 3] uint8 image at the quality given as a tensor."""
    pixels = _host(image)
    if pixels.ndim != 3:
        raise InvalidArgumentError(None, None, f"image must be 3-dimensional{list(pixels.shape)}")
    if pixels.shape[-1] not in (1, 3):
        raise InvalidArgumentError(None, None, f"image must have 1 or 3 channels, got {list(pixels.shape)}")
    return _encode_jpeg(xp, pixels, quality=int(np.asarray(_host(quality))))


def _webp_shape(shapes, attrs):
    return (None, None, None, attrs["channels"] or None)


@define("DecodeWebP", frozenset({d.string}), gpu=(), shape=_webp_shape, grad=no_gradient_registered("DecodeWebP"),
        dtype=lambda dtype, attrs: d.uint8)
def _decode_webp(xp, contents, channels=0):
    """[1, height, width, 3 or 4] uint8 pixels of a still WebP file (its own channels, as TF's kernel)."""
    raw = _scalar_bytes(contents)
    if not (raw[:4] == b"RIFF" and raw[8:12] == b"WEBP"):
        raise InvalidArgumentError(None, None, "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, "
                                               "WebP required.")
    from PIL import Image
    picture = Image.open(io.BytesIO(raw))
    if getattr(picture, "n_frames", 1) > 1:
        raise InvalidArgumentError(None, None, "decode_webp of an animated WebP is not implemented in placeflow.")
    has_alpha = picture.mode in ("RGBA", "LA") or "transparency" in picture.info
    file_channels = 4 if has_alpha else 3
    if channels and channels != file_channels:
        raise InvalidArgumentError(None, None, "Number of channels requested does not match input")
    pixels = np.asarray(picture.convert("RGBA" if has_alpha else "RGB"), np.uint8)
    return xp.asarray(pixels[None])
